"""Every bad input is a 4xx with a reason and changes nothing; Idempotency-Key answers and refusals are kept."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis
from flask import Flask

from tests.support.accounts import keys
from tests.support.api import Api, json_object
from tienlen.api.guards import MAX_DEPTH
from tienlen.api.services import services_of

# Seat 0 holds 3S and leads; seat 1 holds a single 2 and pairs.
DEAL = [
    ["3S", "4S", "5S", "6S", "9H"],
    ["3C", "3D", "4C", "4D", "5C", "5D", "2H"],
    ["7S", "7C", "8S", "2S"],
    ["QS", "QC", "QD", "QH", "KS"],
]
SEATS = [{"name": "A"}, {"name": "B"}]


def four_remote(api: Api) -> tuple[str, list[str]]:
    created = api.create(seats=[{"name": n} for n in "ABCD"], deal=DEAL)
    return created["match_id"], [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]


@pytest.fixture
def store(app: Flask) -> Iterator[redis.Redis]:
    """A client of the app's Redis, to see that a refused request stored nothing."""
    client = redis.Redis.from_url(services_of(app).settings.redis_url)
    yield client
    client.close()


def refused(response: Any, status: int, reason: str) -> dict[str, Any]:
    body = json_object(response)
    assert (response.status_code, body["reason"]) == (status, reason), body
    assert body["code"] == status and body["message"]
    return body


# ----- bodies the decoder cannot take -------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 30_000])
def test_json_nested_deeper_than_the_limit_is_invalid_request_and_creates_nothing(
    api: Api, store: redis.Redis, depth: int
) -> None:
    before = keys(store)
    deep = '{"seats": ' + "[" * depth + "]" * depth + "}"
    response = api.client.post("/v1/matches", data=deep, content_type="application/json")
    assert "nests deeper" in refused(response, 422, "invalid_request")["message"]
    # Read at once: the match made next adds keys that are not its own (the live list's, when it was empty).
    assert keys(store) - before == set(), "the refused create stored nothing"
    match_id, tokens = four_remote(api)
    state = api.public(match_id)
    action = '{"type": "play", "cards": ' + "[" * depth + "]" * depth + "}"
    response = api.client.post(
        f"/v1/matches/{match_id}/actions", data=action, content_type="application/json", headers=api.auth(tokens[0])
    )
    refused(response, 422, "invalid_request")
    assert api.public(match_id) == state, "a refused action changes nothing"


def test_brackets_inside_strings_do_not_count_as_nesting(api: Api) -> None:
    name = "[{" * 20
    created = api.client.post("/v1/matches", json={"seats": [{"name": name}, {"name": '\\"]' + "[" * 30}]})
    assert created.status_code == 201, created.json
    assert json_object(created)["match"]["seats"][0]["name"] == name


@pytest.mark.parametrize("field", ["seed", "version"])
@pytest.mark.parametrize("digits", [4301, 20_000, 25])
def test_huge_integers_are_invalid_request_not_a_server_error(
    api: Api, store: redis.Redis, field: str, digits: int
) -> None:
    match_id, tokens = four_remote(api)
    state = api.public(match_id)
    before = keys(store)
    number = "9" * digits
    if field == "seed":
        body = '{"seats": [{"name": "A"}, {"name": "B"}], "seed": ' + number + "}"
        response = api.client.post("/v1/matches", data=body, content_type="application/json")
    else:
        body = '{"type": "play", "cards": ["3S"], "version": ' + number + "}"
        response = api.client.post(
            f"/v1/matches/{match_id}/actions", data=body, content_type="application/json", headers=api.auth(tokens[0])
        )
    refused(response, 422, "invalid_request")
    assert keys(store) == before and api.public(match_id) == state, "nothing changed"


# ----- media types --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content_type", "data"),
    [
        ("text/plain", '{"seats": [{"name": "A"}, {"name": "B"}]}'),
        ("application/x-www-form-urlencoded", "seats=A"),
        ("multipart/form-data; boundary=x", "--x--"),
        (None, '{"seats": [{"name": "A"}, {"name": "B"}]}'),  # a body with no Content-Type
    ],
)
def test_a_body_that_is_not_json_is_unsupported_media_type_and_changes_nothing(
    api: Api, store: redis.Redis, content_type: str | None, data: str
) -> None:
    match_id, tokens = four_remote(api)
    waiting = api.create(seats=[{"name": "A"}, {"open": True}])["match_id"]
    state, before = api.public(match_id), keys(store)
    headers = {} if content_type is None else {"Content-Type": content_type}
    created = api.client.post("/v1/matches", data=data, headers=headers)
    body = refused(created, 415, "unsupported_media_type")
    assert "application/json" in body["message"]
    joined = api.client.post(f"/v1/matches/{waiting}/join", data='{"name": "C"}', headers=headers)
    refused(joined, 415, "unsupported_media_type")
    acted = api.client.post(
        f"/v1/matches/{match_id}/actions", data='{"type": "pass"}', headers=headers | api.auth(tokens[0])
    )
    refused(acted, 415, "unsupported_media_type")
    assert api.public(match_id) == state and keys(store) == before, "nothing changed"
    assert api.public(waiting)["seats"][1]["open"] is True


