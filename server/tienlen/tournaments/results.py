"""What a finished table tells the tournament: who sat where, the places, and each hand's points."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Sitter:
    """Who sat at a seat: an entrant's account id, or None for a house bot filling a bye or a seat."""

    entrant: str | None
    name: str

    @property
    def house(self) -> bool:
        """Whether a house bot sat here."""
        return self.entrant is None


@dataclass(frozen=True, slots=True)
class HandScore:
    """One hand of a match: each seat's points in that hand, as the match scored it.

    ``deal`` is duplicate's deal number in the deal set (0-based), else None;
    in duplicate, seat s held hand s of that deal.
    """

    deal: int | None
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableResult:
    """A finished table: round (from 1; arena 0), table number, the match, and its outcome by seat."""

    round: int
    table: int
    match_id: str
    sitters: tuple[Sitter, ...]
    places: tuple[int, ...]
    points: tuple[int, ...]
    hands: tuple[HandScore, ...]
    ended_at: float
