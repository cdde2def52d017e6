"""Answers of the rated-play calls: a leaderboard page and its entries (the JSON as it comes, typed)."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["BoardEntry", "Leaderboard"]


class BoardEntry(TypedDict):
    """An account on a leaderboard: ``rank`` 1 = best, ``rating`` the number shown (1500 for a new player);
    ``watch`` the id of a live match it plays now that may be watched (its newest; ``GET
    /v1/matches/{match_id}/stream``), None when there is none (always for a house bot)."""

    rank: int | None
    name: str
    kind: Literal["human", "bot"]
    rating: int
    games: int
    provisional: bool
    watch: str | None


class Leaderboard(TypedDict):
    """One page of a leaderboard, best first; ``next_cursor`` asks for the next page (None: the last)."""

    entries: list[BoardEntry]
    next_cursor: str | None
