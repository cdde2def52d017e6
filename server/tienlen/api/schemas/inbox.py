"""The answers of an account's inbox (``/v1/me/events``), its challenge settings and the bots online (``/v1/bots``)."""

from __future__ import annotations

import dataclasses
from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate

from ...engine.event_codec import EventField, event_fields, event_type
from ...events import (
    CANCEL_CAUSES,
    INBOX_EVENTS,
    ChallengeCancelled,
    ChallengeReceived,
    ChallengeStarted,
    Event,
    FriendStarted,
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
from ...service.commands import ChangeSettings
from .common import TIME, Flag, Time, enum_field
from .dumping import AnswerSchema
from .events import derived_field
from .rated import PlayerRatingSchema

MAX_INBOX_SEQ = 2**53 - 1

# What each inbox event says, after the fields it has (their list is written from the dataclasses).
ABOUT: dict[type[Event], str] = {
    MatchStarted: "a match the account sits in was dealt.",
    YourTurn: "the account's seat is on turn (act with that `version`).",
    MatchFinished: "a match the account sat in ended and was kept (`place` is null when it was abandoned, the "
    "ratings unless it was rated).",
    ChallengeReceived: "another account (`from`) challenged the players of `to`, this one among them.",
    ChallengeCancelled: "a pending challenge closed: `cause` is `withdrawn` by its sender, `declined` by `by`, or "
    "`expired`.",
    ChallengeStarted: "everyone accepted; the match is dealt.",
    QueueMatched: "a quick-play ticket found its table.",
    QueueLeft: "a quick-play ticket left the queue (`DELETE /v1/queue/{ticket}`, from any client).",
    FriendStarted: "an account the account follows (`name`) started a match (told only with the `friends` setting "
    "on; `watchable`: it may be watched).",
    TournamentStarted: "a tournament the account entered started.",
    TournamentTableReady: "the account's table of a tournament's round is dealt (play `match_id` at `seat`; "
    "`table`: its number in round `round`).",
    TournamentFinished: "a tournament the account entered is over (`place`: its final rank).",
    TournamentCancelled: "a tournament the account entered was cancelled before its start (`why`: `creator`, or "
    "`too_few_entrants`).",
}
ENUMS: dict[tuple[type[Event], str], tuple[str, list[str]]] = {
    (ChallengeCancelled, "cause"): ("ChallengeCancelCause", list(CANCEL_CAUSES)),
}


def _fields_of(cls: type[Event]) -> str:
    return ", ".join(f"`{field.key}`" for field in event_fields(cls))


INBOX_EVENT_DOC = "\n".join(
    [
        "One event of an account's inbox: where to look, not what happened at the table.",
        "",
        "By `type`, these fields are set (the others are absent):",
        *(f"- `{event_type(cls)}`: {_fields_of(cls)}: {ABOUT[cls]}" for cls in INBOX_EVENTS),
        "",
    ]
)


def _inbox_event_schema() -> type[AnswerSchema]:
    """One schema of every inbox event: ``seq``, ``type``, ``at``, then each key of any event (in the order of
    :data:`~tienlen.events.INBOX_EVENTS`), optional; a key has one type in every event that has it."""
    declared: dict[str, Any] = {
        "seq": fields.Integer(required=True, metadata={"description": "1 for the account's first event, then +1 each"}),
        "type": enum_field("InboxEventType", [event_type(cls) for cls in INBOX_EVENTS], required=True),
        "at": Time(required=True, metadata=TIME),
    }
    seen: dict[str, EventField] = {}
    for cls in INBOX_EVENTS:
        for field in event_fields(cls):
            earlier = seen.setdefault(field.key, field)
            if (earlier.kind, earlier.hint) != (field.kind, field.hint):
                raise TypeError(f"inbox events disagree on the type of {field.key!r}")
            nullable = any(f.nullable for c in INBOX_EVENTS for f in event_fields(c) if f.key == field.key)
            if field.key not in declared:
                widened = dataclasses.replace(field, nullable=nullable)
                declared[field.key] = derived_field(widened, enum=ENUMS.get((cls, field.key)), required=False)
    meta = type("Meta", (), {"description": INBOX_EVENT_DOC})
    doc = "An event of an account's inbox."
    declared |= {"Meta": meta, "__doc__": doc, "__module__": __name__, "__qualname__": "InboxEventSchema"}
    return type("InboxEventSchema", (AnswerSchema,), declared)


InboxEventSchema = _inbox_event_schema()


class InboxPageSchema(AnswerSchema):
    """Answer of ``GET /v1/me/events``."""

    events = fields.List(fields.Nested(InboxEventSchema), required=True)
    last_seq = fields.Integer(
        required=True, metadata={"description": "The last event's seq (or `after` when none came): the next `after`"}
    )


class InboxQuerySchema(ma.Schema):
    """Query of ``GET /v1/me/events``."""

    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_INBOX_SEQ),
        metadata={"description": "Send the events with `seq` greater than this"},
    )
    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "Seconds to wait for an event when none is there yet (0 to 30)"},
    )


class InboxStreamQuerySchema(ma.Schema):
    """Query of ``GET /v1/me/events/stream``."""

    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_INBOX_SEQ),
        metadata={"description": "Send the events with `seq` greater than this (`Last-Event-ID` wins if both)"},
    )


class ChallengeSettingsSchema(AnswerSchema):
    """Which challenges an account takes."""

    rated = fields.Boolean(required=True, metadata={"description": "Takes rated challenges"})
    casual = fields.Boolean(required=True, metadata={"description": "Takes casual (unrated) challenges"})


class MySettingsSchema(ChallengeSettingsSchema):
    """An account's settings: which challenges it takes, and whether it hears of its friends' matches."""

    friends = fields.Boolean(
        required=True,
        metadata={"description": "Hears `friend_started` when an account it follows starts a match (off by default)"},
    )


class ChallengeSettingsChangeSchema(ma.Schema):
    """Body of ``PUT /v1/me/settings``: the settings to change (the others stay)."""

    rated = Flag(metadata={"description": "Take rated challenges"})
    casual = Flag(metadata={"description": "Take casual (unrated) challenges"})
    friends = Flag(metadata={"description": "Hear `friend_started` when an account followed starts a match"})

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> ChangeSettings:
        """The change, as the service takes it."""
        return ChangeSettings(data.get("rated"), data.get("casual"), data.get("friends"))


class OnlineBotSchema(AnswerSchema):
    """A bot account listening to its inbox."""

    name = fields.String(required=True)
    ratings = fields.List(fields.Nested(PlayerRatingSchema), required=True)
    settings = fields.Nested(ChallengeSettingsSchema, required=True)
    last_seen = Time(required=True, metadata=TIME)


class OnlineBotsSchema(AnswerSchema):
    """Answer of ``GET /v1/bots``."""

    bots = fields.List(fields.Nested(OnlineBotSchema), required=True)
