"""What the playing index is: the live matches each account sits in, for a profile's Watch links (and any other
reader of an account's live matches, such as friends' presence).

The service is written against :class:`PlayingIndex`; :mod:`.redis_playing` keeps it in Redis. It is a hint:
the match records are the truth (a reader drops what is no longer played).
"""

from __future__ import annotations

from typing import Protocol


class PlayingIndex(Protocol):
    """Account id -> the ids of the live matches it sits in."""

    def add(self, account_id: str, match_id: str) -> None:
        """The account sits in a match being played."""
        ...

    def remove(self, account_id: str, match_id: str) -> None:
        """The match is over for the account (or no longer played)."""
        ...

    def matches(self, account_id: str) -> list[str]:
        """The ids of the account's live matches (any order; some may have ended since)."""
        ...
