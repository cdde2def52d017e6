"""The live table (``GET /v1/live``) and featuring a match on it (``PUT /v1/live/featured``)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from .answers import RulesSchema, bot_level
from .common import TIME, Time
from .dumping import AnswerSchema


class LiveSeatSchema(AnswerSchema):
    """A seat of the live match."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True, metadata={"description": "Who plays it"})
    bot = bot_level("The bot level of a bot seat, or null")
    rating = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The account's rating now at this table size; null without one"},
    )


class LiveMatchSchema(AnswerSchema):
    """The match on the live table, to watch (`GET /v1/matches/{match_id}/stream`)."""

    match_id = fields.String(required=True)
    rules = fields.Nested(RulesSchema, required=True)
    rated = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(LiveSeatSchema), required=True)
    spectators = fields.Integer(required=True, metadata={"description": "Readers following it in the last 30 s"})
    featured = fields.Boolean(required=True, metadata={"description": "A moderator featured it"})
    hand_number = fields.Integer(required=True, metadata={"description": "The hand being played, from 1"})
    started_at = Time(required=True, metadata=TIME | {"description": "When its first hand was dealt"})


class LiveSchema(AnswerSchema):
    """The live table: one match to watch, or null when no watchable match is being played, and more live
    matches."""

    match = fields.Nested(LiveMatchSchema, allow_none=True, required=True)
    others = fields.List(
        fields.Nested(LiveMatchSchema),
        required=True,
        metadata={
            "description": "Up to 6 more watchable live matches, best first after `match` (never `match` itself); "
            "empty when there are none"
        },
    )


class FeatureSchema(ma.Schema):
    """Body of ``PUT /v1/live/featured``."""

    match_id = fields.String(required=True, validate=validate.Length(min=1, max=64))
