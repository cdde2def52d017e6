"""Builders shared by the tournaments' tests: terms, fields of entrants, finished tables."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tienlen.tournaments import Entrant, Format, HandScore, Sitter, Table, TableResult, Terms

BASE = Terms(
    name="Friday cup",
    format=Format.SWISS,
    players=4,
    preset="standard",
    hands=4,
    turn_seconds=30,
    starts_at=None,
    min_entrants=4,
    max_entrants=64,
    rated=False,
    bots=True,
    rounds=3,
)


def terms(**changes: Any) -> Terms:
    """The base terms with changes."""
    return replace(BASE, **changes)


def field(n: int, ratings: Sequence[int] | None = None) -> list[Entrant]:
    """``n`` entrants a1.. (number = join order), ratings given or all 1500."""
    return [
        Entrant(f"a{i + 1}", f"Player {i + 1}", i % 3 == 0, ratings[i] if ratings else 1500, i + 1) for i in range(n)
    ]


def house(i: int) -> Sitter:
    """The i-th house bot."""
    return Sitter(None, f"house {i + 1}")


def play(round_no: int, table: Table, rng: random.Random, ended_at: float = 0.0) -> TableResult:
    """A random finished table: random hand points (3/2/1/0 by a random order), places by total."""
    n = len(table.sitters)
    deals: Sequence[int | None] = table.deals if table.deals is not None else [None] * 2
    hands = []
    for deal in deals:
        order = list(range(n))
        rng.shuffle(order)
        hands.append(HandScore(deal, tuple(n - 1 - order.index(seat) for seat in range(n))))
    totals = tuple(sum(h.points[seat] for h in hands) for seat in range(n))
    ranking = sorted(range(n), key=lambda seat: (-totals[seat], seat))
    places = tuple(ranking.index(seat) + 1 for seat in range(n))
    return TableResult(
        round_no, table.number, f"m{round_no}.{table.number}", table.sitters, places, totals, tuple(hands), ended_at
    )


def result(
    sitters: Sequence[str | None],
    places: Sequence[int],
    points: Sequence[int] | None = None,
    *,
    round_no: int = 1,
    table: int = 1,
    ended_at: float = 0.0,
    hands: Sequence[HandScore] = (),
) -> TableResult:
    """A finished table from account ids (None = a house bot) and places."""
    seated = tuple(Sitter(who, who or "house") for who in sitters)
    totals = tuple(points) if points is not None else tuple(len(places) - p for p in places)
    return TableResult(
        round_no, table, f"m{round_no}.{table}.{ended_at}", seated, tuple(places), totals, tuple(hands), ended_at
    )
