"""The answers of friends (``/v1/me/following``): the accounts followed, their presence and live matches."""

from __future__ import annotations

from marshmallow import fields

from ...service.friends import PRESENCES
from .common import TIME, Time, enum_field
from .dumping import AnswerSchema
from .players import PlayingMatchSchema


class FriendSchema(AnswerSchema):
    """An account followed, as its follower sees it."""

    name = fields.String(required=True, metadata={"description": "The account's name as it chose it"})
    bot = fields.Boolean(required=True, metadata={"description": "A bot account"})
    presence = enum_field(
        "Presence",
        PRESENCES,
        required=True,
        metadata={
            "description": "`playing`: seated in a live match; `online`: listened to its inbox in the last minute; "
            "`away`: neither"
        },
    )
    matches = fields.List(
        fields.Nested(PlayingMatchSchema), required=True, metadata={"description": "Its live matches, oldest first"}
    )
    last_seen = Time(
        required=True,
        allow_none=True,
        metadata=TIME | {"description": "When it last listened to its inbox (RFC 3339, UTC); null: not in a day"},
    )


class FollowingListSchema(AnswerSchema):
    """Answer of ``GET /v1/me/following``."""

    following = fields.List(
        fields.Nested(FriendSchema),
        required=True,
        metadata={"description": "Playing first, then online, then away; each by name"},
    )
