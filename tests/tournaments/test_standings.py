"""Standings: each format's score and tiebreaks, one named case each; every entrant ranked once, 1..n."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.tournaments import Format, HandScore, TableResult, Terms, standings, swiss_round

from .helpers import field, house, play, result, terms

SWISS = terms()
ARENA = terms(format=Format.ARENA, rounds=None, window_s=3600.0)
DUPLICATE = terms(format=Format.DUPLICATE, rounds=None, deals=8, hands=1, min_entrants=4, max_entrants=8)

# (rule, terms, results, the account ids in rank order expected)
CASES: list[tuple[str, Terms, list[TableResult], list[str]]] = [
    (
        "swiss: score = players - place, summed",
        SWISS,
        [result(["a1", "a2", "a3", "a4"], [4, 3, 2, 1])],
        ["a4", "a3", "a2", "a1"],
    ),
    (
        "swiss tiebreak 1: Buchholz (table-mates' scores; house bots count 0)",
        SWISS,
        [
            result(["a1", "a3", None, None], [1, 2, 3, 4], table=1),  # a1 3, a3 2
            result(["a2", None, None, "a4"], [1, 2, 3, 4], table=2),  # a2 3, a4 0
        ],
        ["a1", "a2", "a3", "a4"],  # a1's mate a3 scored 2, a2's mate a4 scored 0
    ),
    (
        "swiss tiebreak 2: total match points",
        SWISS,
        [
            result(["a2", None], [1, 2], [5, 0], table=1),
            result(["a1", None], [1, 2], [9, 0], table=2),
        ],
        ["a1", "a2"],
    ),
    (
        "swiss tiebreak 3: firsts",
        SWISS,
        [
            result(["a2", None, None], [2, 1, 3], [3, 3, 0], round_no=1, table=1),  # a2: 1 point
            result(["a2", None, None], [2, 1, 3], [3, 3, 0], round_no=2, table=1),  # a2: 2 points, 0 firsts
            result(["a1", None, None], [1, 2, 3], [3, 3, 0], round_no=1, table=2),  # a1: 2 points, 1 first
            result(["a1", None, None], [3, 2, 1], [3, 3, 0], round_no=2, table=2),  # a1: 2 points
        ],
        ["a1", "a2"],
    ),
    ("swiss tiebreak 4: entrant number", SWISS, [], ["a1", "a2", "a3"]),
    (
        "arena: after two firsts in a row a first scores double",
        ARENA,
        [
            result(["a1", None], [1, 2], ended_at=1),
            result(["a1", None], [1, 2], ended_at=2),
            result(["a1", None], [1, 2], ended_at=3),  # a1: 1 + 1 + 2 = 4
            result(["a2", None], [1, 2], ended_at=1),
            result(["a2", None], [1, 2], ended_at=2),
            result(["a2", None], [2, 1], ended_at=3),
            result(["a2", None], [1, 2], ended_at=4),  # a2: 1 + 1 + 0 + 1 = 3 (the streak broke)
        ],
        ["a1", "a2"],
    ),
    (
        "arena tiebreak 1: performance (mean place points a match)",
        ARENA,
        [
            result(["a1", None, None], [3, 2, 1], ended_at=1),
            result(["a1", None, None], [2, 1, 3], ended_at=2),  # a1: 0 + 1 in 2 matches
            result(["a2", None, None], [2, 1, 3], ended_at=1),  # a2: 1 in 1 match
        ],
        ["a2", "a1"],
    ),
    (
        "arena tiebreak 2: firsts",
        ARENA,
        [
            result(["a1", None], [1, 2], ended_at=1),
            result(["a1", None], [2, 1], ended_at=2),  # a1: 1 in 2, 1 first
            result(["a2", None, None], [2, 1, 3], ended_at=1),
            result(["a2", None, None], [3, 2, 1], ended_at=2),  # a2: 1 in 2, 0 firsts
        ],
        ["a1", "a2"],
    ),
    (
        "duplicate: matchpoints over the holders of the same hand of the same deal",
        DUPLICATE,
        [
            result(["a1", "a2"], [1, 2], [2, 0], table=1, hands=[HandScore(0, (2, 0))]),
            result(["a3", "a4"], [1, 2], [1, 1], table=2, hands=[HandScore(0, (1, 1))]),
        ],
        ["a1", "a4", "a3", "a2"],  # seat 0: a1 beat a3 (1, 0); seat 1: a4 beat a2 (1, 0); ties by raw points
    ),
    (
        "duplicate tiebreak 1: total raw points",
        DUPLICATE,
        [
            result(["a1", "a2"], [2, 1], [1, 5], table=1, hands=[HandScore(0, (1, 1))]),
            result(["a3", "a4"], [1, 2], [1, 1], table=2, hands=[HandScore(0, (1, 1))]),
        ],
        ["a2", "a3", "a1", "a4"],  # all 1/2 a hand; a2 has most raw points; then firsts (a3) and number
    ),
    (
        "duplicate tiebreak 2: firsts",
        DUPLICATE,
        [
            result(["a1", "a2"], [2, 1], [1, 1], table=1, hands=[HandScore(0, (1, 1))]),
            result(["a3", "a4"], [2, 1], [1, 1], table=2, hands=[HandScore(0, (1, 1))]),
        ],
        ["a2", "a4", "a1", "a3"],
    ),
]


@pytest.mark.parametrize(("rule", "terms_", "results", "expected"), CASES, ids=[case[0] for case in CASES])
def test_scores_and_tiebreaks(rule: str, terms_: Terms, results: list[TableResult], expected: list[str]) -> None:
    """Rule: named in each case's id; the ranking follows the score, then each tiebreak in turn."""
    entrants = field(max(4, len(expected)))[: len(expected)]
    table = standings(terms_, entrants, results)
    assert [s.account_id for s in table] == expected
    assert [s.rank for s in table] == list(range(1, len(expected) + 1))


