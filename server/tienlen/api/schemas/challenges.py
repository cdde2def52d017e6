"""The requests and answers of challenges (``/v1/challenges``)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate

from ...bots import LEVELS
from ...engine import DEFAULT_PRESET, PRESET_NAMES
from ...service.commands import Accept, Challenge
from ...store.challenges import CHALLENGE_STATUSES
from .answers import MatchSchema, SeatTokenSchema
from .common import TIME, Flag, Time, enum_field
from .dumping import AnswerSchema
from .rated import MAX_PLAYERS, MIN_PLAYERS
from .requests import entropy_field

NAME = fields.String(validate=validate.Length(min=1, max=20))


class NewChallengeSchema(ma.Schema):
    """Body of ``POST /v1/challenges``."""

    to = fields.List(
        NAME,
        required=True,
        validate=validate.Length(min=1, max=MAX_PLAYERS - 1),
        metadata={
            "description": "The challenged players' names for seats 1, 2, ...: accounts (each once, not yourself) "
            "and house bots (`easy`, `medium`, `hard`); the last name fills the seats left, so it is a house bot "
            "when fewer names than seats are given"
        },
    )
    players = fields.Integer(
        required=True, validate=validate.Range(min=MIN_PLAYERS, max=MAX_PLAYERS), metadata={"description": "Seats"}
    )
    preset = enum_field(
        "Preset", PRESET_NAMES, required=False, metadata={"description": "The rules' preset (standard by default)"}
    )
    rated = Flag(load_default=False, metadata={"description": "Whether the match moves its players' ratings"})
    takeover = enum_field(
        "BotLevel",
        LEVELS,
        required=False,
        load_default="medium",
        metadata={"description": "The level of the bot that plays a player's seat if it leaves"},
    )
    entropy = entropy_field()

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Challenge:
        """The challenge, as the service takes it."""
        return Challenge(
            tuple(data["to"]),
            data["players"],
            data.get("preset") or DEFAULT_PRESET,
            data["rated"],
            data["takeover"],
            data.get("entropy", ""),
        )


class AcceptChallengeSchema(ma.Schema):
    """Body of ``POST /v1/challenges/{challenge_id}/accept`` (optional)."""

    entropy = entropy_field()

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Accept:
        """The acceptance, as the service takes it."""
        return Accept(data.get("entropy", ""))


class ChallengeSchema(AnswerSchema):
    """A challenge, as its sender and the challenged accounts see it."""

    challenge_id = fields.String(required=True)
    sender = fields.String(data_key="from", attribute="sender", required=True, metadata={"description": "Its sender"})
    to = fields.List(
        fields.String(), required=True, metadata={"description": "The challenged players, in seat order from seat 1"}
    )
    players = fields.Integer(required=True, metadata={"description": "Seats"})
    preset = enum_field("Preset", PRESET_NAMES, required=True)
    rated = fields.Boolean(required=True)
    status = enum_field(
        "ChallengeStatus",
        CHALLENGE_STATUSES,
        required=True,
        metadata={
            "description": "`pending` until every challenged player accepted (`started`: `match_id` is set), "
            "unless it was `declined`, `withdrawn` by its sender or `expired` first"
        },
    )
    accepted = fields.List(
        fields.String(), required=True, metadata={"description": "Who accepted so far (house bots at once)"}
    )
    declined_by = fields.String(allow_none=True, required=True, metadata={"description": "Who declined it"})
    created_at = Time(required=True, metadata=TIME)
    expires_at = Time(
        required=True,
        metadata={**TIME, "description": "RFC 3339, UTC: when it expires unless everyone accepted"},
    )
    match_id = fields.String(allow_none=True, required=True, metadata={"description": "Its match, once started"})
    tokens = fields.List(
        fields.Nested(SeatTokenSchema),
        required=True,
        metadata={
            "description": "The challenger's seat token, in the answer to a challenge of house bots alone (it "
            "starts at once); otherwise empty: the accounts' own tokens act for their seats"
        },
    )
    match = fields.Nested(
        MatchSchema, allow_none=True, required=True, metadata={"description": "Its match's state, once started"}
    )
