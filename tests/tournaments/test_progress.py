"""Progress: a round is over when every table has its result; each format's end."""

from __future__ import annotations

from tienlen.tournaments import Format, Sitter, Table, arena_open, finished, round_over

from .helpers import result, terms


def test_a_round_is_over_when_every_table_has_a_result() -> None:
    """Rule: round_over once each of the round's tables has a result."""
    tables = [Table(1, (Sitter("a1", "a"),), None), Table(2, (Sitter("a2", "b"),), None)]
    assert not round_over(tables, [result(["a1", None], [1, 2], table=1)])
    assert round_over(tables, [result(["a1", None], [1, 2], table=1), result(["a2", None], [1, 2], table=2)])


def test_each_format_finishes_on_its_own_term() -> None:
    """Rule: Swiss after its rounds, duplicate after deals / hands rounds, arena when the window closed and no table
    is playing."""
    swiss = terms(rounds=3)
    assert not finished(swiss, 2, 0, 0) and finished(swiss, 3, 0, 0)
    duplicate = terms(format=Format.DUPLICATE, rounds=None, deals=24, hands=4, min_entrants=8, max_entrants=8)
    assert not finished(duplicate, 5, 0, 0) and finished(duplicate, 6, 0, 0)
    arena = terms(format=Format.ARENA, rounds=None, window_s=600.0)
    assert arena_open(arena, 599.0, 0.0) and not arena_open(arena, 600.0, 0.0)
    assert not finished(arena, 0, 599.0, 0.0)
    assert not finished(arena, 0, 700.0, 0.0, playing=2)
    assert finished(arena, 0, 700.0, 0.0, playing=0)