def test_duplicate_percent_is_mean_matchpoints() -> None:
    """Rule: duplicate's percent is the mean matchpoints over the hands held x 100 (a tie is half)."""
    results = [
        result(["a1", "a2"], [1, 2], [2, 0], table=1, hands=[HandScore(0, (2, 0)), HandScore(1, (1, 1))]),
        result(["a3", "a4"], [1, 2], [1, 1], table=2, hands=[HandScore(0, (1, 1)), HandScore(1, (1, 1))]),
    ]
    by_id = {s.account_id: s for s in standings(DUPLICATE, field(4), results)}
    assert by_id["a1"].score == 1.5 and by_id["a1"].percent == 75.0
    assert by_id["a3"].score == 0.5 and by_id["a3"].percent == 25.0


def test_withdrawn_entrants_stay_with_what_they_played() -> None:
    """Rule: a withdrawn entrant keeps its line in the standings, marked."""
    entrants = field(4)
    entrants[0] = replace(entrants[0], withdrawn=True)
    table = standings(SWISS, entrants, [result(["a1", "a2", "a3", "a4"], [1, 2, 3, 4])])
    assert table[0].account_id == "a1" and table[0].withdrawn and table[0].score == 3


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 23),
    players=st.integers(2, 4),
    rounds=st.integers(1, 4),
    fmt=st.sampled_from(list(Format)),
    seed=st.integers(0, 2**16),
)
def test_standings_rank_every_entrant_once(n: int, players: int, rounds: int, fmt: Format, seed: int) -> None:
    """Rule: whatever the results, the standings list every entrant exactly once, ranked 1..n."""
    rng = random.Random(seed)
    t = terms(players=players, rounds=rounds, min_entrants=players)
    entrants = field(n)
    results: list[TableResult] = []
    for round_no in range(1, rounds + 1):
        for seat_table in swiss_round(t, entrants, results, round_no, house):
            results.append(play(round_no, seat_table, rng, ended_at=float(round_no)))
    view = terms(format=fmt, players=players, rounds=None, window_s=None, deals=None, min_entrants=players)
    table = standings(view, entrants, results)
    assert sorted(s.account_id for s in table) == sorted(e.account_id for e in entrants)
    assert [s.rank for s in table] == list(range(1, n + 1))
