"""Scores and tiebreaks of every format, recomputed from the finished tables alone.

Place points: a match's place p at a table of n seats scores ``n - p``
(4 seats: 3/2/1/0). Ranks are 1..n, strict: the entrant number (join
order, earlier first) breaks every tie left. Withdrawn entrants stay in the
standings with what they played. A house bot (a seat with no entrant)
scores nothing and counts 0 wherever an opponent's score is summed.

========== ============================================ =====================================================
Format     Score                                        Tiebreaks, in order
========== ============================================ =====================================================
swiss      sum of place points                          1. Buchholz: the sum of the final scores of every
                                                        table-mate met (once per meeting; house bots 0)
                                                        2. total match points (the matches' own scores)
                                                        3. firsts (matches won)
                                                        4. entrant number, earlier first
arena      sum of place points; streak: after two       1. performance: mean place points a match (without
           first places in a row, each further first    the streak bonus; 0 before any match)
           scores double until a match not won          2. firsts
                                                        3. entrant number, earlier first
duplicate  matchpoints: for each hand held (deal, hand  1. total raw points (the matches' own scores)
           index), (holders beaten on that hand's       2. firsts
           points + half the holders tied) / (holders   3. entrant number, earlier first
           - 1), 0..1 (a lone holder: 1/2); the score
           is their sum, ``percent`` their mean x 100
========== ============================================ =====================================================

``tiebreaks`` holds the tiebreak values in that order (the number last).
Scores are computed exactly (fractions) and given as floats.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .entrants import Entrant
from .results import TableResult
from .terms import Format, Terms

STREAK_FROM = 2  # firsts in a row before a first scores double


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's line in the standings; ``percent`` is duplicate's mean matchpoints as a percentage."""

    rank: int
    account_id: str
    name: str
    bot: bool
    score: float
    tiebreaks: tuple[float, ...]
    matches: int
    firsts: int
    withdrawn: bool = False
    percent: float | None = None


def in_order(results: Sequence[TableResult]) -> list[TableResult]:
    """Results in the order they ended (then round, table, match id: a stable order for equal times)."""
    return sorted(results, key=lambda r: (r.ended_at, r.round, r.table, r.match_id))


def place_points(result: TableResult, seat: int) -> int:
    """The place points of a seat of a finished table: seats - place."""
    return len(result.sitters) - result.places[seat]


def seats_of(result: TableResult) -> list[tuple[int, str]]:
    """(seat, entrant account id) for every seat an entrant held."""
    return [(seat, s.entrant) for seat, s in enumerate(result.sitters) if s.entrant is not None]


def swiss_scores(results: Sequence[TableResult]) -> dict[str, Fraction]:
    """Swiss: each entrant's sum of place points."""
    scores: dict[str, Fraction] = defaultdict(Fraction)
    for result in results:
        for seat, who in seats_of(result):
            scores[who] += place_points(result, seat)
    return dict(scores)


def arena_scores(results: Sequence[TableResult]) -> dict[str, Fraction]:
    """Arena: each entrant's place points in the order its matches ended, a first doubled after two in a row."""
    scores: dict[str, Fraction] = defaultdict(Fraction)
    streak: dict[str, int] = defaultdict(int)
    for result in in_order(results):
        for seat, who in seats_of(result):
            points = place_points(result, seat)
            if result.places[seat] == 1:
                streak[who] += 1
                scores[who] += points * (2 if streak[who] > STREAK_FROM else 1)
            else:
                streak[who] = 0
                scores[who] += points
    return dict(scores)


def duplicate_matchpoints(results: Sequence[TableResult]) -> tuple[dict[str, Fraction], dict[str, int]]:
    """Duplicate: each entrant's matchpoints summed over the hands it held, and how many hands it held."""
    holders: dict[tuple[int, int], list[tuple[str | None, int]]] = defaultdict(list)
    for result in results:
        for hand in result.hands:
            if hand.deal is None:
                continue
            for seat, points in enumerate(hand.points):
                holders[hand.deal, seat].append((result.sitters[seat].entrant, points))
    total: dict[str, Fraction] = defaultdict(Fraction)
    held: dict[str, int] = defaultdict(int)
    for group in holders.values():
        for who, points in group:
            if who is None:
                continue
            held[who] += 1
            if len(group) == 1:
                total[who] += Fraction(1, 2)
                continue
            beaten = sum(1 for _, other in group if other < points)
            tied = sum(1 for _, other in group if other == points) - 1
            total[who] += Fraction(2 * beaten + tied, 2 * (len(group) - 1))
    return dict(total), dict(held)


def standings(terms: Terms, entrants: Sequence[Entrant], results: Sequence[TableResult]) -> tuple[Standing, ...]:
    """Every entrant ranked 1..n by the format's score and tiebreaks (the module's table)."""
    matches: dict[str, int] = defaultdict(int)
    firsts: dict[str, int] = defaultdict(int)
    raw: dict[str, int] = defaultdict(int)
    plain: dict[str, int] = defaultdict(int)
    for result in results:
        for seat, who in seats_of(result):
            matches[who] += 1
            firsts[who] += result.places[seat] == 1
            raw[who] += result.points[seat]
            plain[who] += place_points(result, seat)
    percent: Mapping[str, float | None] = {}
    keys: dict[str, tuple[Fraction, ...]]
    if terms.format is Format.SWISS:
        scores = swiss_scores(results)
        buchholz: dict[str, Fraction] = defaultdict(Fraction)
        for result in results:
            ids = [who for _, who in seats_of(result)]
            for who in ids:
                buchholz[who] += sum((scores.get(mate, Fraction(0)) for mate in ids if mate != who), Fraction(0))
        keys = {
            e.account_id: (buchholz[e.account_id], Fraction(raw[e.account_id]), Fraction(firsts[e.account_id]))
            for e in entrants
        }
    elif terms.format is Format.ARENA:
        scores = arena_scores(results)
        keys = {
            e.account_id: (
                Fraction(plain[e.account_id], matches[e.account_id]) if matches[e.account_id] else Fraction(0),
                Fraction(firsts[e.account_id]),
            )
            for e in entrants
        }
    else:
        scores, held = duplicate_matchpoints(results)
        percent = {
            who: float(100 * scores.get(who, Fraction(0)) / count) if count else None for who, count in held.items()
        }
        keys = {e.account_id: (Fraction(raw[e.account_id]), Fraction(firsts[e.account_id])) for e in entrants}
    ordered = sorted(
        entrants,
        key=lambda e: (
            -scores.get(e.account_id, Fraction(0)),
            tuple(-value for value in keys[e.account_id]),
            e.number,
        ),
    )
    return tuple(
        Standing(
            rank=rank,
            account_id=e.account_id,
            name=e.name,
            bot=e.bot,
            score=float(scores.get(e.account_id, Fraction(0))),
            tiebreaks=(*(float(v) for v in keys[e.account_id]), float(e.number)),
            matches=matches[e.account_id],
            firsts=firsts[e.account_id],
            withdrawn=e.withdrawn,
            percent=percent.get(e.account_id),
        )
        for rank, e in enumerate(ordered, start=1)
    )
