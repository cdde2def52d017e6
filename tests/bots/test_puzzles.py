"""The puzzle bank (bots/puzzles.py): every stored solution checked by a search written here, on the engine.

The independent search below plays the engine's own :class:`~tienlen.engine.match.Match`
(its legal plays, its passes, its flow of the hand): no code of :mod:`tienlen.bots.endgame`
or :mod:`tienlen.bots.puzzles` decides who wins. With two seats holding cards the search is
exact: the seat on turn wins if it goes out before the other seat against every defence.
Every stored puzzle is checked in the default run (TIENLEN_PUZZLE_SAMPLE=N checks a seeded
sample of N instead, for a slow machine).
"""

from __future__ import annotations

import os
import random
from functools import cache

import pytest

from tienlen.bots.puzzles import (
    BANK_PATH,
    DEFAULT_SEED,
    PLAYERS,
    Puzzle,
    load_bank,
    mine,
    mine_deal,
    position_id,
    puzzle_rules,
)
from tienlen.engine.combos import classify
from tienlen.engine.match import Match

BANK = load_bank()
MIN_BANK = 500
SAMPLE = int(os.environ.get("TIENLEN_PUZZLE_SAMPLE", "0"))
CHECKED = random.Random(44).sample(BANK, min(SAMPLE, len(BANK))) if SAMPLE else list(BANK)

Key = tuple[tuple[int, ...], int, int, int, int]


def _match(preset: str, hands: tuple[int, ...], turn: int, table: int, table_seat: int, locked: int) -> Match:
    """An engine match standing at this position (the empty seats are out)."""
    return Match(
        rules=puzzle_rules(preset),
        deal_seed=0,
        hand_number=1,
        hands=list(hands),
        turn=turn,
        table=classify(table) if table else None,
        table_seat=None if table_seat < 0 else table_seat,
        locked=locked,
        places=[s for s, h in enumerate(hands) if not h],
        scores=[0] * PLAYERS,
    )


def _key(m: Match) -> Key:
    assert m.turn is not None
    return (
        tuple(m.hands),
        m.turn,
        0 if m.table is None else m.table.mask,
        -1 if m.table_seat is None else m.table_seat,
        m.locked,
    )


def _options(m: Match) -> list[int]:
    """The seat on turn's legal actions by the engine: its plays, and 0 for a pass when a pass is allowed."""
    return [*m.legal_masks(), *([0] if m.table is not None else [])]


def _after(preset: str, key: Key, action: int) -> Match:
    """A fresh engine match at ``key`` with ``action`` applied (the mover must not go out with it)."""
    m = _match(preset, *key)
    seat = key[1]
    if action:
        m.play(seat, action)
    else:
        m.pass_turn(seat)
    return m


@cache
def wins(preset: str, key: Key, me: int) -> bool:
    """Whether ``me`` goes out before the other seat from this position, whatever that seat does."""
    m = _match(preset, *key)
    seat = key[1]
    options = _options(m)
    if m.hands[seat] in options:
        return seat == me  # the seat on turn goes out at once
    results = (wins(preset, _key(_after(preset, key, a)), me) for a in options)
    return any(results) if seat == me else all(results)


def winning_first_actions(p: Puzzle) -> list[int]:
    """The solver's first actions that force the win, by the independent search."""
    key: Key = (p.hands, p.turn, p.table, p.table_seat, p.locked)
    m = _match(p.preset, *key)
    return [a for a in _options(m) if wins(p.preset, _key(_after(p.preset, key, a)), p.turn)]


def test_the_bank_holds_at_least_500_distinct_puzzles() -> None:
    """The bank target: >= 500 puzzles, each id the digest of its position, no position twice."""
    assert BANK_PATH.exists()
    assert len(BANK) >= MIN_BANK
    assert len({p.id for p in BANK}) == len(BANK)
    for p in BANK:
        assert p.id == position_id(p.preset, p.hands, p.turn, p.table, p.table_seat, p.locked)


def test_every_puzzle_is_a_perfect_information_position_with_a_choice() -> None:
    """Exactly two seats hold cards (every unseen card is the other seat's), the solver has a choice, no instant out."""
    for p in BANK:
        assert sum(1 for h in p.hands if h) == 2
        assert p.hands[p.turn]
        m = _match(p.preset, p.hands, p.turn, p.table, p.table_seat, p.locked)
        options = _options(m)
        assert len(options) == p.choices >= 2
        assert p.hands[p.turn] not in options


@pytest.mark.parametrize("index", range(0, len(CHECKED), 50))
def test_exactly_one_first_action_wins_and_the_line_wins_against_every_defence(index: int) -> None:
    """Rule: a puzzle has ONE winning first action (0 with two) and its stored line keeps the win at each step.

    Each of the solver's steps in the line leaves a position the independent search says
    is won against every defence; each opponent step is a legal action of the engine; the
    line ends with the solver's last card.
    """
    for p in CHECKED[index : index + 50]:
        winning = winning_first_actions(p)
        assert winning == [p.line[0][1]], p.id
        key: Key = (p.hands, p.turn, p.table, p.table_seat, p.locked)
        for step, (seat, action) in enumerate(p.line):
            m = _match(p.preset, *key)
            assert m.turn == seat
            assert action in _options(m)
            if step == len(p.line) - 1:
                assert seat == p.turn and action == m.hands[seat]  # the solver goes out
                break
            assert action != m.hands[seat]  # nobody goes out before the end of the line
            key = _key(_after(p.preset, key, action))
            if seat == p.turn:
                assert wins(p.preset, key, p.turn), p.id


def test_mining_is_deterministic_and_the_bank_is_its_seed_s() -> None:
    """The same seed mines the same puzzles in the same order; the bank starts with what its seed mines."""
    first = [mine_deal(DEFAULT_SEED, d) for d in range(12)]
    again = [mine_deal(DEFAULT_SEED, d) for d in range(12)]
    assert first == again
    mined = list(mine(DEFAULT_SEED, 12))
    assert mined
    assert mined == list(BANK[: len(mined)])
