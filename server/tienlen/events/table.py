"""The events of a match beyond the engine's: who joined, left, timed out or was taken over, how it ended, and its
chat (a message said, a message a moderator removed).

With the engine's own (a hand dealt, a play, a pass, a battle won, a seat out, a hand over, the match over) and a
hand's cards shown once it is over, they
are :data:`MatchEvent`, the events a match's followers read (``GET /v1/matches/{id}/events``), in
:data:`MATCH_EVENTS` order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..engine.event_codec import Action, HandsDealt, Time
from ..engine.events import Event, HandEnded, HandStarted, MatchEnded, Passed, Played, TableCleared, WentOut


@dataclass(frozen=True, slots=True)
class SeatJoined(Event):
    """A seat was taken (a join, or a rematch claimed) by a player of that name."""

    type: ClassVar[str] = "seat_joined"
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """A remote seat's turn clock ran out: it passed, or played its lowest legal play (``cards``; 0: it passed)."""

    type: ClassVar[str] = "timed_out"
    seat: int
    action: Action

    @property
    def passed(self) -> bool:
        """Whether the seat passed (rather than played)."""
        return self.action == 0


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A hand is over: every seat's cards as they were dealt for it (``hands``, by seat), now public.

    Written right after each ``hand_ended``, in the same write; nothing of a hand still in play is ever shown.
    """

    type: ClassVar[str] = "hand_shown"
    hand_number: int
    hands: HandsDealt


@dataclass(frozen=True, slots=True)
class SeatTakenOver(Event):
    """A bot of level ``bot`` plays the seat from now on (its player left or timed out too often)."""

    type: ClassVar[str] = "seat_taken_over"
    seat: int
    bot: str


@dataclass(frozen=True, slots=True)
class SeatLeft(Event):
    """A seat's player left the match."""

    type: ClassVar[str] = "seat_left"
    seat: int


@dataclass(frozen=True, slots=True)
class MatchAbandoned(Event):
    """No remote seat was left: the match ended without a winner."""

    type: ClassVar[str] = "match_abandoned"


@dataclass(frozen=True, slots=True)
class MatchCancelled(Event):
    """The match was cancelled while waiting for players; it is gone."""

    type: ClassVar[str] = "match_cancelled"


@dataclass(frozen=True, slots=True)
class Rematch(Event):
    """A rematch of this finished match exists: ``next_match_id``."""

    type: ClassVar[str] = "rematch"
    next_match_id: str


@dataclass(frozen=True, slots=True)
class ChatSaid(Event):
    """A chat message in the match's ``room`` (``table``: the seats'; ``spectators``: everyone's).

    From ``name``: at ``from_seat`` (None for a spectator), the account of that name (None for an anonymous
    seat).
    ``phrase`` is the quick phrase's id when the message is one (``text`` is then its English words); ``said_at``
    when it was said. A
    moderator's removal empties ``text`` (a ``chat_removed`` follows).
    """

    type: ClassVar[str] = "chat_said"
    room: str
    name: str
    from_seat: int | None
    account: str | None
    text: str
    phrase: str | None
    said_at: Time


@dataclass(frozen=True, slots=True)
class ChatRemoved(Event):
    """A moderator removed the chat message numbered ``message_seq``: its text is gone."""

    type: ClassVar[str] = "chat_removed"
    message_seq: int


MatchEvent = (
    SeatJoined
    | HandStarted
    | Played
    | Passed
    | TableCleared
    | WentOut
    | HandEnded
    | HandShown
    | MatchEnded
    | TimedOut
    | SeatTakenOver
    | SeatLeft
    | MatchAbandoned
    | MatchCancelled
    | Rematch
    | ChatSaid
    | ChatRemoved
)
"""One event of a match (the engine's or the table's)."""

MATCH_EVENTS: tuple[type[Event], ...] = (
    SeatJoined,
    HandStarted,
    Played,
    Passed,
    TableCleared,
    WentOut,
    HandEnded,
    HandShown,
    MatchEnded,
    TimedOut,
    SeatTakenOver,
    SeatLeft,
    MatchAbandoned,
    MatchCancelled,
    Rematch,
    ChatSaid,
    ChatRemoved,
)
"""Every kind of match event, in the order the API documents them."""

FINAL_EVENTS: tuple[type[Event], ...] = (MatchEnded, MatchAbandoned, MatchCancelled)
"""The events that end a match: none follows them but a ``rematch`` or ``seat_left`` after ``match_ended``."""

FINAL_TYPES: frozenset[str] = frozenset(final.type for final in FINAL_EVENTS)
"""The ``type`` of each final event, for telling a stored or sent event's end without decoding it."""

CHAT_SAID: str = ChatSaid.type
"""The ``type`` of a chat message, for telling a stored event is one without decoding it (reading filters them)."""
