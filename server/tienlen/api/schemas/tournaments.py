"""The requests and answers of tournaments (``/v1/tournaments``): terms, lists, a tournament, standings, events.

The formats' enum and their summaries derive from :data:`tienlen.tournaments.FORMATS`; the feed's event types
from :data:`tienlen.service.tournament_views.TOURNAMENT_EVENTS`; the bounds from :mod:`tienlen.tournaments.terms`.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate

from ...engine import PRESET_NAMES
from ...service.tournament_views import CANCEL_CAUSES, TOURNAMENT_EVENTS
from ...store.tournaments import TOURNAMENT_STATUSES
from ...tournaments import FORMATS, Format, Terms
from ...tournaments import terms as bounds
from .common import TIME, Flag, Time, WholeNumber, enum_field
from .dumping import AnswerSchema
from .inbox import MAX_INBOX_SEQ

FORMAT_DOC = "; ".join(f"`{spec.format}`: {spec.summary}" for spec in FORMATS.values())
FORMAT_NEEDS = ", ".join(f"`{spec.format}` needs `{'`, `'.join(sorted(spec.needs))}`" for spec in FORMATS.values())
MAX_PAGE = 100


def _range(low: float, high: float) -> validate.Range:
    return validate.Range(min=low, max=high)


class TournamentCreateSchema(ma.Schema):
    """Body of ``POST /v1/tournaments``: the terms (checked again by the service, 422 ``bad_terms``)."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=bounds.NAME_MAX))
    format = enum_field("TournamentFormat", [f.value for f in Format], metadata={"description": FORMAT_DOC})
    players = WholeNumber(load_default=4, validate=_range(bounds.PLAYERS_MIN, bounds.PLAYERS_MAX))
    preset = enum_field("Preset", PRESET_NAMES, required=False, load_default="standard")
    hands = WholeNumber(load_default=1, validate=_range(bounds.HANDS_MIN, bounds.HANDS_MAX))
    turn_seconds = WholeNumber(load_default=30, validate=_range(bounds.TURN_SECONDS_MIN, bounds.TURN_SECONDS_MAX))
    starts_at = fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={"description": "RFC 3339; null (the default): the tournament starts when `max_entrants` joined"},
    )
    min_entrants = WholeNumber(load_default=None, metadata={"description": "Default: `players`"})
    max_entrants = WholeNumber(load_default=None, metadata={"description": "Default: `min_entrants`"})
    rated = Flag(load_default=False)
    bots = Flag(load_default=True, metadata={"description": "Whether bot accounts may enter (shown as bots)"})
    rounds = WholeNumber(load_default=None, metadata={"description": f"Swiss only. {FORMAT_NEEDS}"})
    window_s = fields.Float(load_default=None, metadata={"description": "Arena only: the window in seconds"})
    deals = WholeNumber(load_default=None, metadata={"description": "Duplicate only: the deal set's size"})

    @post_load
    def terms(self, data: dict[str, Any], **_: Any) -> Terms:
        """The terms as the service takes them."""
        starts = data["starts_at"]
        low = data["min_entrants"] if data["min_entrants"] is not None else data["players"]
        high = data["max_entrants"] if data["max_entrants"] is not None else low
        return Terms(
            name=data["name"],
            format=Format(data["format"]),
            players=data["players"],
            preset=data["preset"],
            hands=data["hands"],
            turn_seconds=data["turn_seconds"],
            starts_at=None if starts is None else starts.timestamp(),
            min_entrants=low,
            max_entrants=high,
            rated=data["rated"],
            bots=data["bots"],
            rounds=data["rounds"],
            window_s=data["window_s"],
            deals=data["deals"],
        )


class TournamentTermsSchema(AnswerSchema):
    """A tournament's terms as its creator chose them."""

    name = fields.String(required=True)
    format = enum_field("TournamentFormat", [f.value for f in Format])
    players = fields.Integer(required=True)
    preset = fields.String(required=True)
    hands = fields.Integer(required=True)
    turn_seconds = fields.Integer(required=True)
    starts_at = Time(required=True, allow_none=True, metadata=TIME | {"description": "null: when full"})
    min_entrants = fields.Integer(required=True)
    max_entrants = fields.Integer(required=True)
    rated = fields.Boolean(required=True)
    bots = fields.Boolean(required=True, metadata={"description": "Bot accounts may enter"})
    rounds = fields.Integer(required=True, allow_none=True)
    window_s = fields.Float(required=True, allow_none=True)
    deals = fields.Integer(required=True, allow_none=True)


