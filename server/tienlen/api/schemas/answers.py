"""The answers of API v1: each schema writes the service's domain objects as JSON, and documents it.

Cards are held as masks and written as text here (:class:`~.common.Cards`),
moments as epoch seconds written in RFC 3339 (:class:`~.common.Time`), enums
as their values: these schemas are the one place where an answer's wire form
is decided.
"""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from ...bots import LEVELS
from ...bots.explain import REASONS, TEMPLATES
from ...engine import PARAMETERS, PRESET_NAMES
from ...service import MatchStatus
from .common import CARD, KINDS, TIME, CardNumber, Cards, Time, enum_field, rule_enum_name
from .dumping import AnswerSchema
from .events import ActionOutSchema, EventSchema

STATUS = [status.value for status in MatchStatus]


def bot_level(about: str = "Bot level, or null") -> fields.String:
    """A seat's bot level, or null (the ``BotLevel`` enum)."""
    return enum_field("BotLevel", LEVELS, nullable=True, metadata={"description": about})


ACCOUNT_SEAT = fields.Boolean(
    required=True,
    metadata={
        "description": "An account holds the seat (`name` is its name, `GET /v1/players/{name}` its profile); "
        "its tokens act for the seat"
    },
)


class MatchSeatSchema(AnswerSchema):
    """A seat as everybody sees it."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = bot_level()
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
    account = ACCOUNT_SEAT


class TableSchema(AnswerSchema):
    """The play on the table."""

    seat = fields.Integer(required=True)
    cards = Cards(required=True, attribute="mask")
    kind = enum_field("PlayKind", KINDS)


class HandSchema(AnswerSchema):
    """A completed hand."""

    hand_number = fields.Integer(required=True)
    places = fields.List(fields.Integer(), required=True, metadata={"description": "Seats, first to last"})
    points = fields.List(fields.Integer(), required=True, metadata={"description": "Points by seat"})
    dealt = fields.List(
        Cards(),
        required=True,
        metadata={"description": "Each seat's cards as dealt for the hand, by seat (public once the hand is over)"},
    )


def _rule_answer_field(name: str) -> fields.Field[Any]:
    """A resolved rule parameter's answer field, from the engine's declaration of it."""
    parameter = next(p for p in PARAMETERS if p.name == name)
    about = {"description": parameter.about}
    if parameter.choices is not None:
        return enum_field(rule_enum_name(parameter.name), parameter.values, metadata=about)
    if parameter.is_flag:
        return fields.Boolean(required=True, metadata=about)
    return fields.Integer(required=True, metadata=about)


# All resolved rule parameters and the preset they started from.
RulesSchema = AnswerSchema.from_dict(
    {"preset": enum_field("Preset", PRESET_NAMES)} | {p.name: _rule_answer_field(p.name) for p in PARAMETERS},
    name="RulesSchema",
)


class ClockSchema(AnswerSchema):
    """A match's turn clock."""

    turn_seconds = fields.Integer(required=True)
    timeouts_before_takeover = fields.Integer(required=True)


HEX64 = {"pattern": "^[0-9a-f]{64}$"}


class FairDealSchema(AnswerSchema):
    """A match's fair deal (`tienlen-deal/1`, docs/fair-deals.md): what every hand is dealt from."""

    protocol = fields.String(required=True, validate=validate.OneOf(["tienlen-deal/1"]))
    commitment = fields.String(
        required=True,
        metadata={"description": "SHA-256 of the server's secret (hex), public from the match's creation"}
        | {"json_schema": HEX64},
    )
    entropy = fields.List(
        fields.String(),
        required=True,
        metadata={"description": 'Each seat\'s entropy, as given when the seat was taken ("" when none or open)'},
    )
    secret = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The secret (hex), once the match is finished: recompute every deal with it"}
        | {"json_schema": HEX64},
    )


