"""What the store keeps for a match: seats, rules, the engine state, counters."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .. import wire
from ..engine import Match, RuleSet, Status, match_from_dict, match_to_dict
from ..events import MatchEnd, ended_text, match_end

RECORD_VERSION = 2
READABLE_VERSIONS = (1, 2)  # version 1 records (before clocks and the lobby) read with the defaults


class MatchStatus(StrEnum):
    """Where a match stands: the engine's :class:`~tienlen.engine.Status` once dealt, ``waiting`` for seats before."""

    WAITING = "waiting"
    PLAYING = Status.PLAYING.value
    FINISHED = Status.FINISHED.value


@dataclass(frozen=True, slots=True)
class Clock:
    """A match's turn clock: seconds per turn, and how many timeouts in a row hand a seat to a bot."""

    turn_seconds: int
    timeouts_before_takeover: int = 2

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"turn_seconds": self.turn_seconds, "timeouts_before_takeover": self.timeouts_before_takeover}


@dataclass(slots=True)
class SeatRecord:
    """A seat: remote (token hash), bot (level), open (waiting for a join) or reserved (for a rematch claim).

    A remote seat that left, or timed out too often, is ``taken_over``: its
    ``bot`` plays it from then on (a seat that ``left`` also lost its token).
    ``timeouts`` counts the seat's clock timeouts in a row. ``kept`` holds the
    compact answers to the seat's last actions sent with an ``Idempotency-Key``
    (see :mod:`tienlen.service.idempotency`), oldest first. ``account`` is the
    id of the account that holds the seat (its tokens act for the seat too),
    None for an anonymous player or a bot.
    """

    name: str | None = None
    bot: str | None = None
    open: bool = False
    token_sha256: str | None = None
    reserved: bool = False
    left: bool = False
    taken_over: bool = False
    timeouts: int = 0
    kept: list[str] = field(default_factory=list)
    account: str | None = None
    entropy: str = ""  # what the seat's player added to the fair deal when taking it (public)

    def __repr__(self) -> str:
        """The seat without its token's digest or its kept answers (a repr may end up in a log)."""
        return f"SeatRecord(name={self.name!r}, bot={self.bot!r}, open={self.open}, remote={self.remote})"

    @property
    def remote(self) -> bool:
        """A person (or their program) still plays this seat over the API."""
        return self.token_sha256 is not None and not self.taken_over

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form for storage (the token hash stays server-side)."""
        data: dict[str, Any] = {"name": self.name, "bot": self.bot, "open": self.open, "token": self.token_sha256}
        for key in ("reserved", "left", "taken_over"):
            if getattr(self, key):
                data[key] = True
        if self.timeouts:
            data["timeouts"] = self.timeouts
        if self.kept:
            data["kept"] = self.kept
        if self.account is not None:
            data["acct"] = self.account
        if self.entropy:
            data["ent"] = self.entropy
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatRecord:
        """Rebuild from :meth:`to_dict`."""
        return cls(
            data["name"],
            data["bot"],
            data["open"],
            data["token"],
            reserved=data.get("reserved", False),
            left=data.get("left", False),
            taken_over=data.get("taken_over", False),
            timeouts=data.get("timeouts", 0),
            kept=list(data.get("kept", ())),
            account=data.get("acct"),
            entropy=data.get("ent", ""),
        )


@dataclass(slots=True)
class MatchRecord:
    """One match as stored: ``version`` rises with every accepted write.

    ``deal`` is the explicit first deal, if any (kept for the replay);
    ``turn_deadline`` is when the clock of the seat on turn runs out (epoch
    seconds) and ``deadline_for`` the (hand, actions so far) it was set for;
    ``ended`` is how the match ended when it was not played out (:data:`~tienlen.events.ABANDONED` once no
    remote seat is left in play; stored as its cause's text, ``"abandoned"``, as records always held it);
    :attr:`end` is how it ended whichever way.
    ``host`` is the id of the account that created the match (None when
    anonymous); ``room_code`` the code others join it by (a match made with
    open seats has one); ``ended_at`` when the write that finished it was made (epoch seconds).
    A ``rated`` match moves its accounts' ratings when it finishes. A match that is not ``watchable`` is read
    (public state, events, stream, replay) by its seats only.
    ``fair_secret`` (hex) is the secret of its fair deal (``tienlen-deal/1``), drawn at creation for every
    match unless the creator fixed the deal (``seed``/``deal``: None then); ``seed`` still seeds the bots.
    ``tournament`` is the id of the tournament this match is a table of (its result is recorded there).
    """

    match_id: str
    version: int
    seats: list[SeatRecord]
    rules: RuleSet
    seed: int | None = None
    deal: list[int] | None = None
    engine: Match | None = None
    last_seq: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0
    listed: bool = False
    clock: Clock | None = None
    takeover: str = "medium"
    turn_deadline: float | None = None
    deadline_for: tuple[int, int] | None = None
    next_match_id: str | None = None
    rematch_of: str | None = None
    ended: MatchEnd | None = None
    host: str | None = None
    room_code: str | None = None
    ended_at: float | None = None
    rated: bool = False
    watchable: bool = True
    fair_secret: str | None = field(default_factory=lambda: new_fair_secret(), repr=False)
    tournament: str | None = None  # the tournament whose table this match is (None: none)

    def __repr__(self) -> str:
        """The match's id, version and status only: never a hand, the seed, the deal or a token's digest."""
        return f"MatchRecord(match_id={self.match_id!r}, version={self.version}, status={self.status.value})"

    @property
    def bots(self) -> dict[int, str]:
        """Bot levels by seat (seats taken over included)."""
        return {i: s.bot for i, s in enumerate(self.seats) if s.bot is not None}

    @property
    def status(self) -> MatchStatus:
        """``waiting`` for seats, ``playing``, or ``finished`` (played out or abandoned)."""
        if self.engine is None:
            return MatchStatus.WAITING
        if self.ended is not None or self.engine.outcome is not None:
            return MatchStatus.FINISHED
        return MatchStatus.PLAYING

    @property
    def end(self) -> MatchEnd | None:
        """How the match ended (abandoned, or played out with the engine's outcome); None while it goes on."""
        return self.ended or match_end(None, None if self.engine is None else self.engine.outcome)

    def seat_of_account(self, account_id: str) -> int | None:
        """The seat the account holds and still plays or may read (not one it left), or None."""
        for index, seat in enumerate(self.seats):
            if seat.account == account_id and not seat.left:
                return index
        return None

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
        data: dict[str, Any] = {
            "rv": RECORD_VERSION,
            "id": self.match_id,
            "version": self.version,
            "seats": [s.to_dict() for s in self.seats],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "deal": self.deal,
            "engine": None if self.engine is None else match_to_dict(self.engine),
            "seq": self.last_seq,
            "created": self.created_at,
            "updated": self.updated_at,
            "takeover": self.takeover,
        }
        optional = {
            "listed": self.listed or None,
            "clock": None if self.clock is None else self.clock.to_dict(),
            "deadline": self.turn_deadline,
            "deadline_for": None if self.deadline_for is None else list(self.deadline_for),
            "next": self.next_match_id,
            "rematch_of": self.rematch_of,
            "ended": ended_text(self.ended),
            "host": self.host,
            "room": self.room_code,
            "ended_at": self.ended_at,
            "rated": self.rated or None,
            "nowatch": None if self.watchable else True,
            "fair": self.fair_secret,
            "tour": self.tournament,
        }
        data.update((key, value) for key, value in optional.items() if value is not None)
        return wire.dumps(data)

    @classmethod
    def from_json(cls, text: str | bytes) -> MatchRecord:
        """Rebuild a record written by :meth:`to_json`."""
        data = wire.loads(text)
        if data.get("rv") not in READABLE_VERSIONS:
            raise ValueError(f"unknown match record version {data.get('rv')!r}")
        clock = data.get("clock")
        deadline_for = data.get("deadline_for")
        return cls(
            match_id=data["id"],
            version=data["version"],
            seats=[SeatRecord.from_dict(s) for s in data["seats"]],
            rules=RuleSet.from_dict(data["rules"]),
            seed=data["seed"],
            deal=data["deal"],
            engine=None if data["engine"] is None else match_from_dict(data["engine"]),
            last_seq=data["seq"],
            created_at=data.get("created", 0.0),
            updated_at=data.get("updated", 0.0),
            listed=data.get("listed", False),
            clock=None if clock is None else Clock(clock["turn_seconds"], clock["timeouts_before_takeover"]),
            takeover=data.get("takeover", "medium"),
            turn_deadline=data.get("deadline"),
            deadline_for=None if deadline_for is None else (deadline_for[0], deadline_for[1]),
            next_match_id=data.get("next"),
            rematch_of=data.get("rematch_of"),
            ended=match_end(data.get("ended"), None),
            host=data.get("host"),
            room_code=data.get("room"),
            ended_at=data.get("ended_at"),
            rated=data.get("rated", False),
            watchable=not data.get("nowatch", False),
            fair_secret=data.get("fair"),
            tournament=data.get("tour"),
        )


TOKEN_BYTES = 24


def token_text(raw: bytes) -> str:
    """A token's bytes as URL-safe text that never begins with ``-``.

    Bots take their token as a command-line argument (``tienlen-tournament``
    passes it so), where a leading ``-`` reads as an option; such a token
    begins with ``_`` instead.
    """
    text = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    return "_" + text[1:] if text.startswith("-") else text


def new_token() -> str:
    """A fresh seat token: 192 random bits, URL-safe, never beginning with ``-`` (:func:`token_text`)."""
    return token_text(secrets.token_bytes(TOKEN_BYTES))


def token_digest(token: str) -> str:
    """The SHA-256 hex digest kept in place of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_fair_secret() -> str:
    """A fair deal's secret: 32 bytes from :mod:`secrets`, as hex."""
    return secrets.token_bytes(32).hex()


def new_match_id() -> str:
    """A fresh, unguessable match id (80 random bits, lower-case base32)."""
    return secrets.token_hex(10)
