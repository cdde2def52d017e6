"""What a live-seats store is: for each account, the live matches it sits in (dealt and not over).

The service is written against :class:`LiveSeats`; :mod:`.redis_live_seats` keeps them in Redis. It is an
index, a hint: the match records are the truth. The service adds a match when a seated account's match deals its
first hand, takes it out when the match ends, is abandoned or the account's seat is left or taken over, and
prunes on read whatever the records no longer hold (a write whose index update failed, a match expired).

It answers "is this account playing, and where" for ``GET /v1/me/following`` and a profile's ``playing``.
"""

from __future__ import annotations

from typing import Protocol


class LiveSeats(Protocol):
    """Each account's live matches, with when each was dealt."""

    def add(self, account_id: str, match_id: str, started_at: float) -> None:
        """The account sits in ``match_id``, dealt at ``started_at`` (adding again keeps the first time)."""
        ...

    def remove(self, account_id: str, match_id: str) -> None:
        """The account plays ``match_id`` no more."""
        ...

    def of(self, account_id: str) -> list[tuple[str, float]]:
        """The account's live matches with when each was dealt, oldest first."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: its index goes."""
        ...
