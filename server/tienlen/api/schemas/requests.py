"""The request bodies, queries and headers of API v1."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import marshmallow as ma
from marshmallow import ValidationError, fields, post_load, validate

from ...bots import LEVELS
from ...engine import (
    DEFAULT_PRESET,
    MAX_ENTROPY,
    PARAMETERS,
    PRESET_NAMES,
    PRESETS,
    DealError,
    Parameter,
    RulesError,
    Scoring,
    UnknownCardError,
    parse_deal,
    resolve_rules,
)
from ...engine.rules import MAX_PLAYERS, MIN_PLAYERS
from ...service import MatchStatus
from ...service.commands import BotSeat, Create, Join, OpenSeat, Pass, Play, RemoteSeat
from ...store import Clock
from .common import MAX_SEQ, NAME_RULES, Flag, OneOfSchema, Tag, WholeNumber, enum_field, rule_enum_name

# ----- requests --------------------------------------------------------------------


SEAT_TYPE = {
    "description": "The kind of seat. Optional (a seat without it is told by its fields, as before it existed), "
    "but send it: it is what tells the kinds apart in a generated client"
}


ENTROPY_TEXT = f"0 to {MAX_ENTROPY} printable ASCII characters"


def entropy_field() -> fields.String:
    """A seat's entropy for the fair deal (``tienlen-deal/1``): 0 to 64 printable ASCII characters."""
    return fields.String(
        validate=validate.Regexp(rf"[\x20-\x7e]{{0,{MAX_ENTROPY}}}\Z", error=ENTROPY_TEXT),
        metadata={
            "description": "What this seat adds to the fair deal (`fair_deal.entropy` shows it): "
            f"{ENTROPY_TEXT}, e.g. random ones of the player's own (else 422 invalid_request)",
            "json_schema": {"pattern": f"^[ -~]{{0,{MAX_ENTROPY}}}$"},
        },
    )


class RemoteSeatRequestSchema(ma.Schema):
    """A seat played through the API: answered with a token."""

    type = Tag("remote", required=False, metadata=SEAT_TYPE)
    name = fields.String(required=True, validate=NAME_RULES)
    entropy = entropy_field()
    open = Flag(validate=validate.Equal(False), metadata={"description": "false if given"})

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> RemoteSeat:
        """The seat as the service takes it."""
        return RemoteSeat(data["name"], data.get("entropy", ""))


class BotSeatRequestSchema(ma.Schema):
    """A seat played by a server bot of a level."""

    type = Tag("bot", required=False, metadata=SEAT_TYPE)
    name = fields.String(required=True, validate=NAME_RULES)
    bot = enum_field("BotLevel", LEVELS)
    open = Flag(validate=validate.Equal(False), metadata={"description": "false if given"})

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> BotSeat:
        """The seat as the service takes it."""
        return BotSeat(data["name"], data["bot"])


class OpenSeatRequestSchema(ma.Schema):
    """A seat filled later by a join (no name, no bot)."""

    type = Tag("open", required=False, metadata=SEAT_TYPE)
    open = Flag(required=True, validate=validate.Equal(True))

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> OpenSeat:
        """The seat as the service takes it."""
        return OpenSeat()


class SeatRequestSchema(OneOfSchema):
    """A seat of a new match: `{type: remote, name}`, `{type: bot, name, bot}` a server bot, `{type: open, open:
    true}` open for a join; `type` is the discriminator.
    """

    choices = (RemoteSeatRequestSchema, BotSeatRequestSchema, OpenSeatRequestSchema)
    discriminator = "type"
    tag_optional = True

    def pick_untagged(self, data: Mapping[str, Any]) -> type[ma.Schema]:
        """Open when ``open`` is true, a bot when it names one, else remote."""
        if data.get("open") is True:
            return OpenSeatRequestSchema
        return BotSeatRequestSchema if "bot" in data else RemoteSeatRequestSchema


def _rule_field(parameter: Parameter) -> fields.Field[Any]:
    """The request field of one rule parameter, from the engine's declaration of it."""
    about = {"description": parameter.about}
    if parameter.name == "players":
        return WholeNumber(
            validate=validate.Range(min=parameter.minimum, max=parameter.maximum),
            metadata={"description": "If given, must equal the number of seats"},
        )
    if parameter.choices is not None:
        return enum_field(rule_enum_name(parameter.name), parameter.values, required=False, metadata=about)
    if parameter.is_flag:
        return Flag(metadata=about)
    return WholeNumber(validate=validate.Range(min=parameter.minimum, max=parameter.maximum), metadata=about)


