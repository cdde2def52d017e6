"""The queries and answers of players' profiles and histories (``/v1/players``)."""

from __future__ import annotations

from datetime import UTC

import marshmallow as ma
from marshmallow import fields, validate

from ...service.accounts import ACCOUNT_KINDS
from .answers import RulesSchema, bot_level
from .common import TIME, Time, enum_field
from .dumping import AnswerSchema
from .rated import PlayerRatingSchema

MAX_PAGE = 100
MOMENT = {"format": "date-time", "description": "RFC 3339 (a time without an offset is read as UTC)"}


class PlayingMatchSchema(AnswerSchema):
    """A live match a player sits in (a Watch link when it is watchable)."""

    match_id = fields.String(required=True, metadata={"description": "Watch it at `GET /v1/matches/{match_id}`"})
    watchable = fields.Boolean(required=True, metadata={"description": "Anyone may watch it"})
    players = fields.Integer(required=True, metadata={"description": "Seats at its table"})
    rated = fields.Boolean(required=True, metadata={"description": "A rated match"})
    started_at = Time(required=True, metadata=TIME | {"description": "When its first hand was dealt (RFC 3339, UTC)"})


class PlayerSchema(AnswerSchema):
    """A player's public profile."""

    name = fields.String(required=True, metadata={"description": "The account's name as it chose it"})
    kind = enum_field("AccountKind", ACCOUNT_KINDS, metadata={"description": "A person, or a program"})
    joined_at = Time(required=True, metadata=TIME)
    games = fields.Integer(required=True, metadata={"description": "Finished matches kept in its history"})
    wins = fields.Integer(required=True, metadata={"description": "Of those, the matches it won (place 1)"})
    ratings = fields.List(
        fields.Nested(PlayerRatingSchema),
        required=True,
        metadata={"description": "Its ratings, one per table size it has played rated matches at"},
    )
    followers = fields.Integer(
        required=True, metadata={"description": "How many accounts follow it (who they are is private)"}
    )
    playing = fields.List(
        fields.Nested(PlayingMatchSchema),
        required=True,
        metadata={"description": "The matches it plays now (a Watch link for each watchable one)"},
    )


class KeptSeatSchema(AnswerSchema):
    """A seat of a kept match."""

    seat = fields.Integer(required=True)
    name = fields.String(
        allow_none=True, required=True, metadata={"description": "`(deleted)` for an account deleted since"}
    )
    account = fields.Boolean(required=True, metadata={"description": "An account held the seat"})
    bot = bot_level("The bot level of a bot seat, or null")
    place = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "The seat's final standing (1 = winner; shared wins share 1); null when abandoned"},
    )
    points = fields.Integer(required=True, metadata={"description": "The seat's final match score"})
    rating_before = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "In a rated match, the account's rating shown before it; else null"},
    )
    rating_after = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "In a rated match, the account's rating shown after it; else null"},
    )


class KeptMatchSchema(AnswerSchema):
    """A finished match in a player's history."""

    match_id = fields.String(required=True)
    created_at = Time(required=True, metadata=TIME)
    ended_at = Time(required=True, metadata=TIME)
    rules = fields.Nested(RulesSchema, required=True)
    hands = fields.Integer(required=True, metadata={"description": "Hands played"})
    abandoned = fields.Boolean(required=True, metadata={"description": "No remote seat was left to play it out"})
    seat = fields.Integer(required=True, metadata={"description": "The player's seat"})
    rated = fields.Boolean(required=True, metadata={"description": "A rated match (it moved ratings)"})
    seats = fields.List(fields.Nested(KeptSeatSchema), required=True)


class KeptPageSchema(AnswerSchema):
    """A page of a player's kept matches, newest first."""

    matches = fields.List(fields.Nested(KeptMatchSchema), required=True)
    next_cursor = fields.String(
        allow_none=True, required=True, metadata={"description": "Pass as `cursor` for the next page; null at the end"}
    )


class PlayerMatchesQuerySchema(ma.Schema):
    """Query of ``GET /v1/players/{name}/matches``."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.String(
        validate=validate.Length(min=1, max=200), metadata={"description": "`next_cursor` of the previous page"}
    )


class ExportQuerySchema(ma.Schema):
    """Query of ``GET /v1/players/{name}/matches/export``."""

    since = fields.AwareDateTime(
        default_timezone=UTC, metadata=MOMENT | {"description": "Only matches that ended at or after this"}
    )
    until = fields.AwareDateTime(
        default_timezone=UTC, metadata=MOMENT | {"description": "Only matches that ended before this"}
    )
