"""The first lesson (docs/api.md "The first lesson").

Rules checked: `GET /v1/lessons/first` lists every step declared in the engine's lesson, in order, with its position
and its goal's key; `POST /v1/lessons/first/steps/{n}` answers the engine's verdict: each step's right answer passes,
a wrong legal answer is legal and does not pass, an illegal one is `legal: false` with the engine's reason (never a
4xx); a malformed action is 422 `invalid_request` and a step that does not exist 404 `not_found`; no account needed,
nothing stored (the same action answers the same, and the store holds no key more).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.accounts import keys
from tienlen.engine.lesson import FIRST_LESSON

PLAY = "play"
PASS = None


def step_of(step_id: str) -> int:
    """The step's number (from 1) by its id."""
    return next(n for n, step in enumerate(FIRST_LESSON, start=1) if step.id == step_id)


def act(client: FlaskClient, number: int, cards: list[str] | None) -> Any:
    """Try a play (cards) or a pass (None) in step ``number``."""
    body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
    return client.post(f"/v1/lessons/first/steps/{number}", json=body)


# (step, action, passed, legal, reason): right answers, wrong legal answers, illegal ones with the engine's reason.
CASES: list[tuple[str, list[str] | None, bool, bool, str | None]] = [
    ("lead_single", ["9H"], True, True, None),
    ("lead_single", ["7S", "7D"], False, True, None),  # a pair: legal, not a single
    ("lead_single", PASS, False, False, "cannot_pass_on_lead"),
    ("beat_single", ["8C"], True, True, None),
    ("beat_single", ["KH"], True, True, None),
    ("beat_single", PASS, False, True, None),
    ("beat_single", ["3D"], False, False, "does_not_beat"),  # a 3 does not beat a 7
    ("beat_single", ["AS"], False, False, "cards_not_in_hand"),
    ("beat_single", ["ZZ"], False, False, "unknown_card"),
    ("beat_single", ["8C", "8c"], False, False, "duplicate_cards"),
    ("pair", ["9C", "9H"], True, True, None),
    ("pair", PASS, False, True, None),
    ("pair", ["5S", "5C"], False, False, "does_not_beat"),
    ("pair", ["9C"], False, False, "does_not_beat"),
    ("pair", ["9C", "JS"], False, False, "not_a_combination"),
    ("straight", ["4D", "5H", "6S"], True, True, None),
    ("straight", ["4D", "5H", "6S", "7C"], True, True, None),
    ("straight", ["9D"], False, True, None),
    ("straight", ["5H", "6S", "9D"], False, False, "not_a_combination"),
    ("pass_lock", PASS, True, True, None),
    ("pass_lock", ["JH"], False, False, "locked_bomb_only"),  # passed: only a bomb re-enters the battle
    ("bomb", ["6S", "6C", "6D", "6H"], True, True, None),
    ("bomb", PASS, False, True, None),
    ("bomb", ["9H"], False, False, "does_not_beat"),
    ("start_card", ["3S"], True, True, None),
    ("start_card", ["3S", "3C"], True, True, None),
    ("start_card", ["8S", "8H"], False, False, "must_include_start_card"),
]


@pytest.mark.parametrize(("step", "cards", "passed", "legal", "reason"), CASES)
def test_each_step_passes_its_right_answer_only_and_says_why_an_action_is_illegal(
    client: FlaskClient, step: str, cards: list[str] | None, passed: bool, legal: bool, reason: str | None
) -> None:
    """The engine's verdict: legal by the one generator, the reason when not, passed when it meets the goal."""
    answer = act(client, step_of(step), cards)
    assert answer.status_code == 200, answer.get_json()
    verdict = answer.get_json()
    assert (verdict["passed"], verdict["legal"], verdict["reason"]) == (passed, legal, reason)
    assert (verdict["message"] is None) == legal


def test_every_step_has_a_right_answer_in_the_table() -> None:
    """No step is left without a case that passes it."""
    assert {step for step, _c, passed, *_ in CASES if passed} == {step.id for step in FIRST_LESSON}


def test_the_lesson_lists_every_step_with_its_position_and_goal(client: FlaskClient) -> None:
    """The steps as declared once in the engine's lesson, numbered from 1."""
    answer = client.get("/v1/lessons/first")
    assert answer.status_code == 200
    lesson = answer.get_json()
    assert lesson["id"] == "first"
    assert [s["id"] for s in lesson["steps"]] == [s.id for s in FIRST_LESSON]
    assert [s["number"] for s in lesson["steps"]] == list(range(1, len(FIRST_LESSON) + 1))
    by_id = {s["id"]: s for s in lesson["steps"]}
    assert by_id["beat_single"]["position"] == {
        "hand": ["3D", "5S", "8C", "JD", "KH"],
        "table": ["7H"],
        "locked": False,
        "start_card": None,
        "preset": "standard",
    }
    assert by_id["pass_lock"]["position"]["locked"] is True
    assert by_id["start_card"]["position"]["start_card"] == "3S"
    assert [s["goal"] for s in lesson["steps"]] == [s.goal.key for s in FIRST_LESSON]


# Malformed actions: 422 invalid_request (unlike an illegal one, which is a 200 verdict).
MALFORMED: list[tuple[str, Any]] = [
    ("no type", {"cards": ["8C"]}),
    ("unknown type", {"type": "bomb", "cards": ["8C"]}),
    ("play without cards", {"type": "play"}),
    ("play of no card", {"type": "play", "cards": []}),
    ("cards not a list", {"type": "play", "cards": "8C"}),
    ("a card not a string", {"type": "play", "cards": [8]}),
    ("a card too long", {"type": "play", "cards": ["8C" * 5]}),
    ("pass with cards", {"type": "pass", "cards": ["8C"]}),
    ("unknown field", {"type": "pass", "seat": 1}),
    ("not an object", ["pass"]),
]


@pytest.mark.parametrize(("case", "body"), MALFORMED, ids=[c for c, _ in MALFORMED])
def test_a_malformed_action_is_refused_with_invalid_request(client: FlaskClient, case: str, body: Any) -> None:
    """A badly formed body is 422 invalid_request, in the one error shape."""
    answer = client.post(f"/v1/lessons/first/steps/{step_of('beat_single')}", json=body)
    assert answer.status_code == 422, case
    error = answer.get_json()
    assert error["reason"] == "invalid_request" and error["code"] == 422


@pytest.mark.parametrize("path", ["0", str(len(FIRST_LESSON) + 1), "-1", "one", "99999999999999999999"])
def test_a_step_that_does_not_exist_is_not_found(client: FlaskClient, path: str) -> None:
    """Steps are numbered 1 to the last; any other is 404 not_found."""
    answer = client.post(f"/v1/lessons/first/steps/{path}", json={"type": "pass"})
    assert answer.status_code == 404
    assert answer.get_json()["reason"] == "not_found"


def test_the_lesson_stores_nothing_and_takes_no_account(client: FlaskClient, db: Any) -> None:
    """No token is asked for; trying actions writes no key and answers alike each time."""
    before = keys(db)
    first = [act(client, n, None).get_json() for n in range(1, len(FIRST_LESSON) + 1)]
    again = [act(client, n, ["3S"]).get_json() for n in range(1, len(FIRST_LESSON) + 1)]
    assert [act(client, n, None).get_json() for n in range(1, len(FIRST_LESSON) + 1)] == first
    assert len(again) == len(FIRST_LESSON)
    assert keys(db) == before