def test_json_with_a_charset_or_a_json_suffix_type_is_accepted(api: Api) -> None:
    body = json.dumps({"seats": SEATS})
    for content_type in ("application/json; charset=utf-8", "application/vnd.tienlen+json"):
        assert api.client.post("/v1/matches", data=body, content_type=content_type).status_code == 201


# ----- chunked bodies (a real server: the test client never reads one) -------------------------


def post_chunked(base: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
    """POST ``body`` with ``Transfer-Encoding: chunked`` (no Content-Length), in 8 KB chunks."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port, timeout=10)
    try:
        chunks = (body[i : i + 8192] for i in range(0, len(body), 8192))
        connection.request("POST", path, body=chunks, headers={"Content-Type": "application/json"}, encode_chunked=True)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_a_chunked_body_over_the_limit_is_payload_too_large(live_server: str) -> None:
    big = json.dumps({"seats": [{"name": "x" * 70_000}, {"name": "B"}]}).encode()
    status, body = post_chunked(live_server, "/v1/matches", big)
    assert (status, body["reason"]) == (413, "payload_too_large"), body
    status, body = post_chunked(live_server, "/v1/matches", json.dumps({"seats": SEATS, "seed": 4}).encode())
    assert status == 201 and body["match"]["status"] == "playing", "a chunked body under the limit is read"


# ----- Idempotency-Key ------------------------------------------------------------------------


def test_a_reused_idempotency_key_with_another_body_is_refused_and_changes_nothing(api: Api) -> None:
    match_id, tokens = four_remote(api)
    key = {"Idempotency-Key": "reuse-1"}
    first = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key)
    assert first.status_code == 200
    state = api.public(match_id)
    other = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S", "4S", "5S"]}, **key)
    assert "another body" in refused(other, 422, "idempotency_key_reused")["message"]
    assert api.public(match_id) == state, "nothing changed"
    # The same body (in another key order and spelling of the same JSON) still answers the first answer.
    same = api.client.post(
        f"/v1/matches/{match_id}/actions",
        data='{ "cards": ["3S"],\n "type": "play" }',
        content_type="application/json",
        headers=api.auth(tokens[0]) | key,
    )
    assert same.status_code == 200 and same.json == first.json
    assert api.public(match_id) == state


def test_a_refusal_is_kept_under_its_key_and_a_retry_answers_it_again(api: Api) -> None:
    match_id, tokens = four_remote(api)
    key = {"Idempotency-Key": "early"}
    early = api.act(match_id, tokens[1], {"type": "pass"}, **key)
    refused(early, 409, "not_your_turn")
    assert api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}).status_code == 200
    # Now it is seat 1's turn, but the key already answered: the retry gets the same refusal, nothing applied.
    state = api.public(match_id)
    again = api.act(match_id, tokens[1], {"type": "pass"}, **key)
    assert again.status_code == 409 and again.json == early.json
    assert api.public(match_id) == state, "a retry of a kept refusal applies nothing"
    reused = api.act(match_id, tokens[1], {"type": "play", "cards": ["2H"]}, **key)
    refused(reused, 422, "idempotency_key_reused")
    # A new key is a new request.
    assert api.act(match_id, tokens[1], {"type": "pass"}, **{"Idempotency-Key": "later"}).status_code == 200
    assert api.public(match_id)["version"] == state["version"] + 1


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"type": "play", "cards": ["4S"]}, 422, "must_include_start_card"),
        ({"type": "play", "cards": ["3S"], "version": 0}, 409, "stale_version"),
        ({"type": "play", "cards": ["ZZ"]}, 422, "unknown_card"),
    ],
)
def test_rule_and_version_refusals_are_kept_too(api: Api, body: dict[str, Any], status: int, reason: str) -> None:
    match_id, tokens = four_remote(api)
    key = {"Idempotency-Key": f"kept-{reason}"}
    first = api.act(match_id, tokens[0], body, **key)
    refused(first, status, reason)
    state = api.public(match_id)
    assert api.act(match_id, tokens[0], body, **key).json == first.json
    assert api.public(match_id) == state


def test_a_refusal_that_the_match_did_not_decide_is_not_kept(api: Api) -> None:
    match_id, tokens = four_remote(api)
    key = {"Idempotency-Key": "who"}
    refused(api.act(match_id, "not-a-token", {"type": "play", "cards": ["3S"]}, **key), 401, "invalid_token")
    refused(api.act(match_id, tokens[0], {"type": "fold"}, **key), 422, "invalid_request")  # the schema's refusal
    assert api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key).status_code == 200


def test_integers_are_json_schema_integers_a_whole_float_counts(api: Api) -> None:
    """JSON Schema's "integer" takes 7.0, so the server does too; 7.5, "7" and true stay refused."""
    created = api.client.post("/v1/matches", json={"seats": SEATS, "seed": 7.0, "clock": {"turn_seconds": 30.0}})
    assert created.status_code == 201, created.json
    assert json_object(created)["match"]["clock"]["turn_seconds"] == 30
    for seed in (7.5, "7", True, 1e300):
        refused(api.client.post("/v1/matches", json={"seats": SEATS, "seed": seed}), 422, "invalid_request")
