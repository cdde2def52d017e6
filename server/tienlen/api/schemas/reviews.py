"""The answers of ``GET /v1/matches/{match_id}/review``: a review's progress (202) and the review (200)."""

from __future__ import annotations

from marshmallow import fields

from ...bots.review import GRADES, THRESHOLDS
from .common import CARD, enum_field
from .dumping import AnswerSchema

GRADE_TEXT = (
    "`forced` (one legal action: not graded), else by the loss: "
    + ", ".join(f"`{grade}` from {threshold}" for grade, threshold in reversed(THRESHOLDS))
    + ", `good` below"
)


class ReviewProgressSchema(AnswerSchema):
    """Actions reviewed so far, of all."""

    done = fields.Integer(required=True)
    total = fields.Integer(required=True, metadata={"description": "0 until a worker has started it"})


class ReviewPendingSchema(AnswerSchema):
    """A review not ready yet: queued (`pending`) or being computed (`running`)."""

    status = enum_field("ReviewStatus", ("pending", "running", "done"))
    progress = fields.Nested(ReviewProgressSchema, required=True)


class ReviewedActionSchema(AnswerSchema):
    """An action and its expected outcome over the sampled deals (null for a forced decision)."""

    type = enum_field("ReviewedActionType", ("play", "pass"))
    cards = fields.List(CARD, required=True, metadata={"description": "Empty for a pass"})
    first = fields.Float(required=True, allow_none=True, metadata={"description": "Expected first-place chance"})
    points = fields.Float(
        required=True, allow_none=True, metadata={"description": "Expected place points: players − 1 − place"}
    )


class ReviewDecisionSchema(AnswerSchema):
    """One decision of a seat, judged from what that seat could see then."""

    hand_number = fields.Integer(required=True)
    index = fields.Integer(required=True, metadata={"description": "The action's number in its hand, from 1"})
    seat = fields.Integer(required=True)
    grade = enum_field("ReviewGrade", GRADES, metadata={"description": GRADE_TEXT})
    loss = fields.Float(
        required=True,
        metadata={"description": "Best minus taken, of first-place chance + points / 20 (1 = a first place)"},
    )
    taken = fields.Nested(ReviewedActionSchema, required=True)
    best = fields.Nested(ReviewedActionSchema, required=True)
    deals = fields.Integer(required=True, metadata={"description": "Deals sampled (0 for a forced decision)"})
    explanation = fields.String(
        required=True, allow_none=True, metadata={"description": "Why the best action, in the hint's words"}
    )
    taken_explanation = fields.String(
        required=True, allow_none=True, metadata={"description": "What the taken action did, in the hint's words"}
    )


class ReviewSeatSchema(AnswerSchema):
    """A seat's decisions in order."""

    seat = fields.Integer(required=True)
    decisions = fields.List(fields.Nested(ReviewDecisionSchema), required=True)


class ReviewSchema(AnswerSchema):
    """A finished match's review."""

    match_id = fields.String(required=True)
    status = enum_field("ReviewStatus", ("pending", "running", "done"))
    progress = fields.Nested(ReviewProgressSchema, required=True)
    thresholds = fields.Dict(
        keys=fields.String(), values=fields.Float(), required=True, metadata={"description": GRADE_TEXT}
    )
    seats = fields.List(fields.Nested(ReviewSeatSchema), required=True)