class MatchSchema(AnswerSchema):
    """The public state of a match: never a card of anybody's hand."""

    match_id = fields.String(required=True)
    status = enum_field("MatchStatus", STATUS)
    version = fields.Integer(required=True, metadata={"description": "Rises with every accepted write"})
    last_seq = fields.Integer(required=True, metadata={"description": "Sequence number of the newest event"})
    rules = fields.Nested(RulesSchema, required=True)
    hand_number = fields.Integer(required=True, metadata={"description": "1-based; 0 while waiting"})
    seats = fields.List(fields.Nested(MatchSeatSchema), required=True)
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
    turn_deadline = Time(
        allow_none=True,
        required=True,
        metadata=TIME | {"description": "When the clock of the remote seat on turn runs out (RFC 3339, UTC)"},
    )
    created_at = Time(required=True, metadata=TIME)
    updated_at = Time(required=True, metadata=TIME)
    listed = fields.Boolean(required=True, metadata={"description": "Shown in the lobby while a seat is open"})
    next_match_id = fields.String(allow_none=True, required=True, metadata={"description": "The rematch, once made"})
    room_code = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The code others join this match by (`POST /v1/rooms/{code}/join`), given to a match "
            "made with open seats; null otherwise",
            "example": "K7QM2X",
        },
    )
    rated = fields.Boolean(
        required=True,
        metadata={
            "description": "A rated match: its end moves the ratings of the accounts in it (`GET /v1/leaderboard`)"
        },
    )
    fair_deal = fields.Nested(
        FairDealSchema,
        allow_none=True,
        required=True,
        metadata={
            "description": "How its hands are dealt so that anyone can check them; null for a private match "
            "whose creator fixed the deal (`seed` or `deal`)"
        },
    )
    watchable = fields.Boolean(
        required=True,
        metadata={
            "description": "Anyone may watch it; false: its public reads answer its seats only (`not_watchable`)"
        },
    )
    spectators = fields.Integer(
        required=True,
        metadata={
            "description": "Readers following the match in the last 30 s who are not its seats (streams, and long "
            "polls that send `watcher`); counted in `GET /v1/matches/{id}` and a seat's view, 0 in other answers"
        },
    )


class SeatViewSchema(MatchSchema):
    """The public state plus the asking seat's own cards, low to high."""

    seat = fields.Integer(required=True)
    cards = Cards(required=True, attribute="hand")
    start_card = CardNumber(
        allow_none=True,
        required=True,
        metadata={"description": "The card your opening lead must include (only while it applies and you hold it)"},
    )


TOKEN_DESCRIPTION = "The seat's bearer token: URL-safe, never beginning with '-' (a bot may take it as an argument)."


class SeatTokenSchema(AnswerSchema):
    """A seat's bearer token: keep it secret."""

    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": TOKEN_DESCRIPTION})


class CreatedMatchSchema(AnswerSchema):
    """Answer to ``POST /v1/matches``."""

    match_id = fields.String(required=True)
    tokens = fields.List(fields.Nested(SeatTokenSchema), required=True)
    match = fields.Nested(MatchSchema, required=True)


class PlaySchema(AnswerSchema):
    """A legal play."""

    cards = Cards(required=True, attribute="mask")
    kind = enum_field("PlayKind", KINDS)


class LegalSchema(AnswerSchema):
    """What the asking seat may do now."""

    can_pass = fields.Boolean(required=True)
    plays = fields.List(fields.Nested(PlaySchema), required=True)


class EventPageSchema(AnswerSchema):
    """A page of events."""

    events = fields.List(fields.Nested(EventSchema), required=True, metadata={"description": "Oldest first"})
    last_seq = fields.Integer(
        required=True,
        metadata={"description": "The newest event's number: pass it as the next `after`"},
    )


def _sentences(parts: dict[str, str]) -> str:
    """The English of each template or reason of a hint's explanation, for the description of its enum."""
    return "; ".join(f'`{key}`: "{text}"' for key, text in parts.items() if text)


class NearlyOutSchema(AnswerSchema):
    """An opponent nearly out (at most 2 cards), named in a hint's explanation."""

    seat = fields.Integer(required=True)
    cards_left = fields.Integer(required=True)


class ExplanationCodeSchema(AnswerSchema):
    """A hint's explanation, machine-readable: the sentence (`template`, then `reason`) and what it names.

    The English `explanation` is the template's text followed by the reason's and a full stop, with `{play}`,
    `{table}` and `{kept}` the combinations below and `{danger}` "seat N is nearly out (K cards left)": a client
    writes the same sentence in its own language from these fields.
    """

    template = enum_field(
        "ExplanationTemplate", list(TEMPLATES), metadata={"description": "The sentence: " + _sentences(TEMPLATES)}
    )
    reason = enum_field(
        "ExplanationReason",
        list(REASONS),
        metadata={"description": "How it goes on (`none`: it does not): " + _sentences(REASONS)},
    )
    play = fields.Nested(
        PlaySchema, allow_none=True, required=True, metadata={"description": "The suggested play (null for a pass)"}
    )
    table = fields.Nested(
        PlaySchema, allow_none=True, required=True, metadata={"description": "The table's play it beats or passes on"}
    )
    kept = fields.Nested(
        PlaySchema,
        allow_none=True,
        required=True,
        metadata={
            "description": "What it keeps: the piece kept together (`keeps_together`, named by its ranks) or the "
            "play kept for later (`pass_keep`)"
        },
    )
    nearly_out = fields.Nested(
        NearlyOutSchema,
        allow_none=True,
        required=True,
        metadata={"description": "The opponent nearly out (`nearly_out`, `single_cannot_stop`)"},
    )