class TournamentListQuerySchema(ma.Schema):
    """Query of ``GET /v1/tournaments``."""

    status = enum_field(
        "TournamentStatus",
        TOURNAMENT_STATUSES,
        required=False,
        load_default="open",
        metadata={"description": "`open` (upcoming, soonest first), `running`, `finished`, `cancelled` (newest first)"},
    )
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={"description": "`next_cursor`"})
    limit = fields.Integer(load_default=20, validate=_range(1, MAX_PAGE))


class TournamentSummarySchema(AnswerSchema):
    """A tournament in a list."""

    tournament_id = fields.String(required=True)
    name = fields.String(required=True)
    format = enum_field("TournamentFormat", [f.value for f in Format])
    status = enum_field("TournamentStatus", TOURNAMENT_STATUSES)
    players = fields.Integer(required=True)
    entrants = fields.Integer(required=True, metadata={"description": "How many entered (and did not withdraw)"})
    max_entrants = fields.Integer(required=True)
    starts_at = Time(required=True, allow_none=True, metadata=TIME)
    rated = fields.Boolean(required=True)
    bots = fields.Boolean(required=True)
    creator = fields.String(required=True, metadata={"description": "The creator's name"})
    entered = fields.Boolean(
        required=True, metadata={"description": "With a token: whether you entered it (and did not withdraw)"}
    )


class TournamentPageSchema(AnswerSchema):
    """Answer of ``GET /v1/tournaments``."""

    tournaments = fields.List(fields.Nested(TournamentSummarySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True, metadata={"description": "null at the end"})


class TournamentEntrantSchema(AnswerSchema):
    """An entrant; every bot account marked ``bot``."""

    name = fields.String(required=True)
    bot = fields.Boolean(required=True)
    number = fields.Integer(required=True, metadata={"description": "Join order, from 1"})
    rating = fields.Integer(required=True, metadata={"description": "Its rating at the table size when it joined"})
    withdrawn = fields.Boolean(required=True)


class TournamentSitterSchema(AnswerSchema):
    """Who sits at a seat of a table."""

    name = fields.String(required=True)
    bot = fields.Boolean(required=True, metadata={"description": "A bot (a bot account, or a house bot)"})
    house = fields.Boolean(required=True, metadata={"description": "A house bot filling a seat (a bye), no entrant"})


class TournamentTableSchema(AnswerSchema):
    """A table of a round."""

    number = fields.Integer(required=True)
    match_id = fields.String(required=True, metadata={"description": "Watch it, or replay it once ended"})
    sitters = fields.List(fields.Nested(TournamentSitterSchema), required=True, metadata={"description": "By seat"})
    deals = fields.List(fields.Integer(), required=True, allow_none=True, metadata={"description": "Duplicate"})
    ended = fields.Boolean(required=True)


class TournamentRoundSchema(AnswerSchema):
    """A round and its tables (arena: round 0 holds every table)."""

    number = fields.Integer(required=True)
    seated = fields.Boolean(required=True)
    tables = fields.List(fields.Nested(TournamentTableSchema), required=True)


class TournamentSeatSchema(AnswerSchema):
    """The caller's table still playing."""

    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    match_id = fields.String(required=True)
    seat = fields.Integer(required=True)


class TournamentSchema(AnswerSchema):
    """A tournament."""

    tournament_id = fields.String(required=True)
    terms = fields.Nested(TournamentTermsSchema, required=True)
    status = enum_field("TournamentStatus", TOURNAMENT_STATUSES)
    creator = fields.String(required=True)
    created_at = Time(required=True, metadata=TIME)
    started_at = Time(required=True, allow_none=True, metadata=TIME)
    ended_at = Time(required=True, allow_none=True, metadata=TIME)
    entrants = fields.List(fields.Nested(TournamentEntrantSchema), required=True)
    rounds = fields.List(fields.Nested(TournamentRoundSchema), required=True)
    you = fields.Nested(
        TournamentSeatSchema, required=True, allow_none=True, metadata={"description": "With a token: your table now"}
    )
    entered = fields.Boolean(required=True, metadata={"description": "With a token: whether you entered"})
    deal_commitment = fields.String(required=True, metadata={"description": "SHA-256 (hex) of the deal secret"})
    deal_secret = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Once over: the secret (hex); round r's seed is sha256(secret bytes + r) (docs)"},
    )


