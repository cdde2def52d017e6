"""The request bodies, queries and headers of API v1."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ...bots import LEVELS
from ...engine import PARAMETERS, PRESET_NAMES, Parameter
from .common import MAX_SEQ, NAME_RULES, Flag

# ----- requests --------------------------------------------------------------------


class SeatRequestSchema(ma.Schema):
    """``{"name"}`` a remote seat, ``{"name", "bot"}`` a server bot, ``{"open": true}`` a seat to join."""

    class Meta:
        description = (
            "One of: `{name}` a remote seat (answered with a token), `{name, bot}` a server bot, "
            "`{open: true}` a seat filled later by a join (no name, no bot). "
            "A seat with neither a name nor `open: true` is refused (422 invalid_request)."
        )

    name = fields.String(validate=NAME_RULES, metadata={"description": "Required unless the seat is open"})
    bot = fields.String(validate=validate.OneOf(LEVELS))
    open = Flag(metadata={"description": "true: an open seat, which takes no name or bot"})

    @ma.validates_schema
    def _one_kind_of_seat(self, data: dict[str, Any], **_: Any) -> None:
        if data.get("open"):
            if "name" in data or "bot" in data:
                raise ma.ValidationError("an open seat takes no name or bot", "open")
        elif "name" not in data:
            raise ma.ValidationError("a seat needs a name, or open: true", "name")


def _rule_field(parameter: Parameter) -> fields.Field[Any]:
    """The request field of one rule parameter, from the engine's declaration of it."""
    about = {"description": parameter.about}
    if parameter.name == "players":
        return fields.Integer(strict=True, metadata={"description": "If given, must equal the number of seats"})
    if parameter.choices is not None:
        return fields.String(validate=validate.OneOf(parameter.values), metadata=about)
    if parameter.is_flag:
        return Flag(metadata=about)
    return fields.Integer(
        strict=True, validate=validate.Range(min=parameter.minimum, max=parameter.maximum), metadata=about
    )


# A preset and overrides of single parameters; the player count comes from the seats.
RulesRequestSchema = ma.Schema.from_dict(
    {"preset": fields.String(validate=validate.OneOf(PRESET_NAMES))} | {p.name: _rule_field(p) for p in PARAMETERS},
    name="RulesRequestSchema",
)


class ClockRequestSchema(ma.Schema):
    """A turn clock for every remote seat."""

    turn_seconds = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=1, max=3600),
        metadata={"description": "Seconds a remote seat has for each turn"},
    )
    timeouts_before_takeover = fields.Integer(
        strict=True,
        load_default=2,
        validate=validate.Range(min=1, max=10),
        metadata={"description": "Timeouts in a row after which the takeover bot plays the seat"},
    )


class CreateMatchSchema(ma.Schema):
    """Body of ``POST /v1/matches``."""

    seats = fields.List(fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(min=2, max=4))
    rules = fields.Nested(RulesRequestSchema, load_default=dict)
    seed = fields.Integer(strict=True, validate=validate.Range(min=0, max=2**63 - 1))
    deal = fields.List(
        fields.List(fields.String(validate=validate.Length(max=8)), validate=validate.Length(min=1, max=13)),
        metadata={"description": "One list of cards per seat for the first hand"},
    )
    clock = fields.Nested(
        ClockRequestSchema,
        metadata={
            "description": "A turn clock: a remote seat whose turn runs out passes (or plays its lowest legal "
            "play when it may not pass), and the takeover bot plays it after too many timeouts in a row"
        },
    )
    takeover = fields.String(
        load_default="medium",
        validate=validate.OneOf(LEVELS),
        metadata={"description": "The level of the bot that takes over a seat that left or timed out too often"},
    )
    listed = Flag(
        load_default=False,
        metadata={"description": "Show the match in the lobby (GET /v1/matches) while it has an open seat"},
    )


class JoinSchema(ma.Schema):
    """Body of ``POST /v1/matches/{match_id}/join``."""

    name = fields.String(required=True, validate=NAME_RULES)


class ActionSchema(ma.Schema):
    """Body of ``POST /v1/matches/{match_id}/actions``."""

    class Meta:
        description = (
            '`{"type": "play", "cards": [...]}` or `{"type": "pass"}`; a pass takes no cards '
            "(absent or empty), a play must give them (else 422 invalid_request)."
        )

    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(
        fields.String(validate=validate.Length(max=8)),
        validate=validate.Length(max=52),
        metadata={"description": "The cards played: required for a play, absent or empty for a pass"},
    )
    version = fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "Refused with 409 stale_version unless current"},
    )

    @ma.validates_schema
    def _cards_with_play_only(self, data: dict[str, Any], **_: Any) -> None:
        if data["type"] == "play" and "cards" not in data:
            raise ma.ValidationError("a play needs cards", "cards")
        if data["type"] == "pass" and data.get("cards"):
            raise ma.ValidationError("a pass takes no cards", "cards")


class EventsQuerySchema(ma.Schema):
    """Query of ``GET /v1/matches/{match_id}/events``."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ))
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=30))


class StreamQuerySchema(ma.Schema):
    """Query of ``GET /v1/matches/{match_id}/stream``."""

    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "Send the events with `seq` greater than this (`Last-Event-ID` wins if both)"},
    )


class StreamHeadersSchema(ma.Schema):
    """Headers of ``GET /v1/matches/{match_id}/stream``."""

    last_event_id = fields.Integer(
        data_key="Last-Event-ID",
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "Resume after this event (browsers send it when they reconnect)"},
    )


class LobbyQuerySchema(ma.Schema):
    """Query of ``GET /v1/matches`` (the lobby)."""

    status = fields.String(
        load_default="waiting",
        validate=validate.OneOf(["waiting"]),
        metadata={"description": "Only matches waiting for players are listed"},
    )
    players = fields.Integer(validate=validate.Range(min=2, max=4), metadata={"description": "Seats of the match"})
    preset = fields.String(validate=validate.OneOf(PRESET_NAMES), metadata={"description": "Its rules' preset"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=50))
    cursor = fields.String(
        validate=validate.Length(min=1, max=200), metadata={"description": "`next_cursor` of the previous page"}
    )
