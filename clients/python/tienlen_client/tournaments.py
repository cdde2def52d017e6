"""Answers of the tournaments (``/v1/tournaments``), as typed dictionaries (their JSON as it comes: times are
RFC 3339 text). The formats, seating and scoring are in docs/tournaments.md."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal, Required, TypedDict

from .stream import ServerSentEvents
from .transport import Endpoint

__all__ = [
    "FINAL_TOURNAMENT_EVENTS",
    "Placing",
    "Placings",
    "Tournament",
    "TournamentEntrant",
    "TournamentEvent",
    "TournamentEventType",
    "TournamentFeed",
    "TournamentFormat",
    "TournamentPage",
    "TournamentRound",
    "TournamentSeat",
    "TournamentSitter",
    "TournamentStanding",
    "TournamentStandings",
    "TournamentStatus",
    "TournamentStream",
    "TournamentSummary",
    "TournamentTable",
    "TournamentTerms",
]

TournamentFormat = Literal["swiss", "arena", "duplicate"]
TournamentStatus = Literal["open", "running", "finished", "cancelled"]
TournamentEventType = Literal[
    "entrant_joined",
    "entrant_left",
    "tournament_started",
    "round_seated",
    "table_ended",
    "standings_changed",
    "tournament_finished",
    "tournament_cancelled",
]

FINAL_TOURNAMENT_EVENTS = frozenset({"tournament_finished", "tournament_cancelled"})
"""The events after which a tournament has nothing more to tell."""


class TournamentTerms(TypedDict):
    """What the creator chose: ``rounds`` (swiss), ``window_s`` (arena) or ``deals`` (duplicate) by format;
    ``starts_at`` None: it starts when ``max_entrants`` entered."""

    name: str
    format: TournamentFormat
    players: int
    preset: str
    hands: int
    turn_seconds: int
    starts_at: str | None
    min_entrants: int
    max_entrants: int
    rated: bool
    bots: bool
    rounds: int | None
    window_s: float | None
    deals: int | None


class TournamentEntrant(TypedDict):
    """An entrant: its account's ``name``, whether it is a ``bot``, its join order (``number``, from 1), its
    rating at the table size when it entered, and whether it ``withdrew``."""

    name: str
    bot: bool
    number: int
    rating: int
    withdrawn: bool


class TournamentSitter(TypedDict):
    """Who sits at a seat of a round's table: an entrant, or a ``house`` bot filling a bye (``bot`` too)."""

    name: str
    bot: bool
    house: bool


class TournamentTable(TypedDict):
    """A table of a round: its match (watch it, or its replay once ``ended``), its sitters by seat, and in a
    duplicate event the deal numbers it plays."""

    number: int
    match_id: str
    sitters: list[TournamentSitter]
    ended: bool
    deals: list[int] | None


class TournamentRound(TypedDict):
    """A round (arena: round 0, its tables as they are made) and its tables; ``seated`` once all are made."""

    number: int
    seated: bool
    tables: list[TournamentTable]


class TournamentSeat(TypedDict):
    """The caller's table now: play ``match_id`` at ``seat`` with the account's token."""

    round: int
    table: int
    match_id: str
    seat: int


class Tournament(TypedDict):
    """A tournament: terms, status, entrants, rounds; with a token, ``entered`` and ``you`` (the caller's table
    now). The deal's ``deal_secret`` is revealed once over (its SHA-256 is ``deal_commitment``)."""

    tournament_id: str
    creator: str
    status: TournamentStatus
    terms: TournamentTerms
    entrants: list[TournamentEntrant]
    rounds: list[TournamentRound]
    created_at: str
    started_at: str | None
    ended_at: str | None
    deal_commitment: str
    deal_secret: str | None
    entered: bool
    you: TournamentSeat | None


class TournamentSummary(TypedDict):
    """A tournament as the lists show it."""

    tournament_id: str
    name: str
    creator: str
    entered: bool
    status: TournamentStatus
    format: TournamentFormat
    players: int
    entrants: int
    max_entrants: int
    starts_at: str | None
    rated: bool
    bots: bool


class TournamentPage(TypedDict):
    """A page of a list; ``next_cursor`` asks for the next (None at the end)."""

    tournaments: list[TournamentSummary]
    next_cursor: str | None


class TournamentStanding(TypedDict):
    """One entrant's place: ``rank`` 1..n (ties broken), ``score``, the format's ``tiebreaks`` in order,
    ``percent`` (duplicate: mean matchpoints), matches played and first places."""

    rank: int
    name: str
    bot: bool
    withdrawn: bool
    score: float
    tiebreaks: list[float]
    percent: float | None
    matches: int
    firsts: int


class TournamentStandings(TypedDict):
    """The standings now; ``final`` once the tournament is over."""

    tournament_id: str
    final: bool
    standings: list[TournamentStanding]


class TournamentEvent(TypedDict, total=False):
    """One event of a tournament's feed: ``seq``, ``type``, ``at`` and by type:

    - ``entrant_joined``: ``name``, ``bot``; ``entrant_left``: ``name``
    - ``tournament_started``: ``entrants``
    - ``round_seated``: ``round``, ``tables``
    - ``table_ended``: ``round``, ``table``, ``match_id``
    - ``standings_changed``: read the standings again
    - ``tournament_finished``: ``winner`` (the first's name); ``tournament_cancelled``: ``cause``
    """

    seq: Required[int]
    type: Required[TournamentEventType]
    at: Required[str]
    name: str
    bot: bool
    entrants: int
    round: int
    tables: int
    table: int
    match_id: str
    winner: str | None
    cause: Literal["creator", "too_few_entrants"]


class TournamentFeed(TypedDict):
    """``GET …/events``: events after a cursor, oldest first; ``last_seq`` is the next ``after``."""

    events: list[TournamentEvent]
    last_seq: int


class TournamentStream(ServerSentEvents):
    """A tournament's events as they come, from ``GET /v1/tournaments/{id}/stream`` (Server-Sent Events).

    Iterating yields each event (the same objects as ``GET …/events``), oldest
    first, and stops after ``tournament_finished`` or ``tournament_cancelled``
    (:data:`FINAL_TOURNAMENT_EVENTS`). Reconnections (``Last-Event-ID``),
    pauses and refusals: see :class:`~tienlen_client.stream.ServerSentEvents`
    (404 ``tournament_not_found`` raises :class:`~tienlen_client.ApiError` at once).
    """

    def __init__(
        self,
        endpoint: Endpoint | str,
        tournament_id: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Follow ``tournament_id`` after event ``after`` on ``endpoint``; nothing is sent before the first event
        is asked for."""
        path = f"/v1/tournaments/{tournament_id}/stream"
        super().__init__(endpoint, path, after, read_timeout=read_timeout, give_up_after=give_up_after, sleep=sleep)
        self.tournament_id = tournament_id

    def is_final(self, event: dict[str, Any]) -> bool:
        """Whether the event ends the tournament (:data:`FINAL_TOURNAMENT_EVENTS`)."""
        return event.get("type") in FINAL_TOURNAMENT_EVENTS


class Placing(TypedDict):
    """Where a player finished a tournament (``GET /v1/players/{name}/tournaments``)."""

    tournament_id: str
    name: str
    format: TournamentFormat
    players: int
    entrants: int
    place: int
    score: float
    ended_at: str


class Placings(TypedDict):
    """A player's placings, newest first."""

    placings: list[Placing]
