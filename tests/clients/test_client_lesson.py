"""The Python client's first lesson: its steps, and the engine's verdict on an action in one (docs/api.md "The first
lesson"); the typed answers have the contract's fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tienlen_client import ApiError, Client, Lesson, LessonPosition, LessonStep, LessonVerdict

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.xdist_group("live_server")


def test_the_client_reads_the_lesson_and_tries_its_steps(live_server: str) -> None:
    """Rule: the steps come in order from 1; a right answer passes, an illegal one is an answer with the engine's
    reason (not an error), a step that does not exist is 404 not_found and a malformed action 422 invalid_request."""
    client = Client(live_server)
    lesson = client.first_lesson()
    assert [step["number"] for step in lesson["steps"]] == list(range(1, len(lesson["steps"]) + 1))
    beat = next(step for step in lesson["steps"] if step["id"] == "beat_single")
    assert beat["position"]["table"] == ["7H"]
    assert client.try_lesson_step(beat["number"], ["8C"]) == {
        "passed": True,
        "legal": True,
        "reason": None,
        "message": None,
    }
    refused = client.try_lesson_step(beat["number"], ["3D"])
    assert (refused["passed"], refused["legal"], refused["reason"]) == (False, False, "does_not_beat")
    assert client.try_lesson_step(beat["number"])["legal"] is True  # a pass: legal, not this step's goal
    with pytest.raises(ApiError) as missing:
        client.try_lesson_step(len(lesson["steps"]) + 1)
    assert (missing.value.status, missing.value.reason) == (404, "not_found")
    with pytest.raises(ApiError) as malformed:
        client.try_lesson_step(beat["number"], [])
    assert (malformed.value.status, malformed.value.reason) == (422, "invalid_request")


@pytest.mark.parametrize(
    ("typed", "schema"),
    [
        (Lesson, "Lesson"),
        (LessonStep, "LessonStep"),
        (LessonPosition, "LessonPosition"),
        (LessonVerdict, "LessonVerdict"),
    ],
)
def test_the_lesson_types_have_the_contracts_fields(typed: Any, schema: str) -> None:
    """Rule: each typed answer of the lesson's calls has exactly the fields the contract's schema has, all required."""
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    fields = contract["components"]["schemas"][schema]
    assert typed.__required_keys__ == set(fields["properties"]) == set(fields["required"])