def _one_hand_without_scoring() -> list[dict[str, Any]]:
    """JSON Schema of the one rule that ties two parameters: with `scoring` "none" a match has 1 hand.

    Per preset (the default one when `preset` is absent): when the scoring in
    force is "none", the hands in force must be 1, so `hands` must be 1 (and
    given, unless the preset already has 1 hand).
    """
    none = Scoring.NONE.value
    clauses = []
    for name, preset in PRESETS.items():
        chosen: dict[str, Any] = {"properties": {"preset": {"const": name}}, "required": ["preset"]}
        if name == DEFAULT_PRESET:
            chosen = {"anyOf": [chosen, {"not": {"required": ["preset"]}}]}
        if preset.scoring is Scoring.NONE:  # in force unless another scoring is given
            other = {"properties": {"scoring": {"not": {"const": none}}}, "required": ["scoring"]}
            scoring_none: dict[str, Any] = {"not": other}
        else:
            scoring_none = {"properties": {"scoring": {"const": none}}, "required": ["scoring"]}
        one_hand: dict[str, Any] = {"properties": {"hands": {"const": 1}}}
        if preset.hands != 1:
            one_hand["required"] = ["hands"]
        clauses.append({"if": chosen, "then": {"if": scoring_none, "then": one_hand}})
    return clauses


class _RulesRequestBase(ma.Schema):
    json_schema_extra: ClassVar[dict[str, Any]] = {"allOf": _one_hand_without_scoring()}


# A preset and overrides of single parameters; the player count comes from the seats.
RulesRequestSchema = _RulesRequestBase.from_dict(
    {"preset": enum_field("Preset", PRESET_NAMES, required=False)} | {p.name: _rule_field(p) for p in PARAMETERS},
    name="RulesRequestSchema",
)


class ClockRequestSchema(ma.Schema):
    """A turn clock for every remote seat."""

    turn_seconds = WholeNumber(
        required=True,
        validate=validate.Range(min=1, max=3600),
        metadata={"description": "Seconds a remote seat has for each turn"},
    )
    timeouts_before_takeover = WholeNumber(
        load_default=2,
        validate=validate.Range(min=1, max=10),
        metadata={"description": "Timeouts in a row after which the takeover bot plays the seat"},
    )


def _players_equal_seats() -> list[dict[str, Any]]:
    """JSON Schema of ``rules.players``, when given, equal to the number of seats."""
    return [
        {
            "if": {
                "properties": {"rules": {"properties": {"players": {"const": n}}, "required": ["players"]}},
                "required": ["rules"],
            },
            "then": {"properties": {"seats": {"minItems": n, "maxItems": n}}},
        }
        for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
    ]


def _no_fixed_deal_when_joinable() -> dict[str, Any]:
    """JSON Schema of the rule that nobody chooses a public deal: with an open seat or ``listed``, no seed or deal."""
    open_seat = {"properties": {"open": {"const": True}}, "required": ["open"]}
    joinable = {
        "anyOf": [
            {"properties": {"listed": {"const": True}}, "required": ["listed"]},
            {"properties": {"seats": {"contains": open_seat}}, "required": ["seats"]},
        ]
    }
    return {"if": joinable, "then": {"not": {"anyOf": [{"required": ["seed"]}, {"required": ["deal"]}]}}}


