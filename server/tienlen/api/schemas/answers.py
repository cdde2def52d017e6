"""The answers of API v1 (the service builds them; these schemas document them exactly)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from .common import CARD, KINDS, TIME


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
    left = fields.Boolean(required=True, metadata={"description": "The seat's player left the match"})
    taken_over = fields.Boolean(
        required=True,
        metadata={"description": "A bot (its level in `bot`) plays the seat now: its player left or timed out"},
    )


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


class ClockSchema(ma.Schema):
    """A match's turn clock."""

    turn_seconds = fields.Integer(required=True)
    timeouts_before_takeover = fields.Integer(required=True)


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
    clock = fields.Nested(ClockSchema, allow_none=True, required=True)
    turn_deadline = fields.String(
        allow_none=True,
        required=True,
        metadata=TIME | {"description": "When the clock of the remote seat on turn runs out (RFC 3339, UTC)"},
    )
    created_at = fields.String(required=True, metadata=TIME)
    updated_at = fields.String(required=True, metadata=TIME)
    listed = fields.Boolean(required=True, metadata={"description": "Shown in the lobby while a seat is open"})
    next_match_id = fields.String(allow_none=True, required=True, metadata={"description": "The rematch, once made"})


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


EVENTS = fields.List(
    fields.Dict(),
    required=True,
    metadata={"description": "Every event from the action through the bots' replies, oldest first"},
)


class ActionAnswerSchema(SeatViewSchema):
    """Your view after your action, and every event it caused (the bots' replies included)."""

    events = EVENTS


class LeaveAnswerSchema(MatchSchema):
    """The public match after you left, and what it set off (a bot taking your seat, its plays)."""

    events = EVENTS


class RematchSchema(ma.Schema):
    """Your seat in the rematch and your token there."""

    match_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True)


class LobbySeatSchema(ma.Schema):
    """A seat of a match in the lobby."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = fields.String(allow_none=True, required=True)
    open = fields.Boolean(required=True)


class LobbyMatchSchema(ma.Schema):
    """A match in the lobby."""

    match_id = fields.String(required=True)
    seats = fields.List(fields.Nested(LobbySeatSchema), required=True)
    rules = fields.Nested(RulesSchema, required=True)
    created_at = fields.String(required=True, metadata=TIME)


class LobbySchema(ma.Schema):
    """Listed matches with an open seat, newest first."""

    matches = fields.List(fields.Nested(LobbyMatchSchema), required=True)
    next_cursor = fields.String(
        allow_none=True, required=True, metadata={"description": "Pass as `cursor` for the next page; null at the end"}
    )


class ReplaySeatSchema(ma.Schema):
    """A seat of a replayed match."""

    name = fields.String(allow_none=True, required=True)
    bot = fields.String(allow_none=True, required=True)


class ReplayActionSchema(ma.Schema):
    """One action of a replayed hand."""

    seat = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(CARD, required=True)


class ReplayHandSchema(ma.Schema):
    """One hand of a replay: the deal and every action in order."""

    hand_number = fields.Integer(required=True)
    deal = fields.List(fields.List(CARD), required=True, metadata={"description": "Each seat's cards, low to high"})
    actions = fields.List(fields.Nested(ReplayActionSchema), required=True)


class ReplayResultSchema(ma.Schema):
    """How the match ended."""

    scores = fields.List(fields.Integer(), required=True)
    winner = fields.Integer(allow_none=True, required=True)
    abandoned = fields.Boolean(required=True, metadata={"description": "No remote seat was left to play it out"})


class ReplaySchema(ma.Schema):
    """A finished match to watch again or check (`tienlen replay FILE` referees it)."""

    format = fields.String(required=True, validate=validate.OneOf(["tienlen-replay/1"]))
    rules = fields.Nested(RulesSchema, required=True)
    seed = fields.Integer(required=True)
    seats = fields.List(fields.Nested(ReplaySeatSchema), required=True)
    hands = fields.List(fields.Nested(ReplayHandSchema), required=True)
    result = fields.Nested(ReplayResultSchema, required=True)
