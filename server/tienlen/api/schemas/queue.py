"""The requests and answers of quick play (``/v1/queue``)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate

from ...engine import PRESET_NAMES
from ...service.commands import Enqueue
from .common import TIME, Flag, Time, enum_field
from .dumping import AnswerSchema
from .rated import MAX_PLAYERS, MIN_PLAYERS
from .requests import entropy_field

TICKET_STATUSES = ("waiting", "matched", "left")


class QueueSchema(ma.Schema):
    """Body of ``POST /v1/queue``."""

    players = fields.Integer(
        load_default=4, validate=validate.Range(min=MIN_PLAYERS, max=MAX_PLAYERS), metadata={"description": "Seats"}
    )
    preset = enum_field(
        "Preset", PRESET_NAMES, required=False, load_default="standard", metadata={"description": "The rules' preset"}
    )
    rated = Flag(load_default=True, metadata={"description": "Whether the match moves its players' ratings"})
    entropy = entropy_field()

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Enqueue:
        """The ticket asked for, as the service takes it."""
        return Enqueue(data["players"], data["preset"], data["rated"], data.get("entropy", ""))


class TicketQuerySchema(ma.Schema):
    """Query of ``GET /v1/queue/{ticket}``."""

    wait = fields.Float(
        load_default=0,
        validate=validate.Range(min=0, max=30),
        metadata={"description": "Seconds to wait for the ticket to be matched (0 to 30)"},
    )


class QueueTicketSchema(AnswerSchema):
    """A quick-play ticket."""

    ticket = fields.String(required=True, metadata={"description": "The ticket's id"})
    status = enum_field(
        "TicketStatus",
        TICKET_STATUSES,
        required=True,
        metadata={"description": "`waiting` in the queue, `matched` (see `match_id`, `seat`), or `left`"},
    )
    players = fields.Integer(required=True)
    preset = fields.String(required=True)
    rated = fields.Boolean(required=True)
    queued_at = Time(required=True, metadata=TIME)
    match_id = fields.String(allow_none=True, required=True, metadata={"description": "Once matched"})
    seat = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "Once matched: the account's seat (its own token acts for it)"},
    )