class CreateMatchSchema(ma.Schema):
    """Body of ``POST /v1/matches``."""

    json_schema_extra: ClassVar[dict[str, Any]] = {"allOf": [*_players_equal_seats(), _no_fixed_deal_when_joinable()]}

    seats = fields.List(
        fields.Nested(SeatRequestSchema),
        required=True,
        validate=validate.Length(min=MIN_PLAYERS, max=MAX_PLAYERS),
        metadata={
            "description": "At least one seat is remote or open (not all bots)",
            "json_schema": {"contains": {"not": {"required": ["bot"]}}},
        },
    )
    rules = fields.Nested(
        RulesRequestSchema,
        load_default=dict,
        metadata={"description": "A preset (standard by default) and overrides; `players`, if given, is the seats'"},
    )
    seed = WholeNumber(
        validate=validate.Range(min=0, max=2**63 - 1),
        metadata={
            "description": "A reproducible shuffle, for a private match only (every seat remote or a bot; else 422 "
            "fixed_deal_not_private)"
        },
    )
    deal = fields.List(
        fields.List(fields.String(validate=validate.Length(max=8)), validate=validate.Length(min=1, max=13)),
        metadata={
            "description": "One list of 1 to 13 cards per seat for the first hand, no card twice "
            "(else 422 invalid_request); for a private match only (else 422 fixed_deal_not_private)"
        },
    )
    clock = fields.Nested(
        ClockRequestSchema,
        metadata={
            "description": "A turn clock: a remote seat whose turn runs out passes (or plays its lowest legal "
            "play when it may not pass), and the takeover bot plays it after too many timeouts in a row"
        },
    )
    takeover = enum_field(
        "BotLevel",
        LEVELS,
        required=False,
        load_default="medium",
        metadata={"description": "The level of the bot that takes over a seat that left or timed out too often"},
    )
    listed = Flag(
        load_default=False,
        metadata={"description": "Show the match in the lobby (GET /v1/matches) while it has an open seat"},
    )
    watchable = Flag(
        load_default=True,
        metadata={
            "description": "Anyone may watch the match (its public state, events, stream and replay; `GET /v1/live`). "
            "false: those answer only a request with a token of its seats, or of an account seated in it "
            "(403 not_watchable for anyone else). Kept by a rematch"
        },
    )

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Create:
        """The new match as the service takes it: the rules resolved, the deal as masks (422 when they cannot be)."""
        seats = tuple(data["seats"])
        if all(isinstance(seat, BotSeat) for seat in seats):
            raise ValidationError("at least one seat must be remote or open", "seats")
        rules_in = dict(data["rules"])
        if "players" in rules_in and rules_in["players"] != len(seats):
            raise ValidationError({"rules": {"players": ["rules.players must equal the number of seats"]}})
        try:
            rules = resolve_rules(rules_in, players=len(seats))
        except RulesError as error:
            raise ValidationError({"rules": {error.parameter: [str(error)]}}) from None
        deal: tuple[int, ...] | None = None
        if "deal" in data and (data["listed"] or any(isinstance(seat, OpenSeat) for seat in seats)):
            deal = ()  # not read: a public match's deal is refused by the service (fixed_deal_not_private)
        elif "deal" in data:
            try:
                deal = tuple(parse_deal(data["deal"], rules.players))
            except (DealError, UnknownCardError) as error:
                raise ValidationError(f"deal: {error}", "deal") from None
        clock_in = data.get("clock")
        clock = None if clock_in is None else Clock(clock_in["turn_seconds"], clock_in["timeouts_before_takeover"])
        return Create(seats, rules, data.get("seed"), deal, clock, data["takeover"], data["listed"], data["watchable"])


class JoinSchema(ma.Schema):
    """Body of a join (``POST /v1/matches/{match_id}/join``, ``POST /v1/rooms/{code}/join``)."""

    name = fields.String(
        validate=NAME_RULES,
        metadata={"description": "The seat's name; needed without an account's token (with one, the account's name)"},
    )
    entropy = entropy_field()

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Join:
        """The join as the service takes it."""
        return Join(data.get("name"), data.get("entropy", ""))


VERSION = WholeNumber(
    validate=validate.Range(min=0, max=MAX_SEQ),
    metadata={"description": "Refused with 409 stale_version unless current"},
)


class PlayActionSchema(ma.Schema):
    """Play cards."""

    type = Tag("play")
    cards = fields.List(
        fields.String(validate=validate.Length(max=8)),
        required=True,
        validate=validate.Length(min=1, max=52),
        metadata={"description": 'The cards played, at least one (else 422 invalid_request), e.g. ["3S", "3D"]'},
    )
    version = VERSION

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Play:
        """The play as the service takes it: its cards as a mask (or the refusal of cards that cannot be read)."""
        return Play.of(data["cards"], data.get("version"))


class PassActionSchema(ma.Schema):
    """Pass."""

    type = Tag("pass")
    cards = fields.List(fields.String(), validate=validate.Length(max=0), metadata={"description": "Absent or empty"})
    version = VERSION

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> Pass:
        """The pass as the service takes it."""
        return Pass(data.get("version"))


class ActionSchema(OneOfSchema):
    """A play (with its cards) or a pass, told apart by `type`."""

    discriminator = "type"
    choices = (PlayActionSchema, PassActionSchema)


class EventsQuerySchema(ma.Schema):
    """Query of ``GET /v1/matches/{match_id}/events``."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ))
    wait = fields.Float(load_default=0, validate=validate.Range(min=0, max=30))
    watcher = fields.String(
        validate=validate.Regexp(r"^[A-Za-z0-9_-]{1,64}\Z", error="1 to 64 of A-Z, a-z, 0-9, _ and -"),
        metadata={
            "description": "A spectator's id of its own choosing (1-64 of `A-Za-z0-9_-`, the same on every poll): "
            "a long poll that names one counts it among the match's `spectators` for 30 s (a seat's is not counted)",
            "example": "k3Jx9w",
        },
    )


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
        load_default=MatchStatus.WAITING.value,
        validate=validate.OneOf([MatchStatus.WAITING.value]),
        metadata={"description": "Only matches waiting for players are listed"},
    )
    players = fields.Integer(validate=validate.Range(min=2, max=4), metadata={"description": "Seats of the match"})
    preset = enum_field("Preset", PRESET_NAMES, required=False, metadata={"description": "Its rules' preset"})
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=50))
    cursor = fields.String(
        validate=validate.Length(min=1, max=200), metadata={"description": "`next_cursor` of the previous page"}
    )
