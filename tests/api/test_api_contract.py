"""The v1 contract: every reason, priority of reasons, joins, tokens, events, OpenAPI."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from marshmallow import Schema
from werkzeug.test import TestResponse

from tests.support.api import Api, json_object
from tienlen.api import create_app, openapi_document
from tienlen.api.errors import DEFAULT_REASONS, REASON_STATUS, REASONS
from tienlen.api.services import services_of
from tienlen.bots import LEVELS
from tienlen.engine import REFUSAL_REASONS
from tienlen.service import ServiceError

ROOT = Path(__file__).resolve().parents[2]

# Seat 0 holds 3S and leads; seat 1 holds a single 2 and two bombs' worth of pairs.
DEAL = [
    ["3S", "4S", "5S", "6S", "9H"],
    ["3C", "3D", "4C", "4D", "5C", "5D", "2H"],
    ["7S", "7C", "8S", "2S"],
    ["QS", "QC", "QD", "QH", "KS"],
]


def reason(response: TestResponse) -> str:
    """The machine-readable reason of an error answer, checking its shape."""
    body = json_object(response)
    assert set(body) >= {"code", "status", "message", "reason"}, body
    assert body["code"] == response.status_code
    return str(body["reason"])


def four_remote(api: Api, **extra: object) -> tuple[str, list[str]]:
    created = api.create(seats=[{"name": n} for n in "ABCD"], **extra)
    return created["match_id"], [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]


def test_create_answers_tokens_for_named_remote_seats_only(api: Api) -> None:
    created = api.create(seats=[{"name": "Ann"}, {"name": "Bo", "bot": "easy"}, {"open": True}, {"name": "Di"}])
    assert [t["seat"] for t in created["tokens"]] == [0, 3]
    assert all(len(t["token"]) >= 22 for t in created["tokens"])
    match = created["match"]
    assert match["status"] == "waiting" and match["hand_number"] == 0 and match["turn"] is None
    assert [s["open"] for s in match["seats"]] == [False, False, True, False]
    assert match["rules"]["players"] == 4 and match["rules"]["preset"] == "standard"


@pytest.mark.parametrize(
    "seats",
    [
        [{"name": "Ann"}, {"name": "Bo", "bot": "easy"}, {"open": True}, {"name": "Di", "open": False}],
        [
            {"type": "remote", "name": "Ann"},
            {"type": "bot", "name": "Bo", "bot": "easy"},
            {"type": "open", "open": True},
            {"type": "remote", "name": "Di", "open": False},
        ],
    ],
    ids=["told by their fields", "told by type"],
)
def test_a_seat_may_say_its_kind_in_type_and_bodies_without_it_stay_valid(api: Api, seats: list[Any]) -> None:
    created = api.create(seats=seats)
    assert [t["seat"] for t in created["tokens"]] == [0, 3]
    shown = [(s["name"], s["bot"], s["open"]) for s in created["match"]["seats"]]
    assert shown == [("Ann", None, False), ("Bo", "easy", False), (None, None, True), ("Di", None, False)]


def test_join_fills_lowest_open_seat_and_deals_when_last_fills(api: Api, client: FlaskClient) -> None:
    created = api.create(seats=[{"name": "Ann"}, {"open": True}, {"open": True}])
    match_id = created["match_id"]
    first = client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo"})
    assert first.status_code == 201 and json_object(first)["seat"] == 1
    assert api.public(match_id)["status"] == "waiting"
    second = client.post(f"/v1/matches/{match_id}/join", json={"name": "Cy"})
    assert second.status_code == 201 and json_object(second)["seat"] == 2
    match = api.public(match_id)
    assert match["status"] == "playing" and match["hand_number"] == 1
    assert [s["cards_left"] for s in match["seats"]] == [13, 13, 13]
    assert api.view(match_id, json_object(second)["token"])["seat"] == 2
    full = client.post(f"/v1/matches/{match_id}/join", json={"name": "Late"})
    assert full.status_code == 409 and reason(full) == "match_full"
    events = json_object(client.get(f"/v1/matches/{match_id}/events"))["events"]
    assert [e["type"] for e in events[:3]] == ["seat_joined", "seat_joined", "hand_started"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_token_is_valid_for_its_own_match_and_seat_only(api: Api, client: FlaskClient) -> None:
    match_a, tokens_a = four_remote(api, deal=DEAL)
    match_b, _ = four_remote(api, deal=DEAL)
    assert api.view(match_a, tokens_a[2])["seat"] == 2
    wrong = client.get(f"/v1/matches/{match_b}/view", headers=api.auth(tokens_a[0]))
    assert wrong.status_code == 401 and reason(wrong) == "invalid_token"
    for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": f"Basic {tokens_a[0]}"}):
        missing = client.get(f"/v1/matches/{match_a}/legal", headers=headers)
        assert missing.status_code == 401 and reason(missing) == "invalid_token"


def test_view_shows_own_cards_sorted_and_public_shows_none(api: Api) -> None:
    match_id, tokens = four_remote(api, deal=[list(reversed(h)) for h in DEAL])
    view = api.view(match_id, tokens[1])
    assert view["cards"] == ["3C", "3D", "4C", "4D", "5C", "5D", "2H"]
    public = api.public(match_id)
    assert "cards" not in public and "seat" not in public
    assert public["turn"] == 0 and public["leading"] is True and "start_card" not in public
    assert api.view(match_id, tokens[0])["start_card"] == "3S"
    assert view["start_card"] is None


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"type": "play", "cards": ["3X"]}, "unknown_card"),
        ({"type": "play", "cards": ["3S", "3s"]}, "duplicate_cards"),
        ({"type": "play", "cards": ["3S", "3C"]}, "cards_not_in_hand"),
        ({"type": "play", "cards": ["3S", "5S"]}, "not_a_combination"),
        ({"type": "play", "cards": ["4S"]}, "must_include_start_card"),
        ({"type": "pass"}, "cannot_pass_on_lead"),
        ({"type": "play", "cards": ["3Z", "3S", "3S"]}, "unknown_card"),
        ({"type": "play", "cards": ["3S", "3S", "QH"]}, "duplicate_cards"),
        ({"type": "play", "cards": ["QH", "4S"]}, "cards_not_in_hand"),
    ],
)
def test_rule_refusals_on_the_opening_lead(api: Api, body: dict[str, Any], expected: str) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    before = api.public(match_id)
    response = api.act(match_id, tokens[0], body)
    assert response.status_code == 422 and reason(response) == expected
    assert api.public(match_id) == before, "a refused action changes nothing"


def test_does_not_beat_and_locked_bomb_only(api: Api) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    assert api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}).status_code == 200
    pair = api.act(match_id, tokens[1], {"type": "play", "cards": ["4C", "4D"]})
    assert pair.status_code == 422 and reason(pair) == "does_not_beat"
    assert api.act(match_id, tokens[1], {"type": "pass"}).status_code == 200
    assert api.act(match_id, tokens[2], {"type": "play", "cards": ["2S"]}).status_code == 200
    low = api.act(match_id, tokens[3], {"type": "play", "cards": ["KS"]})
    assert low.status_code == 422 and reason(low) == "does_not_beat"
    # Seat 3 passes; seat 0 passes; seat 1 is locked but offered a bomb re-entry on the single 2.
    assert api.act(match_id, tokens[3], {"type": "pass"}).status_code == 200
    assert api.act(match_id, tokens[0], {"type": "pass"}).status_code == 200
    state = api.public(match_id)
    assert state["turn"] == 1 and state["reentry"] is True and state["seats"][1]["passed"] is True
    higher = api.act(match_id, tokens[1], {"type": "play", "cards": ["2H"]})
    assert higher.status_code == 422 and reason(higher) == "locked_bomb_only"
    legal = api.legal(match_id, tokens[1])
    assert legal["can_pass"] is True
    assert legal["plays"] == [{"cards": ["3C", "3D", "4C", "4D", "5C", "5D"], "kind": "consecutive_pairs"}]
    bomb = api.act(match_id, tokens[1], {"type": "play", "cards": ["3C", "3D", "4C", "4D", "5C", "5D"]})
    assert bomb.status_code == 200
    assert json_object(bomb)["seats"][1]["passed"] is False


def test_match_not_playing_while_waiting_and_after_the_end(api: Api, client: FlaskClient) -> None:
    created = api.create(seats=[{"name": "Ann"}, {"open": True}])
    token = created["tokens"][0]["token"]
    waiting = api.act(created["match_id"], token, {"type": "pass"})
    assert waiting.status_code == 409 and reason(waiting) == "match_not_playing"
    hint = client.get(f"/v1/matches/{created['match_id']}/hint", headers=api.auth(token))
    assert hint.status_code == 409 and reason(hint) == "match_not_playing"
    # A one-card deal ends a quick match at the first play.
    quick = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"preset": "ladder"}, deal=[["3S"], ["4S", "5S"]])
    match_id = quick["match_id"]
    tokens = [t["token"] for t in quick["tokens"]]
    done = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]})
    ended = json_object(done)
    assert done.status_code == 200 and ended["status"] == "finished" and ended["winner"] == 0
    assert ended["seats"][0]["place"] == 1 and ended["seats"][1]["place"] == 2
    after = api.act(match_id, tokens[1], {"type": "play", "cards": ["4S"]})
    assert after.status_code == 409 and reason(after) == "match_not_playing"


def test_reason_priority_token_then_state_then_turn_then_version_then_cards(api: Api) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    assert reason(api.act(match_id, "nope", {"type": "play", "cards": ["ZZ"]})) == "invalid_token"
    not_turn = api.act(match_id, tokens[1], {"type": "play", "cards": ["ZZ"], "version": 99})
    assert not_turn.status_code == 409 and reason(not_turn) == "not_your_turn"
    stale = api.act(match_id, tokens[0], {"type": "play", "cards": ["ZZ"], "version": 99})
    assert stale.status_code == 409 and reason(stale) == "stale_version"
    assert reason(api.act(match_id, tokens[0], {"type": "play", "cards": ["ZZ", "3S", "3S"]})) == "unknown_card"
    current = api.public(match_id)["version"]
    ok = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"], "version": current})
    assert ok.status_code == 200 and json_object(ok)["version"] == current + 1


def test_hint_for_the_seat_on_turn_only(api: Api, client: FlaskClient) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    answer = client.get(f"/v1/matches/{match_id}/hint", headers=api.auth(tokens[0]))
    assert answer.status_code == 200
    hinted = json_object(answer)
    action = hinted["action"]
    assert action["type"] == "play" and "3S" in action["cards"]
    assert hinted["explanation"] and "3S" in hinted["explanation"]
    assert api.act(match_id, tokens[0], action).status_code == 200
    # A hint's action is a valid action body as it stands, a pass included.
    assert api.act(match_id, tokens[1], {"type": "pass", "cards": []}).status_code == 200
    other = client.get(f"/v1/matches/{match_id}/hint", headers=api.auth(tokens[0]))
    assert other.status_code == 409 and reason(other) == "not_your_turn"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"seats": [{"name": "A"}]},
        {"seats": [{"name": "A"}] * 5},
        {"seats": [{"name": "A"}, {"name": "B", "bot": "genius"}]},
        {"seats": [{"name": "A"}, {"open": True, "name": "B"}]},
        {"seats": [{"name": "A"}, {}]},
        {"seats": [{"name": "A", "bot": "easy"}, {"name": "B", "bot": "hard"}]},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"preset": "blitz"}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"bombs": "nuclear"}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"scoring": "none", "hands": 4}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"hands": 0}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"players": 3}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"surprise": True}},
        {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"start_card_rule": "yes"}},
        {"seats": [{"name": "A"}, {"name": "B"}], "seed": "x"},
        {"seats": [{"name": "A"}, {"name": "B"}], "deal": [["3S"], ["3S"]]},
        {"seats": [{"name": "A"}, {"name": "B"}], "deal": [["3S"]]},
        {"seats": [{"name": "A"}, {"name": "B"}], "deal": [["3S"], []]},
        {"seats": [{"name": "A"}, {"name": "B"}], "deal": [["3S"], ["1Z"]]},
        {"seats": [{"name": "A"}, {"name": "B"}], "deal": [["3S", "3S"], ["4S"]]},
        {"seats": [{"name": "A"}, {"name": "B"}], "extra": 1},
        # A seat's fair-deal entropy is 0 to 64 printable ASCII characters, and only a remote seat gives one.
        {"seats": [{"name": "A", "entropy": "x" * 65}, {"name": "B"}]},
        {"seats": [{"name": "A", "entropy": "line\n"}, {"name": "B"}]},
        {"seats": [{"name": "A", "entropy": "tab\there"}, {"name": "B"}]},
        {"seats": [{"name": "A", "entropy": "caf\u00e9"}, {"name": "B"}]},
        {"seats": [{"name": "A", "entropy": 7}, {"name": "B"}]},
        {"seats": [{"name": "A", "entropy": None}, {"name": "B"}]},
        {"seats": [{"name": "A"}, {"name": "B", "bot": "easy", "entropy": "x"}]},
        {"seats": [{"name": "A"}, {"open": True, "entropy": "x"}]},
        # A seat's type, when given, picks its case, whose fields must then fit it.
        {"seats": [{"name": "A"}, {"type": "bot", "name": "B"}]},
        {"seats": [{"name": "A"}, {"type": "remote", "name": "B", "bot": "easy"}]},
        {"seats": [{"name": "A"}, {"type": "remote", "name": "B", "open": True}]},
        {"seats": [{"name": "A"}, {"type": "open", "name": "B", "open": True}]},
        {"seats": [{"name": "A"}, {"type": "open"}]},
        {"seats": [{"name": "A"}, {"type": "human", "name": "B"}]},
        {"seats": [{"name": "A"}, {"type": None, "name": "B"}]},
        {"seats": [{"name": "A"}, {"type": ["bot"], "name": "B", "bot": "easy"}]},
    ],
)
def test_invalid_create_bodies_get_invalid_request(client: FlaskClient, body: dict[str, Any]) -> None:
    response = client.post("/v1/matches", json=body)
    assert response.status_code == 422 and reason(response) == "invalid_request", response.json


def test_names_must_be_unicode_text_a_lone_surrogate_is_invalid_request(api: Api, client: FlaskClient) -> None:
    # JSON may spell a lone surrogate ("\\ud800") that no UTF-8 answer could carry back.
    body = '{"seats": [{"name": "\\ud800A"}, {"name": "B"}]}'
    created = client.post("/v1/matches", data=body, content_type="application/json")
    assert created.status_code == 422 and reason(created) == "invalid_request", created.json
    assert "name" in json.dumps(json_object(created)["errors"])
    match_id = api.create(seats=[{"name": "A"}, {"open": True}])["match_id"]
    join = client.post(f"/v1/matches/{match_id}/join", data='{"name": "\\udfffB"}', content_type="application/json")
    assert join.status_code == 422 and reason(join) == "invalid_request", join.json
    assert api.public(match_id)["seats"][1]["open"] is True, "a refused join changes nothing"
    ok = client.post(f"/v1/matches/{match_id}/join", json={"name": "Tiến 🂡"})
    assert ok.status_code == 201 and api.public(match_id)["seats"][1]["name"] == "Tiến 🂡"


def test_invalid_rules_name_the_parameter(client: FlaskClient) -> None:
    response = client.post(
        "/v1/matches", json={"seats": [{"name": "A"}, {"name": "B"}], "rules": {"scoring": "none", "hands": 3}}
    )
    assert response.status_code == 422 and "hands" in json.dumps(json_object(response)["errors"])


@pytest.mark.parametrize(
    "body",
    [
        {"type": "fold"},
        {"type": "play"},
        {"type": "pass", "cards": ["3S"]},
        {"type": "play", "cards": "3S"},
        [],
        {"type": "play", "cards": []},  # a play needs a card (minItems 1): refused by the schema, not the rules
        {"type": {}},  # a discriminator that is not even a string
        {"type": ["play"]},
        {"cards": ["3S"]},
    ],
)
def test_invalid_action_bodies_get_invalid_request(api: Api, client: FlaskClient, body: object) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    response = client.post(f"/v1/matches/{match_id}/actions", json=body, headers=api.auth(tokens[0]))
    assert response.status_code == 422 and reason(response) == "invalid_request", response.json


def test_malformed_json_is_bad_request(api: Api, client: FlaskClient) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    response = client.post(
        f"/v1/matches/{match_id}/actions",
        data="{not json",
        content_type="application/json",
        headers=api.auth(tokens[0]),
    )
    assert response.status_code == 400 and reason(response) == "bad_request"
    created = client.post("/v1/matches", data="[", content_type="application/json")
    assert created.status_code == 400 and reason(created) == "bad_request"


def test_payload_too_large(client: FlaskClient) -> None:
    body = json.dumps({"seats": [{"name": "x" * 70000}, {"name": "B"}]})
    response = client.post("/v1/matches", data=body, content_type="application/json")
    assert response.status_code == 413 and reason(response) == "payload_too_large"


def test_unknown_match_is_match_not_found(api: Api, client: FlaskClient) -> None:
    for path in ("", "/events", "/view"):
        response = client.get(f"/v1/matches/0123456789abcdef0123{path}", headers=api.auth("x"))
        assert response.status_code == 404 and reason(response) == "match_not_found"
    join = client.post("/v1/matches/nope/join", json={"name": "A"})
    assert join.status_code == 404 and reason(join) == "match_not_found"
    action = api.act("nope", "x", {"type": "pass"})
    assert action.status_code == 404 and reason(action) == "match_not_found"


def test_unknown_route_is_json_404(client: FlaskClient) -> None:
    response = client.get("/v2/whatever")
    assert response.status_code == 404 and reason(response) == "not_found"


def test_wrong_method_is_405_with_the_allowed_methods(client: FlaskClient) -> None:
    response = client.put("/v1/rules")
    assert response.status_code == 405 and reason(response) == "method_not_allowed"
    assert response.headers["Content-Type"] == "application/json"
    assert set(response.headers["Allow"].replace(" ", "").split(",")) >= {"GET", "HEAD", "OPTIONS"}
    action = client.get("/v1/matches/0123456789abcdef0123/actions")
    assert action.status_code == 405 and "POST" in action.headers["Allow"]


def test_store_unavailable_when_redis_does_not_answer() -> None:
    dead = create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_LOG_LEVEL": "WARNING"}).test_client()
    health = dead.get("/healthz")
    assert health.status_code == 503 and reason(health) == "store_unavailable"
    created = dead.post("/v1/matches", json={"seats": [{"name": "A"}, {"name": "B"}]})
    assert created.status_code == 503 and reason(created) == "store_unavailable"
    read = dead.get("/v1/matches/0123456789abcdef0123")
    assert read.status_code == 503 and reason(read) == "store_unavailable"


def test_healthz_and_rules(client: FlaskClient) -> None:
    assert client.get("/healthz").json == {"status": "ok"}
    rules = json_object(client.get("/v1/rules"))
    assert rules["default_preset"] == "standard"
    assert rules["presets"]["classic"]["bombs"] == "classic" and rules["presets"]["classic"]["hands"] == 5
    assert rules["presets"]["ladder"]["scoring"] == "none"
    assert set(rules["parameters"]) == set(rules["presets"]["standard"]) - {"preset"}


def test_rules_list_every_bot_level_with_its_budget_on_this_server(client: FlaskClient) -> None:
    """Rule: /v1/rules lists the bot levels a seat may take, weakest first, each with what it does and the seconds
    a decision may take here: its effort times the server's bot budget (0.02 s in the tests), none for a level
    that does not search; Expert thinks five budgets, Master ten."""
    levels = json_object(client.get("/v1/rules"))["bot_levels"]
    assert [level["name"] for level in levels] == list(LEVELS) == ["easy", "medium", "hard", "expert", "master"]
    by_name = {level["name"]: level for level in levels}
    assert by_name["easy"]["effort"] == by_name["medium"]["effort"] == 0
    assert by_name["easy"]["budget_s"] is None and by_name["medium"]["budget_s"] is None
    assert by_name["hard"]["effort"] == 1 and by_name["hard"]["budget_s"] == pytest.approx(0.02)
    assert by_name["expert"]["effort"] == 5 and by_name["expert"]["budget_s"] == pytest.approx(0.1)
    assert by_name["master"]["effort"] == 10 and by_name["master"]["budget_s"] == pytest.approx(0.2)
    assert all(level["about"] for level in levels)


def test_events_are_public_numbered_and_paged(api: Api, client: FlaskClient) -> None:
    match_id, tokens = four_remote(api, deal=DEAL)
    api.act(match_id, tokens[0], {"type": "play", "cards": ["3S", "4S", "5S"]})
    api.act(match_id, tokens[1], {"type": "pass"})
    page = json_object(client.get(f"/v1/matches/{match_id}/events?after=0"))
    types = [e["type"] for e in page["events"]]
    assert types == ["hand_started", "played", "passed"]
    assert page["events"][1] == {
        "seq": 2,
        "type": "played",
        "seat": 0,
        "cards": ["3S", "4S", "5S"],
        "kind": "straight",
        "bomb": False,
    }
    assert page["last_seq"] == 3
    later = json_object(client.get(f"/v1/matches/{match_id}/events?after=2"))
    assert [e["seq"] for e in later["events"]] == [3] and later["last_seq"] == 3
    empty = client.get(f"/v1/matches/{match_id}/events?after=3").json
    assert empty == {"events": [], "last_seq": 3}
    # past the end: last_seq is still the match's newest event, never a number it did not have
    huge = client.get(f"/v1/matches/{match_id}/events?after={2**63 - 1}")
    assert huge.status_code == 200 and huge.json == {"events": [], "last_seq": 3}
    for bad in ("after=-1", f"after={2**64}", "after=16951477081498488458444800", "wait=31", "wait=x"):
        response = client.get(f"/v1/matches/{match_id}/events?{bad}")
        assert response.status_code == 422 and reason(response) == "invalid_request"


def test_openapi_file_is_current() -> None:
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert committed == openapi_document(), "run `make openapi` and commit openapi/openapi.json"


def test_openapi_file_is_a_valid_openapi_3_1_document() -> None:
    from openapi_spec_validator import validate

    validate(json.loads((ROOT / "openapi" / "openapi.json").read_text()))


def test_openapi_operations_have_unique_ids_for_generated_sdks() -> None:
    spec = openapi_document()
    ids = [op["operationId"] for ops in spec["paths"].values() for op in ops.values() if isinstance(op, dict)]
    assert len(ids) == 82 and len(set(ids)) == len(ids)
    assert spec["info"]["title"].isascii(), "generators derive package names from the title"


def test_openapi_documents_errors_with_reason(client: FlaskClient) -> None:
    spec = json_object(client.get("/openapi.json"))
    assert spec["openapi"].startswith("3.1")
    assert "reason" in spec["components"]["schemas"]["Error"]["required"]
    action = spec["paths"]["/v1/matches/{match_id}/actions"]["post"]
    assert {"200", "401", "404", "409", "422"} <= set(action["responses"])
    assert client.get("/docs").status_code == 200


def test_a_fresh_apps_document_read_by_many_threads_at_once_is_the_whole_committed_one_in_each(app: Flask) -> None:
    """An app documents its views when its document is first read (``TienLenApi``): eight threads reading a fresh
    app's document at the same moment wait for one of them to build it and each gets all of it, as committed."""
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    document = services_of(app).document
    start = threading.Barrier(8)

    def read(_: int) -> dict[str, Any]:
        start.wait()
        found: dict[str, Any] = json.loads(json.dumps(document.spec.to_dict()))  # apispec's dict is its own, live
        return found

    with ThreadPoolExecutor(8) as pool:
        read_by_each = list(pool.map(read, range(8)))
    assert all(found == committed for found in read_by_each)
    assert document.spec.to_dict() == committed  # built once: read again, nothing added twice


