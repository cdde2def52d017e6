"""Every answer that is not a success speaks the v1 error shape, routing's and the framework's own included.

``{code, status, message, reason}`` with a documented ``reason`` (the README's table of reasons; docs/api.md,
"Errors"): a doubled slash's redirect (308, with ``Location``), an unknown path (404), a method the path does
not take (405, with ``Allow``), a body too large (413, in our words), a missing or wrong token (401, with
``WWW-Authenticate: Bearer``), and a body that does not match the schema (422, a message a person can read).
``OPTIONS`` answers 204 with ``Allow`` and no body.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.api import Api, json_object
from tienlen.api.errors import REASON_STATUS, REASONS

TWO_SEATS = {"seats": [{"name": "A"}, {"name": "B", "bot": "easy"}]}


def error_of(response: Any, status: int, reason: str) -> dict[str, Any]:
    """The error body of ``response``: its status, reason and the shape every error has."""
    body = json_object(response)
    assert response.status_code == status, body
    assert response.mimetype == "application/json"
    assert set(body) >= {"code", "status", "message", "reason"} and body["code"] == status, body
    assert body["reason"] == reason and reason in REASONS, body
    assert "<html" not in body["message"].lower() and "<p>" not in body["message"], "no HTML in a message"
    return body


@pytest.mark.parametrize(
    ("method", "path", "status", "reason"),
    [
        ("GET", "/v1//matches", 308, "moved_permanently"),
        ("GET", "/v1/matches/", 404, "not_found"),
        ("GET", "/v2/matches", 404, "not_found"),
        ("PUT", "/v1/matches", 405, "method_not_allowed"),
        ("DELETE", "/v1/rules", 405, "method_not_allowed"),
    ],
)
def test_routing_answers_are_in_the_error_shape(
    client: FlaskClient, method: str, path: str, status: int, reason: str
) -> None:
    response = client.open(path, method=method)
    error_of(response, status, reason)
    if status == 308:
        assert response.headers["Location"].endswith("/v1/matches")
    if status == 405:
        assert "GET" in response.headers["Allow"]


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/rules", "/healthz"])
def test_options_answers_204_with_allow_and_no_body(client: FlaskClient, path: str) -> None:
    response = client.options(path)
    assert response.status_code == 204 and response.data == b""
    assert "GET" in response.headers["Allow"]
    assert "text/html" not in response.headers.get("Content-Type", "")


def test_a_body_too_large_is_refused_in_our_words(client: FlaskClient) -> None:
    body = '{"seats": [{"name": "' + "x" * 70_000 + '"}]}'
    response = client.post("/v1/matches", data=body, content_type="application/json")
    message = error_of(response, 413, "payload_too_large")["message"]
    assert "TIENLEN_MAX_BODY" in message and "capacity" not in message


@pytest.mark.parametrize(
    ("headers", "challenge"),
    [
        ({}, 'Bearer realm="tienlen"'),
        ({"Authorization": "Bearer not-a-token"}, 'Bearer realm="tienlen", error="invalid_token"'),
        ({"Authorization": "Basic QTpC"}, 'Bearer realm="tienlen", error="invalid_token"'),
    ],
)
def test_a_401_says_which_scheme_it_takes(api: Api, headers: dict[str, str], challenge: str) -> None:
    match_id = api.create(**TWO_SEATS)["match_id"]
    response = api.client.get(f"/v1/matches/{match_id}/view", headers=headers)
    error_of(response, 401, "invalid_token")
    assert response.headers["WWW-Authenticate"] == challenge
    assert REASON_STATUS["invalid_token"] == 401


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"seats": [{"nam": "A"}, {"name": "B"}]}, ["seats.0.name: Missing data for required field.", "seats.0.nam:"]),
        ({"seats": [{"name": "A"}, {"name": "B"}], "rules": {"hands": "x"}}, ["rules.hands: Not a valid integer."]),
        ({"seats": []}, ["seats:"]),
    ],
)
def test_a_422_message_reads_as_words_not_json(client: FlaskClient, body: dict[str, Any], said: list[str]) -> None:
    message = error_of(client.post("/v1/matches", json=body), 422, "invalid_request")["message"]
    for part in said:
        assert part in message, message
    assert "{" not in message and '\\"' not in message, message
