"""A match's scoring: a finished hand's points by place, the hands' results, and when the match is decided (its
winners, or the seats tied for the lead that play on under the tie-break rule)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import MAX_UNTIL_CLEAR_EXTRA_HANDS, RuleSet, Scoring, Tiebreak


@dataclass(frozen=True, slots=True)
class HandResult:
    """A completed hand: seats first to last, and the points each seat scored."""

    hand_number: int
    places: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: ``winner`` is None only when the win is shared."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The single winning seat, or None for a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None


def hand_points(rules: RuleSet, places: Sequence[int]) -> tuple[int, ...]:
    """Points by seat for a hand's finishing order under the scoring rule (docs/rules.md §6)."""
    n = rules.players
    points = [0] * n
    if rules.scoring is Scoring.PLACES:
        for place, seat in enumerate(places):
            points[seat] = n - 1 - place
    elif rules.scoring is Scoring.WINS:
        points[places[0]] = 1
    return tuple(points)


def decide(
    rules: RuleSet, completed: Sequence[HandResult], scores: Sequence[int], tied: tuple[int, ...] | None
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None]:
    """After a hand: (the match's winners once it is decided, else None; the seats tied for the lead).

    The tied seats are ``tied`` as given unless the hands are all played and
    the leaders are level, when they are the leaders and the match plays on
    under the tie-break rule (docs/rules.md §8).
    """
    played = len(completed)
    if played < rules.hands:
        return None, tied
    last = completed[-1]
    if rules.scoring is Scoring.NONE:
        return (completed[0].places[0],), tied
    if tied is not None and rules.tiebreak is Tiebreak.BEST_FINISH:
        return (min(tied, key=last.places.index),), tied
    best = max(scores)
    leaders = tuple(s for s in range(rules.players) if scores[s] == best)
    if len(leaders) == 1:
        return leaders, tied
    if rules.tiebreak is Tiebreak.UNTIL_CLEAR and played - rules.hands >= MAX_UNTIL_CLEAR_EXTRA_HANDS:
        return leaders, tied
    return None, leaders
