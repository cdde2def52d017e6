"""The answers of the first lesson's calls, as typed dictionaries (their JSON as it comes)."""

from __future__ import annotations

from typing import TypedDict

__all__ = ["Lesson", "LessonPosition", "LessonStep", "LessonVerdict"]


class LessonPosition(TypedDict):
    """What the learner sees in a step: its ``hand``, the play to beat on the ``table`` (empty: it leads), whether
    it already passed in this battle (``locked``), the card an opening lead must hold (``start_card``) and the
    rules ``preset``."""

    hand: list[str]
    table: list[str]
    locked: bool
    start_card: str | None
    preset: str


class LessonStep(TypedDict):
    """One step: its ``number`` (from 1), its ``id`` and its ``goal``'s key (the words' keys), its position."""

    number: int
    id: str
    position: LessonPosition
    goal: str


class Lesson(TypedDict):
    """``GET /v1/lessons/first``: the lesson's steps, in order."""

    id: str
    steps: list[LessonStep]


class LessonVerdict(TypedDict):
    """``POST /v1/lessons/first/steps/{n}``: whether the engine finds the action ``legal`` (else its ``reason``
    and its English ``message``), and whether it ``passed`` the step."""

    passed: bool
    legal: bool
    reason: str | None
    message: str | None