class TournamentStandingSchema(AnswerSchema):
    """An entrant's line in the standings."""

    rank = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.Boolean(required=True)
    score = fields.Float(required=True)
    tiebreaks = fields.List(fields.Float(), required=True, metadata={"description": "In order (see docs)"})
    matches = fields.Integer(required=True)
    firsts = fields.Integer(required=True)
    withdrawn = fields.Boolean(required=True)
    percent = fields.Float(required=True, allow_none=True, metadata={"description": "Duplicate: mean matchpoints %"})


class TournamentStandingsSchema(AnswerSchema):
    """Answer of ``GET /v1/tournaments/{id}/standings``."""

    tournament_id = fields.String(required=True)
    final = fields.Boolean(required=True)
    standings = fields.List(fields.Nested(TournamentStandingSchema), required=True)


EVENT_DOC = "\n".join(
    [
        "One event of a tournament's feed. By `type`, these fields are set (the others are absent):",
        *(f"- `{kind}`: {about}" for kind, (about, _fields) in TOURNAMENT_EVENTS.items()),
    ]
)


class TournamentEventSchema(AnswerSchema):
    """One event of a tournament's feed."""

    class Meta:
        """Its docs."""

        description = EVENT_DOC

    seq = fields.Integer(required=True)
    type = enum_field("TournamentEventType", list(TOURNAMENT_EVENTS))
    at = Time(required=True, metadata=TIME)
    name = fields.String()
    bot = fields.Boolean()
    entrants = fields.Integer()
    round = fields.Integer()
    tables = fields.Integer()
    table = fields.Integer()
    match_id = fields.String()
    winner = fields.String(allow_none=True)
    cause = enum_field("TournamentCancelCause", CANCEL_CAUSES, required=False)


class TournamentFeedSchema(AnswerSchema):
    """Answer of ``GET /v1/tournaments/{id}/events``."""

    events = fields.List(fields.Nested(TournamentEventSchema), required=True)
    last_seq = fields.Integer(required=True, metadata={"description": "The next `after`"})


class TournamentEventsQuerySchema(ma.Schema):
    """Query of ``GET /v1/tournaments/{id}/events``."""

    after = fields.Integer(load_default=0, validate=_range(0, MAX_INBOX_SEQ))
    wait = fields.Float(load_default=0, validate=_range(0, 30), metadata={"description": "Seconds (0 to 30)"})


class TournamentStreamQuerySchema(ma.Schema):
    """Query of ``GET /v1/tournaments/{id}/stream``."""

    after = fields.Integer(load_default=0, validate=_range(0, MAX_INBOX_SEQ))


class PlacingsQuerySchema(ma.Schema):
    """Query of ``GET /v1/players/{name}/tournaments``."""

    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class PlacingSchema(AnswerSchema):
    """Where the player finished a tournament."""

    tournament_id = fields.String(required=True, metadata={"description": "Its page: `GET /v1/tournaments/{id}`"})
    name = fields.String(required=True, metadata={"description": "The tournament's name"})
    format = enum_field("TournamentFormat", [f.value for f in Format])
    players = fields.Integer(required=True, metadata={"description": "Its table size"})
    entrants = fields.Integer(required=True, metadata={"description": "How many it ranked"})
    place = fields.Integer(required=True, metadata={"description": "The player's final rank, 1 = the winner"})
    score = fields.Float(required=True, metadata={"description": "The player's final score (the format's)"})
    ended_at = Time(required=True, metadata=TIME)


class PlayerTournamentsSchema(AnswerSchema):
    """Answer of ``GET /v1/players/{name}/tournaments``."""

    placings = fields.List(fields.Nested(PlacingSchema), required=True, metadata={"description": "Newest first"})
