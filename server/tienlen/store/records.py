"""What the store keeps for a match: seats, rules, the engine state, counters."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

from .. import wire
from ..engine import Match, RuleSet, match_from_dict, match_to_dict

RECORD_VERSION = 1


@dataclass(slots=True)
class SeatRecord:
    """A seat: remote (token hash), bot (level), or open (waiting for a join)."""

    name: str | None = None
    bot: str | None = None
    open: bool = False
    token_sha256: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for storage (the token hash stays server-side)."""
        return {"name": self.name, "bot": self.bot, "open": self.open, "token": self.token_sha256}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatRecord:
        """Rebuild from :meth:`to_dict`."""
        return cls(data["name"], data["bot"], data["open"], data["token"])


@dataclass(slots=True)
class MatchRecord:
    """One match as stored: ``version`` rises with every accepted write."""

    match_id: str
    version: int
    seats: list[SeatRecord]
    rules: RuleSet
    seed: int | None = None
    deal: list[int] | None = None
    engine: Match | None = None
    last_seq: int = 0

    @property
    def bots(self) -> dict[int, str]:
        """Bot levels by seat."""
        return {i: s.bot for i, s in enumerate(self.seats) if s.bot is not None}

    def seat_of_token(self, token: str) -> int | None:
        """The seat this bearer token belongs to, compared in constant time, or None."""
        digest = token_digest(token)
        found = None
        for index, seat in enumerate(self.seats):
            if seat.token_sha256 is not None and hmac.compare_digest(seat.token_sha256, digest):
                found = index
        return found

    def to_json(self) -> bytes:
        """The record as compact JSON (UTF-8)."""
        return wire.dumps(
            {
                "rv": RECORD_VERSION,
                "id": self.match_id,
                "version": self.version,
                "seats": [s.to_dict() for s in self.seats],
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "deal": self.deal,
                "engine": None if self.engine is None else match_to_dict(self.engine),
                "seq": self.last_seq,
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchRecord:
        """Rebuild a record written by :meth:`to_json`."""
        data = wire.loads(text)
        if data.get("rv") != RECORD_VERSION:
            raise ValueError(f"unknown match record version {data.get('rv')!r}")
        return cls(
            match_id=data["id"],
            version=data["version"],
            seats=[SeatRecord.from_dict(s) for s in data["seats"]],
            rules=RuleSet.from_dict(data["rules"]),
            seed=data["seed"],
            deal=data["deal"],
            engine=None if data["engine"] is None else match_from_dict(data["engine"]),
            last_seq=data["seq"],
        )


def new_token() -> str:
    """A fresh seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    """The SHA-256 hex digest kept in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_match_id() -> str:
    """A fresh, unguessable match id (80 random bits, lower-case base32)."""
    return secrets.token_hex(10)
