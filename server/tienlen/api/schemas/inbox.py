"""The answers of an account's inbox (``/v1/me/events``), its challenge settings and the bots online (``/v1/bots``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from .common import TIME, Flag, Time, enum_field
from .dumping import AnswerSchema
from .rated import PlayerRatingSchema

INBOX_EVENTS = (
    "match_started",
    "your_turn",
    "match_finished",
    "challenge_received",
    "challenge_cancelled",
    "challenge_started",
    "queue_matched",
    "queue_left",
)
CANCEL_CAUSES = ("withdrawn", "declined", "expired")
MAX_INBOX_SEQ = 2**53 - 1

INBOX_EVENT_DOC = """One event of an account's inbox: where to look, not what happened at the table.

By `type`, these fields are set (the others are absent):
- `match_started`: `match_id`, `seat`, `players`, `rated`: a match the account sits in was dealt.
- `your_turn`: `match_id`, `seat`, `version`: the account's seat is on turn (act with that `version`).
- `match_finished`: `match_id`, `seat`, `place`, `rating_before`, `rating_after` (null unless rated).
- `challenge_received`: `challenge_id`, `from`, `to`, `players`, `preset`, `rated`, `expires_at`.
- `challenge_cancelled`: `challenge_id`, `cause` (`withdrawn` by its sender, `declined` by `by`, or `expired`).
- `challenge_started`: `challenge_id`, `match_id`, `seat`: everyone accepted; the match is dealt.
- `queue_matched`: `ticket`, `match_id`, `seat`: a quick-play ticket found its table.
- `queue_left`: `ticket`: a quick-play ticket left the queue (`DELETE /v1/queue/{ticket}`, from any client).
"""


class InboxEventSchema(AnswerSchema):
    """An event of an account's inbox."""

    class Meta:
        description = INBOX_EVENT_DOC

    seq = fields.Integer(required=True, metadata={"description": "1 for the account's first event, then +1 each"})
    type = enum_field("InboxEventType", INBOX_EVENTS, required=True)
    at = Time(required=True, metadata=TIME)
    match_id = fields.String()
    seat = fields.Integer()
    players = fields.Integer()
    rated = fields.Boolean()
    version = fields.Integer()
    place = fields.Integer(allow_none=True)
    rating_before = fields.Integer(allow_none=True)
    rating_after = fields.Integer(allow_none=True)
    challenge_id = fields.String()
    sender = fields.String(data_key="from", attribute="from")
    to = fields.List(fields.String())
    preset = fields.String()
    expires_at = Time(metadata=TIME)
    cause = enum_field("ChallengeCancelCause", CANCEL_CAUSES, required=False)
    by = fields.String(allow_none=True)
    ticket = fields.String()


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


class ChallengeSettingsChangeSchema(ma.Schema):
    """Body of ``PUT /v1/me/settings``: the settings to change (the others stay)."""

    rated = Flag(metadata={"description": "Take rated challenges"})
    casual = Flag(metadata={"description": "Take casual (unrated) challenges"})


class OnlineBotSchema(AnswerSchema):
    """A bot account listening to its inbox."""

    name = fields.String(required=True)
    ratings = fields.List(fields.Nested(PlayerRatingSchema), required=True)
    settings = fields.Nested(ChallengeSettingsSchema, required=True)
    last_seen = Time(required=True, metadata=TIME)


class OnlineBotsSchema(AnswerSchema):
    """Answer of ``GET /v1/bots``."""

    bots = fields.List(fields.Nested(OnlineBotSchema), required=True)
