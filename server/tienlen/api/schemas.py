"""Marshmallow schemas for every request body and response of API v1."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ..bots import LEVELS
from ..engine import PARAMETERS, PRESET_NAMES, Kind, Parameter

KINDS = [k.value for k in Kind]


def _unicode_text(value: str) -> None:
    """Refuse text that cannot be written as UTF-8 (a lone surrogate such as ``"\\ud800"``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ma.ValidationError("must be valid Unicode text (no lone surrogates)") from error


NAME_RULES: list[Callable[[Any], Any]] = [validate.Length(min=1, max=40), _unicode_text]
CARD = fields.String(metadata={"description": "A card in wire notation, e.g. 3S, 10D, QH, 2C", "example": "3S"})


class ErrorSchema(ma.Schema):
    """Every non-2xx answer."""

    code = fields.Integer(required=True, metadata={"description": "HTTP status code"})
    status = fields.String(required=True, metadata={"description": "HTTP status name"})
    message = fields.String(required=True, metadata={"description": "What went wrong, for people"})
    reason = fields.String(required=True, metadata={"description": "What went wrong, for programs"})
    errors = fields.Dict(metadata={"description": "Field details on validation failures"})


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
    open = fields.Boolean(metadata={"description": "true: an open seat, which takes no name or bot"})

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
        return fields.Boolean(truthy={True}, falsy={False}, metadata=about)
    return fields.Integer(
        strict=True, validate=validate.Range(min=parameter.minimum, max=parameter.maximum), metadata=about
    )


# A preset and overrides of single parameters; the player count comes from the seats.
RulesRequestSchema = ma.Schema.from_dict(
    {"preset": fields.String(validate=validate.OneOf(PRESET_NAMES))} | {p.name: _rule_field(p) for p in PARAMETERS},
    name="RulesRequestSchema",
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
    version = fields.Integer(strict=True, metadata={"description": "Refused with 409 stale_version unless current"})

    @ma.validates_schema
    def _cards_with_play_only(self, data: dict[str, Any], **_: Any) -> None:
        if data["type"] == "play" and "cards" not in data:
            raise ma.ValidationError("a play needs cards", "cards")
        if data["type"] == "pass" and data.get("cards"):
            raise ma.ValidationError("a pass takes no cards", "cards")


MAX_SEQ = 2**63 - 1  # a stream entry id's sequence part is a 64-bit number in Redis


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


# ----- responses -------------------------------------------------------------------


class SeatSchema(ma.Schema):
    """A seat as everybody sees it."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(allow_none=True, required=True, metadata={"description": "Bot level, or null"})
    open = fields.Boolean(required=True, metadata={"description": "Waiting for someone to join"})
    cards_left = fields.Integer(required=True)
    passed = fields.Boolean(required=True, metadata={"description": "Pass-locked in the current battle"})
    place = fields.Integer(allow_none=True, required=True, metadata={"description": "Finishing place, from 1"})
    score = fields.Integer(required=True, metadata={"description": "Running match total"})


class TableSchema(ma.Schema):
    """The play on the table."""

    seat = fields.Integer(required=True)
    cards = fields.List(CARD, required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))


class HandSchema(ma.Schema):
    """A completed hand."""

    hand_number = fields.Integer(required=True)
    places = fields.List(fields.Integer(), required=True, metadata={"description": "Seats, first to last"})
    points = fields.List(fields.Integer(), required=True, metadata={"description": "Points by seat"})


class RulesSchema(ma.Schema):
    """All resolved rule parameters and the preset they started from."""

    preset = fields.String(required=True)
    players = fields.Integer(required=True)
    bombs = fields.String(required=True)
    pass_reentry_with_bomb = fields.Boolean(required=True)
    start_card_rule = fields.Boolean(required=True)
    end_on_first_out = fields.Boolean(required=True)
    scoring = fields.String(required=True)
    hands = fields.Integer(required=True)
    tiebreak = fields.String(required=True)


class MatchSchema(ma.Schema):
    """The public state of a match: never a card of anybody's hand."""

    match_id = fields.String(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "playing", "finished"]))
    version = fields.Integer(required=True, metadata={"description": "Rises with every accepted write"})
    last_seq = fields.Integer(required=True, metadata={"description": "Sequence number of the newest event"})
    rules = fields.Nested(RulesSchema, required=True)
    hand_number = fields.Integer(required=True, metadata={"description": "1-based; 0 while waiting"})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    turn = fields.Integer(allow_none=True, required=True, metadata={"description": "The seat expected to act"})
    leading = fields.Boolean(required=True, metadata={"description": "The seat on turn leads a new battle"})
    reentry = fields.Boolean(
        required=True, metadata={"description": "The seat on turn is pass-locked and may only bomb or pass"}
    )
    table = fields.Nested(TableSchema, allow_none=True, required=True)
    hands = fields.List(fields.Nested(HandSchema), required=True)
    winner = fields.Integer(allow_none=True, required=True)
    winners = fields.List(fields.Integer(), required=True, metadata={"description": "Several only for a shared win"})


class SeatViewSchema(MatchSchema):
    """The public state plus the asking seat's own cards, low to high."""

    seat = fields.Integer(required=True)
    cards = fields.List(CARD, required=True)
    start_card = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The card your opening lead must include (only while it applies and you hold it)"},
    )


class TokenSchema(ma.Schema):
    """A seat's bearer token: keep it secret."""

    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class CreatedMatchSchema(ma.Schema):
    """Answer to ``POST /v1/matches``."""

    match_id = fields.String(required=True)
    tokens = fields.List(fields.Nested(TokenSchema), required=True)
    match = fields.Nested(MatchSchema, required=True)


class PlaySchema(ma.Schema):
    """A legal play."""

    cards = fields.List(CARD, required=True)
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))


class LegalSchema(ma.Schema):
    """What the asking seat may do now."""

    can_pass = fields.Boolean(required=True)
    plays = fields.List(fields.Nested(PlaySchema), required=True)


class EventsSchema(ma.Schema):
    """A page of events."""

    events = fields.List(
        fields.Dict(),
        required=True,
        metadata={
            "description": "Events oldest first, each {seq, type, ...}: seat_joined {seat, name}, "
            "hand_started {hand_number, leader}, played {seat, cards, kind, bomb}, passed {seat}, "
            "table_cleared {leader}, went_out {seat, place}, hand_ended {hand_number, places, points}, "
            "match_ended {winner, winners, scores}"
        },
    )
    last_seq = fields.Integer(required=True)


class ActionOutSchema(ma.Schema):
    """An action as a hint proposes it."""

    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(CARD, required=True)


class HintSchema(ma.Schema):
    """A suggested action and why."""

    action = fields.Nested(ActionOutSchema, required=True)
    explanation = fields.String(required=True)


class PresetsSchema(ma.Schema):
    """The presets with all their parameters."""

    default_preset = fields.String(required=True)
    presets = fields.Dict(keys=fields.String(), values=fields.Nested(RulesSchema), required=True)
    parameters = fields.Dict(required=True, metadata={"description": "What each parameter means and allows"})


class HealthSchema(ma.Schema):
    """Health of the server and its store."""

    status = fields.String(required=True)