class HintSchema(AnswerSchema):
    """A suggested action and why."""

    action = fields.Nested(ActionOutSchema, required=True)
    explanation = fields.String(required=True)
    explanation_code = fields.Nested(
        ExplanationCodeSchema,
        required=True,
        attribute="reasons",
        metadata={"description": "The same reason, machine-readable, for a client that writes it in its own words"},
    )


EVENTS = fields.List(
    fields.Nested(EventSchema),
    required=True,
    metadata={"description": "Every event from the action through the bots' replies, oldest first"},
)


class ActionAnswerSchema(SeatViewSchema):
    """Your view after your action, and every event it caused (the bots' replies included)."""

    events = EVENTS


class LeaveAnswerSchema(MatchSchema):
    """The public match after you left, and what it set off (a bot taking your seat, its plays)."""

    events = EVENTS


class RematchSchema(AnswerSchema):
    """Your seat in the rematch and your token there."""

    match_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": TOKEN_DESCRIPTION})


class LobbySeatSchema(AnswerSchema):
    """A seat of a match in the lobby."""

    seat = fields.Integer(required=True)
    name = fields.String(allow_none=True, required=True)
    bot = bot_level()
    open = fields.Boolean(required=True)
    account = ACCOUNT_SEAT


class LobbyMatchSchema(AnswerSchema):
    """A match in the lobby."""

    match_id = fields.String(required=True)
    seats = fields.List(fields.Nested(LobbySeatSchema), required=True)
    rules = fields.Nested(RulesSchema, required=True)
    created_at = Time(required=True, metadata=TIME)


class LobbySchema(AnswerSchema):
    """Listed matches with an open seat, newest first."""

    matches = fields.List(fields.Nested(LobbyMatchSchema), required=True)
    next_cursor = fields.String(
        allow_none=True, required=True, metadata={"description": "Pass as `cursor` for the next page; null at the end"}
    )


class ReplaySeatSchema(AnswerSchema):
    """A seat of a replayed match."""

    name = fields.String(allow_none=True, required=True)
    bot = bot_level()


class ReplayActionSchema(AnswerSchema):
    """One action of a replayed hand."""

    seat = fields.Integer(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["play", "pass"]))
    cards = fields.List(CARD, required=True)


class ReplayHandSchema(AnswerSchema):
    """One hand of a replay: the deal and every action in order."""

    hand_number = fields.Integer(required=True)
    deal = fields.List(fields.List(CARD), required=True, metadata={"description": "Each seat's cards, low to high"})
    actions = fields.List(fields.Nested(ReplayActionSchema), required=True)


class ReplayResultSchema(AnswerSchema):
    """How the match ended."""

    scores = fields.List(fields.Integer(), required=True)
    winner = fields.Integer(allow_none=True, required=True)
    abandoned = fields.Boolean(required=True, metadata={"description": "No remote seat was left to play it out"})


class ReplayFairDealSchema(AnswerSchema):
    """A fair-dealt match's deal inputs in its replay: check SHA-256(secret) = commitment, then every deal."""

    protocol = fields.String(required=True, validate=validate.OneOf(["tienlen-deal/1"]))
    match_id = fields.String(required=True)
    commitment = fields.String(required=True, metadata={"json_schema": HEX64})
    secret = fields.String(required=True, metadata={"json_schema": HEX64})
    entropy = fields.List(fields.String(), required=True, metadata={"description": "Each seat's entropy"})


class ReplaySchema(AnswerSchema):
    """A finished match to watch again or check (`tienlen replay FILE` referees it)."""

    format = fields.String(required=True, validate=validate.OneOf(["tienlen-replay/1"]))
    rules = fields.Nested(RulesSchema, required=True)
    seed = fields.Integer(required=True)
    seats = fields.List(fields.Nested(ReplaySeatSchema), required=True)
    hands = fields.List(fields.Nested(ReplayHandSchema), required=True)
    result = fields.Nested(ReplayResultSchema, required=True)
    fair_deal = fields.Nested(
        ReplayFairDealSchema,
        metadata={"description": "Present exactly for a fair-dealt match (`tienlen replay` verifies it)"},
    )