def test_every_refusal_of_the_service_and_the_engine_has_a_status() -> None:
    """Each refusal class's own reason, and each engine refusal reason, is in the one reason → status table."""
    classes: list[type[ServiceError]] = []
    pending = [ServiceError]
    while pending:
        cls = pending.pop()
        classes.append(cls)
        pending.extend(cls.__subclasses__())
    assert len(classes) > 5
    for cls in classes:
        assert cls.reason in REASON_STATUS, cls
    assert {REASON_STATUS[reason] for reason in REFUSAL_REASONS} == {409, 422}
    assert set(DEFAULT_REASONS.values()) <= set(REASONS)


def test_every_answer_has_exactly_the_documented_shape(api: Api, client: FlaskClient) -> None:
    """Every answer, as sent, loads back through its schema: no field missing, none unknown, every value valid."""
    from tienlen.api import schemas

    def check(schema: Schema, body: dict[str, Any]) -> None:
        assert schema.validate(body) == {}, (type(schema).__name__, schema.validate(body))

    created = client.post("/v1/matches", json={"seats": [{"name": "A"}, {"name": "B", "bot": "easy"}, {"open": True}]})
    created_body = json_object(created)
    check(schemas.CreatedMatchSchema(), created_body)
    match_id = created_body["match_id"]
    check(schemas.MatchSchema(), api.public(match_id))
    token = created_body["tokens"][0]["token"]
    check(schemas.SeatViewSchema(), api.view(match_id, token))
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "C"})
    joined_body = json_object(joined)
    check(schemas.SeatTokenSchema(), joined_body)
    for seat_token in (token, joined_body["token"]):
        view = api.view(match_id, seat_token)
        check(schemas.SeatViewSchema(), view)
        check(schemas.LegalSchema(), api.legal(match_id, seat_token))
        if view["turn"] == view["seat"]:
            hint = json_object(client.get(f"/v1/matches/{match_id}/hint", headers=api.auth(seat_token)))
            check(schemas.HintSchema(), hint)
            answer = api.act(match_id, seat_token, hint["action"])
            assert answer.status_code == 200
            check(schemas.ActionAnswerSchema(), json_object(answer))
    check(schemas.MatchSchema(), api.public(match_id))
    check(schemas.EventPageSchema(), json_object(client.get(f"/v1/matches/{match_id}/events")))
    check(schemas.RuleCatalogSchema(), json_object(client.get("/v1/rules")))
    check(schemas.HealthSchema(), json_object(client.get("/healthz")))
    check(schemas.ErrorSchema(), json_object(client.get(f"/v1/matches/{match_id}/view")))
