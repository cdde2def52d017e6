"""What a review store is: the reviews of finished matches, the jobs that compute them and their leases.

The service is written against :class:`ReviewStore`; :mod:`.redis_reviews` keeps them in Redis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """A match's review as stored: ``pending``, ``running`` (with its progress) or ``done`` (with its document)."""

    status: str
    done: int = 0
    total: int = 0
    document: bytes | None = None


class ReviewStore(Protocol):
    """Reviews of finished matches and the pending jobs computing them."""

    def get(self, match_id: str) -> ReviewRecord | None:
        """The match's review (or its job), or None when none was asked for."""
        ...

    def enqueue(self, match_id: str, ttl_s: int | None) -> bool:
        """Ask for the match's review once: a pending job, lasting ``ttl_s`` (None: as long as the kept match);
        whether it is new."""
        ...

    def claim(self, now: float, lease_s: float, worker: str) -> str | None:
        """Take one pending job whose lease ran out (or never taken) until ``now + lease_s``: its match id."""
        ...

    def renew(self, match_id: str, worker: str, until: float, done: int, total: int) -> bool:
        """Keep the job until ``until`` and record its progress, if ``worker`` still holds it; whether it does."""
        ...

    def finish(self, match_id: str, worker: str, document: bytes) -> bool:
        """Store the review and end the job, if ``worker`` still holds it; whether it was stored."""
        ...

    def drop(self, match_id: str) -> None:
        """Forget the job and its review (the match is gone)."""
        ...
