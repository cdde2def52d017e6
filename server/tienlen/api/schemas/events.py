"""The public events of a match, one schema per ``type`` (an ``Event`` is exactly one of them), and the fields of an
account's inbox events: all derived from the event dataclasses (:mod:`tienlen.events`).

Each dataclass field is a required property under the key the store and the wire codecs write it with
(:func:`derived_field`), described by :data:`DESCRIPTIONS` and, for a field of named values, :data:`ENUMS`. A new
event, or a new field of one, is declared once as a dataclass and appears here and in the OpenAPI document.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ...bots import LEVELS
from ...engine.event_codec import ACTION, CARDS, HANDS, LIST, TIME, EventField, event_fields, event_type
from ...events import (
    MATCH_EVENTS,
    ChatRemoved,
    ChatSaid,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    MatchEnded,
    Passed,
    Played,
    SeatJoined,
    SeatLeft,
    SeatTakenOver,
    TableCleared,
    TimedOut,
    WentOut,
)
from .common import CARD, KINDS, OneOfSchema, Tag, Time, enum_field
from .common import TIME as TIME_METADATA

# What each field of a match event means, by event and key (a field absent here has no description).
DESCRIPTIONS: dict[type[Event], dict[str, str]] = {
    SeatJoined: {"seat": "The seat taken"},
    HandStarted: {"leader": "The seat that leads the hand's first battle"},
    Played: {"seat": "The seat that played", "bomb": "The cards beat the table as a bomb"},
    Passed: {"seat": "The seat that passed"},
    TableCleared: {"leader": "The seat that leads next"},
    WentOut: {"seat": "The seat that went out", "place": "Its finishing place, from 1"},
    HandEnded: {"places": "Seats, first to last", "points": "Points by seat"},
    HandShown: {"hands": "Each seat's cards as dealt for the hand, by seat, low to high: public once it is over"},
    MatchEnded: {"winner": "null only for a shared win", "scores": "Match totals by seat"},
    TimedOut: {"seat": "The seat whose time ran out", "action": "It passed, or played its lowest legal play"},
    SeatTakenOver: {"seat": "The seat taken over"},
    SeatLeft: {"seat": "The seat left"},
    ChatSaid: {
        "room": "`table`: the seats' room (sent only to the seats' readers); `spectators`: everyone's",
        "name": "Who said it: the seat's name, or the spectator account's",
        "from_seat": "The seat that said it; null for a spectator",
        "account": "The name of the account that said it; null for an anonymous seat",
        "text": "1-200 characters; empty once a moderator removed the message",
        "phrase": "The quick phrase's id (`GET /v1/rules` `chat_phrases`) when the message is one, else null",
        "said_at": "When it was said",
    },
    ChatRemoved: {"message_seq": "The `seq` of the `chat_said` a moderator removed"},
}

# Fields that take one of named values: (event, key) -> the enum component's name and its values.
ENUMS: dict[tuple[type[Event], str], tuple[str, list[str]]] = {
    (Played, "kind"): ("PlayKind", KINDS),
    (SeatTakenOver, "bot"): ("BotLevel", list(LEVELS)),
    (ChatSaid, "room"): ("ChatRoom", ["table", "spectators"]),
}

_PLAIN_FIELDS: dict[Any, type[fields.Field[Any]]] = {
    int: fields.Integer,
    str: fields.String,
    bool: fields.Boolean,
    float: fields.Float,
}


class ActionOutSchema(ma.Schema):
    """An action as the server proposes or takes it: `cards` is empty for a pass."""

    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(CARD, required=True, metadata={"description": "Empty for a pass"})


def derived_field(
    field: EventField,
    *,
    description: str | None = None,
    enum: tuple[str, list[str]] | None = None,
    required: bool = True,
) -> fields.Field[Any]:
    """The schema field of one event field: its kind (cards, an action, a time, a list, a plain value) and type."""
    metadata = {} if description is None else {"description": description}
    options: dict[str, Any] = {"required": required, "metadata": metadata}
    if field.nullable:
        options["allow_none"] = True
    if enum is not None:
        return enum_field(enum[0], enum[1], nullable=field.nullable, required=required, metadata=metadata)
    if field.kind == CARDS:
        return fields.List(CARD, **options)
    if field.kind == ACTION:
        return fields.Nested(ActionOutSchema, **options)
    if field.kind == HANDS:
        return fields.List(fields.List(CARD), **options)
    if field.kind == TIME:
        return Time(**(options | {"metadata": TIME_METADATA | metadata}))
    if field.kind == LIST:
        (inner, _) = typing.get_args(field.hint)
        return fields.List(_PLAIN_FIELDS[inner](), **options)
    return _PLAIN_FIELDS[field.hint](**options)


class EventBase(ma.Schema):
    """What every event has: its number in the match."""

    seq = fields.Integer(required=True, metadata={"description": "1 for the match's first event, then +1 each"})


def _event_schema(cls: type[Event]) -> type[ma.Schema]:
    """The schema of one match event: ``seq``, its ``type`` and its fields (``<Name>EventSchema``)."""
    described = DESCRIPTIONS.get(cls, {})
    declared: dict[str, Any] = {"type": Tag(event_type(cls))}
    for field in event_fields(cls):
        declared[field.key] = derived_field(
            field, description=described.get(field.key), enum=ENUMS.get((cls, field.key))
        )
    name = f"{cls.__name__}EventSchema"
    declared |= {"__doc__": cls.__doc__, "__module__": __name__, "__qualname__": name}
    return type(name, (EventBase,), declared)


EVENT_SCHEMAS: Mapping[type[Event], type[ma.Schema]] = {cls: _event_schema(cls) for cls in MATCH_EVENTS}
"""The schema of each kind of match event, in :data:`~tienlen.events.MATCH_EVENTS` order."""


class EventSchema(OneOfSchema):
    """One event of a match, told apart by `type`."""

    discriminator = "type"
    choices = tuple(EVENT_SCHEMAS.values())
