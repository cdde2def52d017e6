"""The requests and answers of puzzles (``/v1/puzzles``, ``/v1/me/puzzles``)."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, post_load, validate

from ...engine import PRESET_NAMES
from ...service.commands import Action, Pass, Play
from ...service.errors import InvalidRequest
from ...service.puzzles import RESULTS
from .common import Cards, WholeNumber, enum_field
from .dumping import AnswerSchema

ACTION_TYPES = ("play", "pass")
PUZZLE_RATING = {"description": "The puzzle rating as one number (openskill's ordinal, scaled; 1500 to start)"}


class PuzzleActionSchema(AnswerSchema):
    """A move: a play with its cards, or a pass."""

    type = enum_field("PuzzleActionType", ACTION_TYPES, required=True)
    cards = Cards(required=True, metadata={"description": "The cards played, low to high; empty for a pass"})


class PuzzleTableSchema(AnswerSchema):
    """The battle on the table."""

    cards = Cards(required=True, metadata={"description": "The play to beat"})
    seat = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that played it (it may be a seat already out)"},
    )


class PuzzleSchema(AnswerSchema):
    """A puzzle's starting position, as the solver's seat sees it: everything (perfect information)."""

    id = fields.String(required=True, metadata={"description": "The puzzle's id (a digest of its position)"})
    preset = enum_field("PuzzlePreset", PRESET_NAMES, required=True, metadata={"description": "The rules preset"})
    seat = fields.Integer(required=True, metadata={"description": "The solver's seat (of 4): on turn"})
    hand = Cards(required=True, metadata={"description": "The solver's cards"})
    opponent_seat = fields.Integer(required=True, metadata={"description": "The other seat still holding cards"})
    opponent = Cards(
        required=True,
        metadata={
            "description": "The opponent's cards, shown: only two seats hold cards, so every card the solver has "
            "not seen is the opponent's (perfect information by construction)"
        },
    )
    opponent_count = fields.Integer(required=True, metadata={"description": "The opponent's card count"})
    table = fields.Nested(
        PuzzleTableSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The battle on the table ({cards, seat}); null: the solver leads"},
    )
    locked = fields.List(fields.Integer(), required=True, metadata={"description": "Seats locked out by a pass"})
    out = fields.List(fields.Integer(), required=True, metadata={"description": "Seats already out"})
    moves = fields.Integer(required=True, metadata={"description": "The solver's moves in the solution"})
    choices = fields.Integer(required=True, metadata={"description": "The solver's legal first actions"})
    difficulty = fields.Integer(required=True, metadata={"description": "moves x choices"})
    rating = fields.Integer(required=True, metadata=PUZZLE_RATING)


class PuzzleMoveSchema(ma.Schema):
    """Body of ``POST /v1/puzzles/{puzzle_id}/moves``: the solver's move number ``step`` (from 0) and the action."""

    step = WholeNumber(
        required=True,
        validate=validate.Range(min=0, max=100),
        metadata={"description": "Which of the solver's moves this answers, from 0 (each answer says the next)"},
    )
    type = enum_field("PuzzleMoveType", ACTION_TYPES, required=True)
    cards = fields.List(
        fields.String(validate=validate.Length(max=8)),
        load_default=list,
        validate=validate.Length(max=52),
        metadata={"description": 'The cards played (at least one for a play; none for a pass), e.g. ["3S"]'},
    )

    @post_load
    def command(self, data: dict[str, Any], **_: Any) -> tuple[int, Action]:
        """The step and the action as the service takes them."""
        if data["type"] == "pass":
            if data["cards"]:
                raise InvalidRequest("a pass carries no cards", errors={"cards": ["must be empty for a pass"]})
            return data["step"], Pass()
        if not data["cards"]:
            raise InvalidRequest("a play needs its cards", errors={"cards": ["at least one card"]})
        return data["step"], Play.of(data["cards"])


class PuzzleMoveAnswerSchema(AnswerSchema):
    """Answer of a move."""

    result = enum_field(
        "PuzzleResult",
        RESULTS,
        required=True,
        metadata={"description": "`correct`: go on at `next_step`; `solved`; `wrong`: the attempt is over"},
    )
    replies = fields.List(
        fields.Nested(PuzzleActionSchema),
        required=True,
        metadata={"description": "The opponent's replies by the solution (after a correct move), in order"},
    )
    answer = fields.Nested(
        PuzzleActionSchema, required=True, allow_none=True, metadata={"description": "The right move (when wrong)"}
    )
    next_step = fields.Integer(required=True, allow_none=True, metadata={"description": "The next step, or null"})
    rating = fields.Integer(
        required=True,
        allow_none=True,
        metadata=PUZZLE_RATING
        | {"description": "The account's puzzle rating once decided; null: anonymous or going on"},
    )


class PuzzleStatsSchema(AnswerSchema):
    """Answer of ``GET /v1/me/puzzles``."""

    rating = fields.Integer(required=True, metadata=PUZZLE_RATING)
    provisional = fields.Boolean(required=True, metadata={"description": "Fewer than 10 decided attempts"})
    attempts = fields.Integer(required=True, metadata={"description": "Puzzles attempted"})
    solved = fields.Integer(required=True, metadata={"description": "Attempts solved"})
    failed = fields.Integer(required=True, metadata={"description": "Attempts ended by a wrong move"})
    open = fields.Integer(required=True, metadata={"description": "Attempts begun and not decided"})
