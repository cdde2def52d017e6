"""The requests and answers of rated play: ratings and leaderboards (``/v1/leaderboard``); challenges are in
:mod:`.challenges`."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...service.accounts import ACCOUNT_KINDS
from .common import enum_field
from .dumping import AnswerSchema

MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_BOARD_PAGE = 100


class LeaderboardQuerySchema(ma.Schema):
    """Query of ``GET /v1/leaderboard``."""

    players = fields.Integer(
        load_default=4,
        validate=validate.Range(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={"description": "Table size: a player has one rating per table size"},
    )
    kind = enum_field(
        "AccountKind", ACCOUNT_KINDS, required=False, load_default="human", metadata={"description": "Whose board"}
    )
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=MAX_BOARD_PAGE))
    cursor = fields.String(
        validate=validate.Length(min=1, max=200), metadata={"description": "`next_cursor` of the previous page"}
    )


RATING = {"description": "The rating shown: 1500 for a new player, rising with finishing places"}


class PlayerRatingSchema(AnswerSchema):
    """An account's rating at one table size."""

    players = fields.Integer(required=True, metadata={"description": "Table size"})
    rating = fields.Integer(required=True, metadata=RATING)
    games = fields.Integer(required=True, metadata={"description": "Rated matches at this table size"})
    provisional = fields.Boolean(required=True, metadata={"description": "Fewer than 10 rated matches yet"})


class BoardEntrySchema(AnswerSchema):
    """A leaderboard line."""

    rank = fields.Integer(allow_none=True, required=True, metadata={"description": "1 = best"})
    name = fields.String(required=True)
    kind = enum_field("AccountKind", ACCOUNT_KINDS)
    rating = fields.Integer(required=True, metadata=RATING)
    games = fields.Integer(required=True, metadata={"description": "Rated matches at this table size"})
    provisional = fields.Boolean(required=True, metadata={"description": "Fewer than 10 rated matches yet"})
    watch = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The id of a live match this account plays now that may be watched (its newest one: "
            "`/v1/matches/{match_id}/stream`), or null. A house bot (`easy`, `medium`, `hard`, `expert`) plays "
            "at server seats, not as an account at a seat of its own, so it never has one"
        },
    )


class LeaderboardSchema(AnswerSchema):
    """A page of a leaderboard, best first."""

    entries = fields.List(fields.Nested(BoardEntrySchema), required=True)
    next_cursor = fields.String(
        allow_none=True, required=True, metadata={"description": "Pass as `cursor` for the next page; null at the end"}
    )
