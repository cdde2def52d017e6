"""Who a rate limit counts: the account (or an anonymous seat), never the token; tokens themselves are limited.

Rules checked: actions and hints are counted per account, so a new personal token, or the seat's own token,
goes on with the account's count, and another seat has its own; making personal tokens is limited (kind
``token``) and capped (``TIENLEN_MAX_TOKENS``, 409 ``too_many_tokens``, racing requests included); a made-up
token sent to any call that takes a token is refused 401 ``invalid_token`` and writes nothing to Redis.
"""

from __future__ import annotations

import secrets
import threading
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, keys, sign_up
from tests.support.api import own_address_client
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis

LIMIT = 3


def limited_app(redis_server: LocalRedis, **settings: str) -> Flask:
    """The app with the rate limits on (``act`` and ``hint`` at :data:`LIMIT` a minute, the rest the defaults)."""
    values = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_ANONYMOUS_HOSTING": "1"}
    values["TIENLEN_RATE_LIMITS"] = f"act={LIMIT}/minute; hint={LIMIT}/minute"
    return create_app({"REDIS_URL": redis_server.url, **values, **settings})


def client_of(app: Flask) -> FlaskClient:
    """A test client calling from an address of its own."""
    return own_address_client(app)


def personal_token(client: FlaskClient, session: str, scopes: list[str]) -> str:
    made = client.post("/v1/me/tokens", json={"label": "bot", "scopes": scopes}, headers=auth(session))
    assert made.status_code == 201, made.get_json()
    return str(made.get_json()["token"])


SEAT_CALLS = [("act", "POST", "actions", {"type": "pass"}), ("hint", "GET", "hint", None)]


@pytest.mark.parametrize(("kind", "method", "path", "body"), SEAT_CALLS, ids=[c[0] for c in SEAT_CALLS])
def test_seat_calls_are_counted_per_account_not_per_token(
    redis_server: LocalRedis, kind: str, method: str, path: str, body: dict[str, Any] | None
) -> None:
    web = client_of(limited_app(redis_server))
    session = sign_up(web, fresh_name())["token"]
    created = web.post("/v1/matches", json={"seats": [{"name": "A"}, {"name": "B"}]}, headers=auth(session))
    assert created.status_code == 201, created.get_json()
    match_id = created.get_json()["match_id"]
    own, other = (seat["token"] for seat in created.get_json()["tokens"])  # seat 0 is the account's

    def send(token: str) -> int:
        return web.open(f"/v1/matches/{match_id}/{path}", method=method, json=body, headers=auth(token)).status_code

    assert 429 not in [send(session) for _ in range(LIMIT)]
    assert send(session) == 429
    assert send(personal_token(web, session, ["play"])) == 429, "a new personal token went on with the count"
    assert send(own) == 429, "the account's seat's own token goes on with the account's count"
    assert send(other) != 429, "an anonymous seat has a count of its own"


def test_making_personal_tokens_is_rate_limited_per_account(redis_server: LocalRedis) -> None:
    web = client_of(limited_app(redis_server, TIENLEN_RATE_LIMITS="token=2/hour"))
    session = sign_up(web, fresh_name())["token"]
    for _ in range(2):
        personal_token(web, session, ["play"])
    over = web.post("/v1/me/tokens", json={"label": "x", "scopes": ["play"]}, headers=auth(session))
    assert over.status_code == 429 and over.get_json()["reason"] == "rate_limited"
    assert 3500 <= int(over.headers["Retry-After"]) <= 3600
    web.environ_base["REMOTE_ADDR"] = "192.0.2.77"
    again = web.post("/v1/me/tokens", json={"label": "x", "scopes": ["play"]}, headers=auth(session))
    assert again.status_code == 429, "another address is the same account"


def test_personal_tokens_are_capped_per_account_even_when_racing(redis_server: LocalRedis) -> None:
    capped = create_app({"REDIS_URL": redis_server.url, "TIENLEN_RATE_LIMITS": "off", "TIENLEN_MAX_TOKENS": "3"})
    web = client_of(capped)
    session = sign_up(web, fresh_name())["token"]
    start = threading.Barrier(10)
    statuses: list[int] = []

    def one() -> None:
        client = capped.test_client()
        start.wait()
        answer = client.post("/v1/me/tokens", json={"label": "x", "scopes": ["play"]}, headers=auth(session))
        statuses.append(answer.status_code)
        if answer.status_code == 409:
            assert answer.get_json()["reason"] == "too_many_tokens"

    threads = [threading.Thread(target=one) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] * 3 + [409] * 7
    listed = web.get("/v1/me/tokens", headers=auth(session)).get_json()
    assert len(listed) == 3
    web.delete(f"/v1/me/tokens/{listed[0]['id']}", headers=auth(session))
    assert web.post("/v1/me/tokens", json={"label": "x", "scopes": ["play"]}, headers=auth(session)).status_code == 201


def test_made_up_tokens_are_refused_401_and_write_nothing(redis_server: LocalRedis, db: Any) -> None:
    web = client_of(limited_app(redis_server))
    session = sign_up(web, fresh_name())["token"]
    created = web.post("/v1/matches", json={"seats": [{"name": "A"}, {"open": True}]}, headers=auth(session))
    match_id = created.get_json()["match_id"]
    calls = [
        ("POST", f"/v1/matches/{match_id}/actions", {"type": "pass"}),
        ("GET", f"/v1/matches/{match_id}/hint", None),
        ("GET", f"/v1/matches/{match_id}/view", None),
        ("GET", f"/v1/matches/{match_id}/legal", None),
        ("POST", f"/v1/matches/{match_id}/join", {"name": "B"}),
        ("POST", "/v1/matches", {"seats": [{"name": "A"}, {"open": True}]}),
        ("POST", "/v1/me/tokens", {"label": "x", "scopes": ["play"]}),
        ("GET", "/v1/me/events?wait=0", None),
        ("POST", "/v1/queue", {"players": 4}),
        ("GET", "/v1/queue/" + "0" * 16, None),
        ("POST", "/v1/challenges", {"to": ["someone"]}),
    ]
    before = keys(db)
    for method, url, body in calls:
        for _ in range(5):
            answer = web.open(url, method=method, json=body, headers=auth(secrets.token_urlsafe(24)))
            assert answer.status_code == 401 and answer.get_json()["reason"] == "invalid_token", (url, answer.json)
    assert keys(db) - before == set(), "a made-up token wrote to Redis"


def test_while_the_breaker_is_open_a_limited_call_answers_503_without_asking_redis(
    redis_server: LocalRedis, db: Any
) -> None:
    """Rule: finding who is counted reads Redis (a token's grant), so it too answers 503 at once, reading
    nothing, while the worker's breaker is open."""
    app = limited_app(redis_server)
    web = client_of(app)
    session = sign_up(web, fresh_name())["token"]
    services_of(app).breaker.trip()
    reads = db.info("commandstats").get("cmdstat_get", {}).get("calls", 0)
    for method, url in [("POST", "/v1/me/tokens"), ("GET", "/v1/me/events?wait=0"), ("POST", "/v1/matches/x/actions")]:
        answer = web.open(url, method=method, json={"label": "x", "scopes": ["play"]}, headers=auth(session))
        assert answer.status_code == 503 and answer.get_json()["reason"] == "store_unavailable", (url, answer.json)
    assert db.info("commandstats").get("cmdstat_get", {}).get("calls", 0) == reads, "a token's grant was read"
