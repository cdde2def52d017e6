"""What a rating store is: the rated players' ratings per table size, rated matches' settled results, leaderboards.

The service (:mod:`tienlen.service.rated`, with the model of :mod:`tienlen.service.rating_model`) is written
against :class:`RatingStore`; :mod:`.redis_ratings` keeps them in Redis.
"""

from __future__ import annotations

from typing import Any, Protocol

RatingDict = dict[str, float | int]


class RatingStore(Protocol):
    """Ratings by table size, the settled results of rated matches, and the leaderboards."""

    def ratings(self, account_id: str) -> dict[int, RatingDict]:
        """The account's ratings by table size (none where it has no rated game)."""
        ...

    def settle(self, match_id: str, result: dict[str, Any]) -> dict[str, Any]:
        """Keep ``result`` as the match's settled result unless one is kept already; the kept one."""
        ...

    def settled(self, match_id: str) -> dict[str, Any] | None:
        """The match's settled result, or None."""
        ...

    def apply(self, account_id: str, match_id: str, players: int, change: tuple[float, float], new: RatingDict) -> bool:
        """Move the account's rating by ``change`` (mu difference, sigma ratio) once for the match; False if done."""
        ...

    def rank(self, players: int, kind: str, account_id: str, shown: int) -> None:
        """Put the account on the leaderboard of its kind at ``players`` seats with its ``shown`` rating."""
        ...

    def position(self, players: int, kind: str, account_id: str) -> int | None:
        """The account's 0-based position on the leaderboard (best first), or None when it is not on it."""
        ...

    def board_page(self, players: int, kind: str, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` (account id, shown rating), best first, after the cursor ``before``."""
        ...

    def forget(self, account_id: str) -> None:
        """Delete the account's ratings and applied matches, and take it off every leaderboard."""
        ...
