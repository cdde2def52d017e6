"""The events of the game, one vocabulary: frozen dataclasses, two codecs, and how a match ended.

- A match's events (:data:`MatchEvent`, in :data:`MATCH_EVENTS` order): the engine's own
  (:class:`~tienlen.engine.HandStarted`, :class:`~tienlen.engine.Played`, :class:`~tienlen.engine.Passed`,
  :class:`~tienlen.engine.TableCleared`, :class:`~tienlen.engine.WentOut`, :class:`~tienlen.engine.HandEnded`,
  :class:`~tienlen.engine.MatchEnded`, made by ``Match.play`` and the like) and the table's (:class:`SeatJoined`,
  :class:`HandShown`, :class:`SeatLeft`, :class:`TimedOut`, :class:`SeatTakenOver`, :class:`Rematch`,
  :class:`MatchAbandoned`, :class:`MatchCancelled`, and the chat's :class:`ChatSaid`, :class:`ChatRemoved`), in
  :mod:`.table`.
- An account's inbox events (:data:`InboxEvent`, in :data:`INBOX_EVENTS` order: :class:`MatchStarted`,
  :class:`YourTurn`, :class:`MatchFinished`, :class:`ChallengeReceived`, :class:`ChallengeCancelled`,
  :class:`ChallengeStarted`, :class:`QueueMatched`, :class:`QueueLeft`, :class:`FriendStarted`), in :mod:`.inbox`.
- How a match ended (:class:`MatchEnd`: an :class:`EndCause` and the engine's ``Outcome`` when it was played
  out), in :mod:`.end`.
- :data:`STORE` and :data:`WIRE` (:class:`EventCodec`), in :mod:`.codec`: each event as a JSON-able dict and back.

How to use them (the service)::

    events: list[MatchEvent] = [SeatJoined(seat, name)]          # build: plain constructors
    events += match.play(seat, cards)                              # the engine's events are MatchEvents too
    numbered = number(events, record.last_seq)                     # number at seal time: seq from last_seq + 1
    record.last_seq = numbered[-1].seq if numbered else record.last_seq
    store.commit(record, expected, [STORE.dump(n) for n in numbered])  # store: today's dicts, seq included
    STORE.load(stored_dict)  # -> Numbered[MatchEvent]              # read back: exact round trip

    inbox.push(account_id, [STORE.dump_told(YourTurn(match_id, seat, version), now)])  # the store numbers them
    STORE.load_notice(stored_dict)  # -> Notice(seq, at, event)

    end = match_end(record.ended, engine.outcome)   # None while playing; end.abandoned replaces ended == "abandoned"
    record.ended = ended_text(ABANDONED)            # "abandoned"; ABANDONED.event is MatchAbandoned()
    end_of_event(event)                             # the MatchEnd a final event tells (FINAL_EVENTS), else None

``event.to_dict()`` still works on every event (the unnumbered store form, ``STORE.dump_event``). The API's
event schemas are derived from these classes (``tienlen.api.schemas.events``), so a new event or field is
declared here once and appears in the OpenAPI document.
"""

from __future__ import annotations

from ..engine.events import Event, HandEnded, HandStarted, MatchEnded, Passed, Played, TableCleared, WentOut
from .codec import INBOX_TYPES, MATCH_TYPES, STORE, WIRE, EventCodec, Notice, Numbered, UnknownEventError, number
from .end import ABANDONED, CANCELLED, EndCause, MatchEnd, end_of_event, ended_text, match_end
from .inbox import (
    CANCEL_CAUSES,
    INBOX_EVENTS,
    ChallengeCancelled,
    ChallengeReceived,
    ChallengeStarted,
    FriendStarted,
    InboxEvent,
    MatchFinished,
    MatchStarted,
    QueueLeft,
    QueueMatched,
    TournamentCancelled,
    TournamentFinished,
    TournamentStarted,
    TournamentTableReady,
    YourTurn,
)
from .table import (
    CHAT_SAID,
    FINAL_EVENTS,
    FINAL_TYPES,
    MATCH_EVENTS,
    ChatRemoved,
    ChatSaid,
    HandShown,
    MatchAbandoned,
    MatchCancelled,
    MatchEvent,
    Rematch,
    SeatJoined,
    SeatLeft,
    SeatTakenOver,
    TimedOut,
)

__all__ = [
    "ABANDONED",
    "CANCELLED",
    "CANCEL_CAUSES",
    "CHAT_SAID",
    "FINAL_EVENTS",
    "FINAL_TYPES",
    "INBOX_EVENTS",
    "INBOX_TYPES",
    "MATCH_EVENTS",
    "MATCH_TYPES",
    "STORE",
    "WIRE",
    "ChallengeCancelled",
    "ChallengeReceived",
    "ChallengeStarted",
    "ChatRemoved",
    "ChatSaid",
    "EndCause",
    "Event",
    "EventCodec",
    "FriendStarted",
    "HandEnded",
    "HandShown",
    "HandStarted",
    "InboxEvent",
    "MatchAbandoned",
    "MatchCancelled",
    "MatchEnd",
    "MatchEnded",
    "MatchEvent",
    "MatchFinished",
    "MatchStarted",
    "Notice",
    "Numbered",
    "Passed",
    "Played",
    "QueueLeft",
    "QueueMatched",
    "Rematch",
    "SeatJoined",
    "SeatLeft",
    "SeatTakenOver",
    "TableCleared",
    "TimedOut",
    "TournamentCancelled",
    "TournamentFinished",
    "TournamentStarted",
    "TournamentTableReady",
    "UnknownEventError",
    "WentOut",
    "YourTurn",
    "end_of_event",
    "ended_text",
    "match_end",
    "number",
]
