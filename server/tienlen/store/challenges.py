"""What a challenge store is: the challenges between accounts, as records written by compare-and-set.

The service is written against :class:`ChallengeStore`; :mod:`.redis_challenges` keeps them in Redis.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol, cast

from .. import wire

CHALLENGE_STATUSES = ("pending", "started", "declined", "withdrawn", "expired")
CLOSED_KEPT_S = 3600  # a closed challenge is still read (410 or 409, not 404) this long after it closed


def new_challenge_id() -> str:
    """A fresh, unguessable challenge id (80 random bits, hex)."""
    return secrets.token_hex(10)


@dataclass(slots=True)
class ChallengeRecord:
    """A challenge as stored: who sent it to whom, for what match, and where it stands.

    ``to`` are the challenged players' names in seat order (house bots included) and ``to_ids`` their accounts;
    ``accepted`` the names that accepted (house bots at once); ``entropy`` each account's part of the match's fair
    deal (by account id: the sender's from the challenge, the others' from their acceptance). ``status`` is one of
    :data:`CHALLENGE_STATUSES`; ``match_id`` is set when it started. Times are epoch seconds.
    """

    challenge_id: str
    sender: str
    sender_id: str
    to: list[str]
    to_ids: list[str]
    house: list[bool]
    players: int
    preset: str
    rated: bool
    takeover: str
    created_at: float
    expires_at: float
    status: str = "pending"
    accepted: list[str] = field(default_factory=list)
    declined_by: str | None = None
    match_id: str | None = None
    closed_at: float | None = None
    version: int = 0
    entropy: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> bytes:
        """The stored form."""
        return wire.dumps(asdict(self))

    @classmethod
    def from_json(cls, data: bytes) -> ChallengeRecord:
        """Rebuild from :meth:`to_json`."""
        return cls(**cast(dict[str, Any], wire.loads(data)))

    def accounts(self) -> list[str]:
        """Every account of the challenge that is not a house bot: its sender first, then the challenged, once each."""
        found = [self.sender_id]
        for account_id, house in zip(self.to_ids, self.house, strict=True):
            if not house and account_id not in found:
                found.append(account_id)
        return found


class ChallengeStore(Protocol):
    """Challenges' records (compare-and-set on a version) and the challenges due to expire."""

    def load(self, challenge_id: str) -> ChallengeRecord | None:
        """The challenge's record, or None (never made, or closed long ago)."""
        ...

    def save(self, record: ChallengeRecord, expected_version: int | None, ttl_s: int) -> bool:
        """Write ``record`` if still at ``expected_version`` (None: new), kept ``ttl_s``; False: the race was lost."""
        ...

    def note(self, account_ids: list[str], challenge_id: str, at: float, kept_s: int) -> None:
        """List the challenge under each account (to forget it with the account); entries older than ``kept_s`` go."""
        ...

    def mark_due(self, challenge_id: str, at: float) -> None:
        """The challenge expires at ``at`` (epoch seconds): registered before it is stored."""
        ...

    def due(self, now: float, limit: int) -> list[str]:
        """Up to ``limit`` ids of challenges due to expire at ``now``, earliest first."""
        ...

    def done_due(self, challenge_id: str) -> None:
        """The challenge is closed: it is due no more."""
        ...

    def is_due(self, challenge_id: str) -> bool:
        """Whether the challenge still has its due entry (pending, or started and its match not yet dealt)."""
        ...

    def of(self, account_id: str) -> list[str]:
        """The ids of the challenges the account sent or received (still kept)."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: the challenges it sent or received go, and its index of them."""
        ...

    def claim_pending(self, record: ChallengeRecord, now: float, max_sent: int, max_received: int) -> str | None:
        """Take the new challenge's place among its sender's and each challenged account's pending challenges.

        None when every place was taken; else nothing is kept and the answer is the account over its cap
        (its id), the sender's first.
        """
        ...

    def release_pending(self, record: ChallengeRecord) -> None:
        """The challenge closed (or was not stored): give its places back."""
        ...
