"""What a tournament is as stored, and what the service needs of its store (:class:`TournamentStore`).

One record a tournament (:class:`TournamentRecord`), written whole by compare-and-set on its ``version``; beside
it the lists by status (sorted sets), each creator's open tournaments (capped), the tournament's event feed (a
numbered stream, long-polled and followed like an inbox) and short locks (one seater of a tournament at a time).
:mod:`.redis_tournaments` keeps it in Redis. The terms and results are kept as the service gives them (plain
JSON-able dicts): the store does not know the tournaments' rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import wire
from .events import Event

TOURNAMENT_STATUSES = ("open", "running", "finished", "cancelled")
"""Where a tournament stands: ``open`` to entries, ``running``, ``finished`` or ``cancelled`` (never started)."""


@dataclass(slots=True)
class EntrantRecord:
    """An entrant: its account, name, whether a bot, rating at the table size when it joined, join number (from 1),
    and whether it withdrew (before the start, or by leaving)."""

    account_id: str
    name: str
    bot: bool
    rating: int
    number: int
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"a": self.account_id, "n": self.name, "b": self.bot, "r": self.rating, "k": self.number} | (
            {"w": True} if self.withdrawn else {}
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EntrantRecord:
        """Rebuild from :meth:`to_dict`."""
        return cls(data["a"], data["n"], data["b"], data["r"], data["k"], data.get("w", False))


@dataclass(slots=True)
class TableRecord:
    """A table of a round: its number, its match, who sits where (``[entrant or None, name]`` by seat), the
    duplicate deals it plays (else None), whether its match ended (its result recorded) and whether its entrants
    were told it is ready."""

    number: int
    match_id: str
    sitters: list[tuple[str | None, str]]
    deals: list[int] | None = None
    ended: bool = False
    told: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        data: dict[str, Any] = {"t": self.number, "m": self.match_id, "s": [list(s) for s in self.sitters]}
        data["d"] = self.deals
        if self.ended:
            data["e"] = True
        if self.told:
            data["k"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableRecord:
        """Rebuild from :meth:`to_dict`."""
        sitters = [(s[0], s[1]) for s in data["s"]]
        return cls(data["t"], data["m"], sitters, data.get("d"), data.get("e", False), data.get("k", False))


@dataclass(slots=True)
class RoundRecord:
    """A round: its number (arena: 0, one round holding every table), its tables, and whether every table's match
    was made (a seating interrupted by a dead worker is finished by the sweeper)."""

    number: int
    tables: list[TableRecord]
    seated: bool = False
    seated_at: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form."""
        return {"r": self.number, "t": [t.to_dict() for t in self.tables], "s": self.seated, "at": self.seated_at}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundRecord:
        """Rebuild from :meth:`to_dict`."""
        return cls(data["r"], [TableRecord.from_dict(t) for t in data["t"]], data["s"], data.get("at", 0.0))


