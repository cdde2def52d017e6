"""The answer of a room-code lookup."""

from __future__ import annotations

from marshmallow import fields

from .answers import STATUS, TOKEN_DESCRIPTION, LobbySeatSchema, RulesSchema
from .common import TIME, Time, enum_field
from .dumping import AnswerSchema


class RoomSchema(AnswerSchema):
    """A match found by its room code: the rules, the seats taken and open, its host."""

    room_code = fields.String(required=True, metadata={"example": "K7QM2X"})
    match_id = fields.String(required=True)
    status = enum_field("MatchStatus", STATUS)
    seats = fields.List(fields.Nested(LobbySeatSchema), required=True)
    rules = fields.Nested(RulesSchema, required=True)
    host = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The name of the account that made the match; null when made anonymously"},
    )
    created_at = Time(required=True, metadata=TIME)


class RoomSeatSchema(AnswerSchema):
    """Your seat in the match a room code named, its token, and the match's id."""

    match_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": TOKEN_DESCRIPTION})
