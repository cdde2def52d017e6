"""The first lesson's answers and its action: the steps, and the engine's verdict on an action in one."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from marshmallow import fields, validate

from ...engine import PRESET_NAMES
from ...engine.lesson import Step
from .common import CARD, OneOfSchema, Tag, enum_field
from .dumping import AnswerSchema


class LessonPositionSchema(AnswerSchema):
    """What the learner sees in a step."""

    hand = fields.List(CARD, required=True, metadata={"description": "The learner's cards, low to high"})
    table = fields.List(
        CARD, required=True, metadata={"description": "The play to beat on the table; empty when the learner leads"}
    )
    locked = fields.Boolean(
        required=True,
        metadata={"description": "Whether the learner already passed in this battle (then only a bomb re-enters)"},
    )
    start_card = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The card an opening lead must hold (the lowest card dealt), or null"},
    )
    preset = enum_field("Preset", PRESET_NAMES)


class LessonStepSchema(AnswerSchema):
    """One step: its number (from 1), its id (the key of its words), the position and the goal's key."""

    number = fields.Integer(required=True, metadata={"example": 1})
    id = fields.String(required=True, metadata={"example": "lead_single"})
    position = fields.Nested(LessonPositionSchema, required=True)
    goal = fields.String(
        required=True,
        attribute="goal.key",
        metadata={"description": "The key of the goal's words (what passes the step)", "example": "lead_a_single"},
    )


class LessonSchema(AnswerSchema):
    """The first lesson: its steps, in order."""

    id = fields.String(required=True, metadata={"example": "first"})
    steps = fields.List(fields.Nested(LessonStepSchema), required=True)


class LessonVerdictSchema(AnswerSchema):
    """The engine's verdict on an action in a step."""

    passed = fields.Boolean(required=True, metadata={"description": "Legal, and what the step asks for"})
    legal = fields.Boolean(required=True, metadata={"description": "Whether the engine accepts the action there"})
    reason = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "The engine's refusal reason when not legal (e.g. `does_not_beat`, `locked_bomb_only`, "
            "`unknown_card`), else null",
            "example": "does_not_beat",
        },
    )
    message = fields.String(
        required=True, allow_none=True, metadata={"description": "The refusal in English words, else null"}
    )


class LessonPlaySchema(ma.Schema):
    """Play cards in the step."""

    type = Tag("play")
    cards = fields.List(
        fields.String(validate=validate.Length(max=8)),
        required=True,
        validate=validate.Length(min=1, max=52),
        metadata={"description": 'The cards played, at least one (else 422 invalid_request), e.g. ["8C"]'},
    )


class LessonPassSchema(ma.Schema):
    """Pass in the step."""

    type = Tag("pass")
    cards = fields.List(fields.String(), validate=validate.Length(max=0), metadata={"description": "Absent or empty"})


class LessonActionSchema(OneOfSchema):
    """A play (with its cards) or a pass in a step of the lesson, told apart by `type`."""

    discriminator = "type"
    choices = (LessonPlaySchema, LessonPassSchema)


def step_answer(number: int, step: Step) -> dict[str, Any]:
    """A step as :class:`LessonStepSchema` writes it."""
    return {"number": number, "id": step.id, "position": step.position, "goal": step.goal}
