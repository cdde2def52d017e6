"""What the tournaments' readers are told: a tournament, a page of them, its standings and its feed's events.

The feed's events are declared once here (:data:`TOURNAMENT_EVENTS`: type -> what it says and its fields); the
API's enum and docs derive from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..tournaments import Standing, Terms

TOURNAMENT_EVENTS: MappingProxyType[str, tuple[str, tuple[str, ...]]] = MappingProxyType(
    {
        "entrant_joined": ("an account entered (`name`, `bot`).", ("name", "bot")),
        "entrant_left": ("an entrant withdrew (`name`).", ("name",)),
        "tournament_started": ("the tournament started (`entrants`).", ("entrants",)),
        "round_seated": ("a round's tables were made (`round`, `tables`).", ("round", "tables")),
        "table_ended": ("a table's match ended (`round`, `table`, `match_id`).", ("round", "table", "match_id")),
        "standings_changed": ("the standings changed: read them again.", ()),
        "tournament_finished": ("the tournament is over (`winner`: the first's name).", ("winner",)),
        "tournament_cancelled": ("the tournament was cancelled (`cause`).", ("cause",)),
    }
)
"""Every event of a tournament's feed: what it says and the fields it has (besides ``seq``, ``type``, ``at``)."""

CANCEL_CAUSES = ("creator", "too_few_entrants")
"""Why a tournament was cancelled: by its creator, or too few entrants at its start time."""


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """A tournament in a list."""

    tournament_id: str
    name: str
    format: str
    status: str
    players: int
    entrants: int
    max_entrants: int
    starts_at: float | None
    rated: bool
    bots: bool
    creator: str
    entered: bool = False


@dataclass(frozen=True, slots=True)
class TournamentPage:
    """A page of tournaments and the cursor of the next (None at the end)."""

    tournaments: tuple[TournamentSummary, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class EntrantView:
    """An entrant as shown: every bot marked."""

    name: str
    bot: bool
    number: int
    rating: int
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class SitterView:
    """Who sits at a seat: an entrant (``bot``: a bot account) or a house bot (``house``: filling a seat)."""

    name: str
    bot: bool
    house: bool


@dataclass(frozen=True, slots=True)
class TableView:
    """A table of a round: its match (watch or replay it), sitters by seat, its deals (duplicate), ended or not."""

    number: int
    match_id: str
    sitters: tuple[SitterView, ...]
    deals: tuple[int, ...] | None
    ended: bool


@dataclass(frozen=True, slots=True)
class RoundView:
    """A round (arena: round 0 holds every table) and its tables."""

    number: int
    seated: bool
    tables: tuple[TableView, ...]


@dataclass(frozen=True, slots=True)
class YourTable:
    """Where the caller sits now: the round, table, match and seat of its table still playing."""

    round: int
    table: int
    match_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament as anyone sees it (``you``: the caller's table now, when it sent its token and sits at one).

    ``deal_commitment`` is the SHA-256 (hex) of the tournament's deal secret, public from its creation;
    ``deal_secret`` is shown once the tournament is over (duplicate: each round's seed derives from it).
    """

    tournament_id: str
    terms: Terms
    status: str
    creator: str
    created_at: float
    started_at: float | None
    ended_at: float | None
    entrants: tuple[EntrantView, ...]
    rounds: tuple[RoundView, ...]
    you: YourTable | None
    entered: bool
    deal_commitment: str
    deal_secret: str | None


@dataclass(frozen=True, slots=True)
class StandingsView:
    """The standings now (every entrant ranked 1..n), and whether they are final."""

    tournament_id: str
    final: bool
    standings: tuple[Standing, ...]


@dataclass(frozen=True, slots=True)
class FeedPage:
    """A page of a tournament's events and the last seq (the next ``after``)."""

    events: tuple[dict[str, Any], ...]
    last_seq: int
