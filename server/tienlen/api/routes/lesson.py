"""The first lesson: its steps, and the engine's verdict on an action in one (no account, nothing stored)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...engine.lesson import FIRST_LESSON, check
from ..schemas.lesson import LessonActionSchema, LessonSchema, LessonVerdictSchema, step_answer
from .common import Blueprint, errors

blp = Blueprint("lesson", __name__, url_prefix="/v1/lessons", description="The first lesson for a newcomer")

STEP = f"<int(min=1, max={len(FIRST_LESSON)}):number>"


@blp.route("/first")
class FirstLesson(MethodView):
    """The first lesson's steps."""

    @blp.response(200, LessonSchema)
    @blp.doc(operationId="get_first_lesson")
    def get(self) -> dict[str, Any]:
        """The steps of the first lesson, in order: each a position on real cards (the learner's hand, the play
        to beat, whether the learner already passed in this battle, the start card, the rules preset) and the key of
        its goal. The words are the client's (the web table's in English and Vietnamese)."""
        steps = [step_answer(number, step) for number, step in enumerate(FIRST_LESSON, start=1)]
        return {"id": "first", "steps": steps}


@blp.route(f"/first/steps/{STEP}")
class FirstLessonStep(MethodView):
    """An action tried in one step."""

    @blp.arguments(LessonActionSchema())
    @blp.response(200, LessonVerdictSchema)
    @blp.doc(operationId="try_first_lesson_step", responses=errors("invalid_request"))
    def post(self, action: dict[str, Any], number: int) -> dict[str, Any]:
        """The engine's verdict on a play or a pass in step `number` (from 1): `legal` by the one legal-play
        generator, with the engine's `reason` when not (an illegal action is a 200 with `legal` false, e.g. a 3
        that does not beat a 7; a malformed body is 422 `invalid_request`; a step that does not exist is 404
        `not_found`), and `passed` when it is legal and what the step asks for. Nothing is stored."""
        cards = action["cards"] if action["type"] == "play" else None
        verdict = check(FIRST_LESSON[number - 1], cards)
        return {"passed": verdict.passed, "legal": verdict.legal, "reason": verdict.reason, "message": verdict.message}
