"""The public events of a match, one schema per ``type`` (an ``Event`` is exactly one of them)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from ...bots import LEVELS
from .common import CARD, KINDS, OneOfSchema, Tag, enum_field


class EventBase(ma.Schema):
    """What every event has: its number in the match."""

    seq = fields.Integer(required=True, metadata={"description": "1 for the match's first event, then +1 each"})


def _seat(about: str) -> fields.Integer:
    return fields.Integer(required=True, metadata={"description": about})


class SeatJoinedEventSchema(EventBase):
    """A seat was taken (a join, or a rematch claimed)."""

    type = Tag("seat_joined")
    seat = _seat("The seat taken")
    name = fields.String(required=True)


class HandStartedEventSchema(EventBase):
    """A hand was dealt."""

    type = Tag("hand_started")
    hand_number = fields.Integer(required=True)
    leader = _seat("The seat that leads the hand's first battle")


class PlayedEventSchema(EventBase):
    """A seat played cards."""

    type = Tag("played")
    seat = _seat("The seat that played")
    cards = fields.List(CARD, required=True)
    kind = enum_field("PlayKind", KINDS)
    bomb = fields.Boolean(required=True, metadata={"description": "The cards beat the table as a bomb"})


class PassedEventSchema(EventBase):
    """A seat passed and is locked out of the battle."""

    type = Tag("passed")
    seat = _seat("The seat that passed")


class TableClearedEventSchema(EventBase):
    """A battle was won: the table is clear."""

    type = Tag("table_cleared")
    leader = _seat("The seat that leads next")


class WentOutEventSchema(EventBase):
    """A seat played its last card (or was left last)."""

    type = Tag("went_out")
    seat = _seat("The seat that went out")
    place = fields.Integer(required=True, metadata={"description": "Its finishing place, from 1"})


class HandEndedEventSchema(EventBase):
    """A hand ended."""

    type = Tag("hand_ended")
    hand_number = fields.Integer(required=True)
    places = fields.List(fields.Integer(), required=True, metadata={"description": "Seats, first to last"})
    points = fields.List(fields.Integer(), required=True, metadata={"description": "Points by seat"})


class MatchEndedEventSchema(EventBase):
    """The match ended."""

    type = Tag("match_ended")
    winner = fields.Integer(allow_none=True, required=True, metadata={"description": "null only for a shared win"})
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True, metadata={"description": "Match totals by seat"})


class ActionOutSchema(ma.Schema):
    """An action as the server proposes or takes it: `cards` is empty for a pass."""

    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(CARD, required=True, metadata={"description": "Empty for a pass"})


class TimedOutEventSchema(EventBase):
    """A remote seat's turn clock ran out."""

    type = Tag("timed_out")
    seat = _seat("The seat whose time ran out")
    action = fields.Nested(
        ActionOutSchema, required=True, metadata={"description": "It passed, or played its lowest legal play"}
    )


class SeatTakenOverEventSchema(EventBase):
    """A bot plays the seat from now on (its player left or timed out too often)."""

    type = Tag("seat_taken_over")
    seat = _seat("The seat taken over")
    bot = enum_field("BotLevel", LEVELS)


class SeatLeftEventSchema(EventBase):
    """A seat's player left the match."""

    type = Tag("seat_left")
    seat = _seat("The seat left")


class MatchAbandonedEventSchema(EventBase):
    """No remote seat was left: the match ended without a winner."""

    type = Tag("match_abandoned")


class MatchCancelledEventSchema(EventBase):
    """The match was cancelled while waiting for players; it is gone."""

    type = Tag("match_cancelled")


class RematchEventSchema(EventBase):
    """A rematch of this finished match exists."""

    type = Tag("rematch")
    next_match_id = fields.String(required=True)


class EventSchema(OneOfSchema):
    """One event of a match, told apart by `type`."""

    discriminator = "type"
    choices = (
        SeatJoinedEventSchema,
        HandStartedEventSchema,
        PlayedEventSchema,
        PassedEventSchema,
        TableClearedEventSchema,
        WentOutEventSchema,
        HandEndedEventSchema,
        MatchEndedEventSchema,
        TimedOutEventSchema,
        SeatTakenOverEventSchema,
        SeatLeftEventSchema,
        MatchAbandonedEventSchema,
        MatchCancelledEventSchema,
        RematchEventSchema,
    )
