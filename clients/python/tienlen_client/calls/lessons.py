"""The first lesson's calls: its steps, and the engine's verdict on an action in one (no token, nothing stored)."""

from __future__ import annotations

from typing import cast

from ..lessons import Lesson, LessonVerdict
from .base import BaseClient

__all__ = ["LessonCalls"]


class LessonCalls(BaseClient):
    """``/v1/lessons/first``."""

    def first_lesson(self) -> Lesson:
        """``GET /v1/lessons/first``: the first lesson's steps, each a position and its goal's key."""
        return cast(Lesson, self.request("GET", "/v1/lessons/first", expect=200))

    def try_lesson_step(self, number: int, cards: list[str] | None = None) -> LessonVerdict:
        """``POST /v1/lessons/first/steps/{number}``: play ``cards`` (or pass, with None) in a step (from 1).

        An illegal action is an answer (``legal`` false, the engine's ``reason``), not an error; 422
        ``invalid_request`` for a malformed action, 404 ``not_found`` for a step that does not exist. Nothing is
        stored, so sending it again is safe.
        """
        body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        return cast(LessonVerdict, self.request("POST", f"/v1/lessons/first/steps/{int(number)}", body, expect=200))
