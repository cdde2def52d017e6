"""The events of an account's inbox (``GET /v1/me/events``): where to look, not what happened at the table.

They are :data:`InboxEvent`, in :data:`INBOX_EVENTS` order; each is told with its number in the account's inbox
and the time it was told (:class:`~tienlen.events.codec.Notice`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from ..engine.event_codec import Time, key
from ..engine.events import Event


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """A match the account sits in (at ``seat``, of ``players``) was dealt."""

    type: ClassVar[str] = "match_started"
    match_id: str
    seat: int
    players: int
    rated: bool


@dataclass(frozen=True, slots=True)
class YourTurn(Event):
    """The account's seat came on turn; ``version`` is the match's version then (act with it)."""

    type: ClassVar[str] = "your_turn"
    match_id: str
    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class MatchFinished(Event):
    """A match the account sat in ended and was kept; its place (None: abandoned) and ratings (None: unrated)."""

    type: ClassVar[str] = "match_finished"
    match_id: str
    seat: int
    place: int | None
    rating_before: int | None
    rating_after: int | None


@dataclass(frozen=True, slots=True)
class ChallengeReceived(Event):
    """Another account (``sender``, written ``from``) challenged the account, with others (``to``)."""

    type: ClassVar[str] = "challenge_received"
    challenge_id: str
    sender: Annotated[str, key("from")]
    to: tuple[str, ...]
    players: int
    preset: str
    rated: bool
    expires_at: Time


@dataclass(frozen=True, slots=True)
class ChallengeCancelled(Event):
    """A pending challenge closed: ``withdrawn`` by its sender, ``declined`` by ``by``, or ``expired``."""

    type: ClassVar[str] = "challenge_cancelled"
    challenge_id: str
    cause: str
    by: str | None


@dataclass(frozen=True, slots=True)
class ChallengeStarted(Event):
    """Everyone accepted the challenge: its match is dealt, the account at ``seat``."""

    type: ClassVar[str] = "challenge_started"
    challenge_id: str
    match_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class QueueMatched(Event):
    """A quick-play ticket found its table: the account sits at ``seat`` of ``match_id``."""

    type: ClassVar[str] = "queue_matched"
    ticket: str
    match_id: str
    seat: int


@dataclass(frozen=True, slots=True)
class QueueLeft(Event):
    """A quick-play ticket left the queue (from any client of the account)."""

    type: ClassVar[str] = "queue_left"
    ticket: str


@dataclass(frozen=True, slots=True)
class FriendStarted(Event):
    """An account the account follows (``name``) started a match (its first hand dealt); told only with the
    account's ``friends`` inbox setting on. ``watchable``: whether the match may be watched."""

    type: ClassVar[str] = "friend_started"
    name: str
    match_id: str
    watchable: bool
    players: int
    rated: bool


@dataclass(frozen=True, slots=True)
class TournamentStarted(Event):
    """A tournament the account entered started."""

    type: ClassVar[str] = "tournament_started"
    tournament_id: str


@dataclass(frozen=True, slots=True)
class TournamentTableReady(Event):
    """The account's table of a tournament's round is dealt: it sits at ``seat`` of ``match_id``, the round's
    table number ``table`` (0 in events kept before the number was told)."""

    type: ClassVar[str] = "tournament_table_ready"
    tournament_id: str
    round: int
    match_id: str
    seat: int
    table: int = 0


@dataclass(frozen=True, slots=True)
class TournamentFinished(Event):
    """A tournament the account entered is over: its final ``place``."""

    type: ClassVar[str] = "tournament_finished"
    tournament_id: str
    place: int


@dataclass(frozen=True, slots=True)
class TournamentCancelled(Event):
    """A tournament the account entered was cancelled before it started (``why``: creator, too_few_entrants)."""

    type: ClassVar[str] = "tournament_cancelled"
    tournament_id: str
    why: str


InboxEvent = (
    MatchStarted
    | YourTurn
    | MatchFinished
    | ChallengeReceived
    | ChallengeCancelled
    | ChallengeStarted
    | QueueMatched
    | QueueLeft
    | FriendStarted
    | TournamentStarted
    | TournamentTableReady
    | TournamentFinished
    | TournamentCancelled
)
"""One event of an account's inbox."""

INBOX_EVENTS: tuple[type[Event], ...] = (
    MatchStarted,
    YourTurn,
    MatchFinished,
    ChallengeReceived,
    ChallengeCancelled,
    ChallengeStarted,
    QueueMatched,
    QueueLeft,
    FriendStarted,
    TournamentStarted,
    TournamentTableReady,
    TournamentFinished,
    TournamentCancelled,
)
"""Every kind of inbox event, in the order the API documents them."""

CANCEL_CAUSES = ("withdrawn", "declined", "expired")
"""What a :class:`ChallengeCancelled`'s ``cause`` may be."""
