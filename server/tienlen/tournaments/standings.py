"""Scores and tiebreaks of every format."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .results import TableResult
from .seating import Entrant
from .terms import Terms


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


def standings(terms: Terms, entrants: Sequence[Entrant], results: Sequence[TableResult]) -> tuple[Standing, ...]:
    """Every entrant ranked 1..n."""
    raise NotImplementedError
