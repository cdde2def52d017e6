"""Who sits where: Swiss rounds, arena tables and the duplicate schedule."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .results import Sitter, TableResult
from .terms import Terms


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant: account, shown name, whether a bot account, rating, join order (from 1), withdrawn or not."""

    account_id: str
    name: str
    bot: bool
    rating: int
    number: int
    withdrawn: bool = False

    @property
    def sitter(self) -> Sitter:
        """This entrant as a table's sitter."""
        return Sitter(self.account_id, self.name)


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: its number (from 1), sitters by seat, and (duplicate only) the deal numbers it plays."""

    number: int
    sitters: tuple[Sitter, ...]
    deals: tuple[int, ...] | None


def swiss_round(
    terms: Terms,
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    round_no: int,
    house: Callable[[int], Sitter],
) -> tuple[Table, ...]:
    """A Swiss round's tables."""
    raise NotImplementedError


def arena_tables(
    terms: Terms, waiting: Sequence[tuple[Entrant, float]], results: Sequence[TableResult], now: float
) -> tuple[tuple[Entrant, ...], ...]:
    """The arena tables to make now."""
    raise NotImplementedError


def duplicate_schedule(terms: Terms, entrants: Sequence[Entrant]) -> tuple[tuple[Table, ...], ...]:
    """Every round of a duplicate event at once."""
    raise NotImplementedError
