"""What an inbox store is: each account's numbered events (read, long polled, followed) and who is online.

The service is written against :class:`InboxStore`; :mod:`.redis_inbox` keeps them in Redis.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from .events import Event


class InboxStore(Protocol):
    """The accounts' inboxes (numbered events, long polls and follows) and who listens to theirs."""

    def push(self, account_id: str, events: list[dict[str, Any]]) -> int:
        """Number, append and publish ``events`` (without ``seq``) in the account's inbox; the last seq given."""
        ...

    def events(self, account_id: str, after: int, wait_s: float = 0) -> list[Event]:
        """The account's events with ``seq`` > ``after`` (a page), waiting up to ``wait_s`` for one."""
        ...

    def follow(self, account_id: str, after: int, idle_s: float) -> Iterator[list[Event]]:
        """Every event of the account's inbox after ``after`` as it comes; an empty batch after ``idle_s``."""
        ...

    def last_seq(self, account_id: str) -> int:
        """The seq of the account's newest event (0 before its first)."""
        ...

    def seen(self, account_id: str, kind: str, at: float) -> None:
        """The account (of ``kind``) listens to its inbox at ``at``."""
        ...

    def online(self, kind: str, since: float) -> list[tuple[str, float]]:
        """The accounts of ``kind`` that listened since ``since``, latest first, with when."""
        ...

    def last_seen(self, account_id: str, kind: str) -> float | None:
        """When the account last listened to its inbox, or None."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: its inbox goes, and it is online no more."""
        ...

    def drop_challenges(self, account_id: str, challenge_ids: set[str]) -> None:
        """Take the events about these challenges out of the account's inbox (their sender or another was deleted)."""
        ...
