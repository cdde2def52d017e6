"""What a history store is: the kept records of finished matches and each account's index of them.

The service is written against :class:`HistoryStore`; :mod:`.redis_history` keeps them in Redis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Indexed:
    """An account that sat in a kept match, and whether it won it."""

    account_id: str
    won: bool


class HistoryStore(Protocol):
    """Kept matches and the accounts' indexes of them."""

    def mark_due(self, match_id: str, at: float) -> None:
        """The match is to be kept by ``at`` (epoch seconds): registered before the commit that finishes it."""
        ...

    def due_kept(self, now: float, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` (match id, due ms) due at ``now``, earliest first."""
        ...

    def claim_due(self, match_id: str, seen_ms: int, until: float) -> bool:
        """Take a due entry (seen at ``seen_ms``) until ``until``; False when another took it."""
        ...

    def done_due(self, match_id: str) -> None:
        """The match is kept (or will never be): forget its due entry."""
        ...

    def put(self, match_id: str, blob: bytes, ttl_s: int | None) -> bool:
        """Keep a match's record unless one is kept already (False then)."""
        ...

    def replace(self, match_id: str, blob: bytes) -> None:
        """Rewrite a kept record (its lifetime kept), if it is still kept."""
        ...

    def get(self, match_id: str) -> bytes | None:
        """A kept record, or None."""
        ...

    def get_many(self, match_ids: list[str]) -> list[bytes | None]:
        """Several kept records at once (None where one is gone)."""
        ...

    def index(self, match_id: str, ended_ms: int, seats: list[Indexed], keep_from_ms: int | None) -> None:
        """List the match in each account's index (and its wins); entries that ended before ``keep_from_ms`` go."""
        ...

    def page(
        self, account_id: str, before: tuple[int, str] | None, count: int, since_ms: int, until_ms: int | None
    ) -> list[tuple[str, int]]:
        """Up to ``count`` (match id, ended ms) of the account, newest first, after ``before``, within the range."""
        ...

    def counts(self, account_id: str, keep_from_ms: int | None) -> tuple[int, int]:
        """(games, wins) the account has kept, after dropping entries that ended before ``keep_from_ms``."""
        ...

    def unindex(self, account_id: str, match_id: str) -> None:
        """Drop one match from the account's indexes (its record is gone)."""
        ...

    def matches_of(self, account_id: str) -> list[str]:
        """Every match id in the account's index of kept matches."""
        ...

    def drop_indexes(self, account_id: str) -> None:
        """Forget the account's indexes: kept matches, wins, live matches."""
        ...

    def seat_bound(self, account_id: str, match_id: str, now: float) -> None:
        """A seat of the match is the account's now (the oldest of these are pruned once the matches are gone)."""
        ...

    def seated(self, account_id: str) -> list[str]:
        """The live matches a seat of which was bound to the account."""
        ...

    def scrub(
        self, match_id: str, expected_version: int, doc: bytes, version: int, events: list[dict[str, Any]]
    ) -> bool:
        """Replace the record (and, when ``events`` are given, the whole event stream) if still at that version."""
        ...