@dataclass(slots=True)
class TournamentRecord:
    """One tournament as stored; ``version`` rises with every write.

    ``terms`` and each of ``results`` are the service's JSON-able forms; ``deal_secret`` (hex) seeds the
    tournament's deals (duplicate: every table of a round gets the same seed from it), its digest public from the
    creation and the secret itself shown once the tournament is over. ``waiting`` (arena) holds the entrants free
    to be seated, with since when.
    """

    tournament_id: str
    version: int
    creator: str
    creator_name: str
    terms: dict[str, Any]
    status: str
    created_at: float
    deal_secret: str = field(repr=False, default="")
    entrants: list[EntrantRecord] = field(default_factory=list)
    rounds: list[RoundRecord] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)
    started_at: float | None = None
    ended_at: float | None = None
    waiting: dict[str, float] = field(default_factory=dict)
    tables_made: int = 0

    def __repr__(self) -> str:
        """The id, version and status only (never the deal secret)."""
        return f"TournamentRecord({self.tournament_id!r}, version={self.version}, status={self.status})"

    def to_json(self) -> bytes:
        """The record as compact JSON."""
        return wire.dumps(
            {
                "id": self.tournament_id,
                "v": self.version,
                "by": self.creator,
                "byn": self.creator_name,
                "terms": self.terms,
                "st": self.status,
                "at": self.created_at,
                "ds": self.deal_secret,
                "e": [e.to_dict() for e in self.entrants],
                "r": [r.to_dict() for r in self.rounds],
                "res": self.results,
                "sa": self.started_at,
                "ea": self.ended_at,
                "w": self.waiting,
                "tm": self.tables_made,
            }
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> TournamentRecord:
        """Rebuild from :meth:`to_json`."""
        data = wire.loads(text)
        return cls(
            tournament_id=data["id"],
            version=data["v"],
            creator=data["by"],
            creator_name=data["byn"],
            terms=data["terms"],
            status=data["st"],
            created_at=data["at"],
            deal_secret=data["ds"],
            entrants=[EntrantRecord.from_dict(e) for e in data["e"]],
            rounds=[RoundRecord.from_dict(r) for r in data["r"]],
            results=list(data["res"]),
            started_at=data.get("sa"),
            ended_at=data.get("ea"),
            waiting=dict(data.get("w") or {}),
            tables_made=data.get("tm", 0),
        )


@dataclass(frozen=True, slots=True)
class Placing:
    """Where an entrant finished a tournament: kept in its account's list once the tournament is over (the
    tournament's own record expires; this line stays)."""

    tournament_id: str
    name: str
    format: str
    players: int
    entrants: int
    place: int
    score: float
    ended_at: float

    def to_json(self) -> bytes:
        """Its stored form."""
        return wire.dumps(
            {"t": self.tournament_id, "n": self.name, "f": self.format, "p": self.players, "e": self.entrants,
             "pl": self.place, "s": self.score, "ea": self.ended_at}
        )  # fmt: skip

    @classmethod
    def from_json(cls, text: str | bytes) -> Placing:
        """From its stored form."""
        d = wire.loads(text)
        return cls(d["t"], d["n"], d["f"], d["p"], d["e"], d["pl"], d["s"], d["ea"])


class TournamentStore(Protocol):
    """Tournaments: records by compare-and-set, lists by status, creators' open tournaments, feeds and locks."""

    def load(self, tournament_id: str) -> TournamentRecord | None:
        """The tournament's record, or None."""
        ...

    def save(self, record: TournamentRecord, expected_version: int | None) -> bool:
        """Write ``record`` (its version already raised) if the stored one is at ``expected_version`` (None: new)."""
        ...

    def list_in(self, tournament_id: str, status: str, score: float) -> None:
        """List the tournament under ``status`` (sorted by ``score``), and under no other status."""
        ...

    def listed(
        self, status: str, after: tuple[float, str] | None, count: int, *, newest: bool = False
    ) -> list[tuple[str, float]]:
        """A page of the tournaments of ``status``: (id, score), by score (``newest``: highest first) then id."""
        ...

    def claim_open(self, creator: str, tournament_id: str, cap: int) -> bool:
        """Count the tournament among its creator's open ones; False when the creator has ``cap`` already."""
        ...

    def release_open(self, creator: str, tournament_id: str) -> None:
        """The tournament is no longer open (started, cancelled): it leaves its creator's count."""
        ...

    def push(self, tournament_id: str, events: list[dict[str, Any]]) -> int:
        """Number (``seq``), append and publish ``events`` in the tournament's feed; the last seq given."""
        ...

    def events(self, tournament_id: str, after: int, wait_s: float = 0) -> list[Event]:
        """The feed's events with ``seq`` > ``after`` (a page), waiting up to ``wait_s`` for one."""
        ...

    def follow(self, tournament_id: str, after: int, idle_s: float) -> Iterator[list[Event]]:
        """Every event of the feed after ``after`` as it comes; an empty batch after ``idle_s`` without one."""
        ...

    def place(self, placings: dict[str, Placing]) -> None:
        """Keep each account's placing (by account id) in its list of tournaments played (again: no change)."""
        ...

    def placings(self, account_id: str, limit: int) -> list[Placing]:
        """The account's latest ``limit`` placings, newest first."""
        ...

    def note_part(self, account_id: str, tournament_id: str) -> None:
        """The account takes part in the tournament (created or entered it): found again when it is deleted."""
        ...

    def parts_of(self, account_id: str) -> list[str]:
        """The tournaments the account created or entered (those whose records may hold its name)."""
        ...

    def rename_in_feed(self, tournament_id: str, name: str, replacement: str) -> None:
        """Write ``replacement`` for ``name`` wherever the tournament's feed names it (an account deleted)."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: its placings and its list of tournaments go."""
        ...

    def lock(self, name: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms``; False while another holds it."""
        ...

    def unlock(self, name: str) -> None:
        """Let the lock ``name`` go."""
        ...
