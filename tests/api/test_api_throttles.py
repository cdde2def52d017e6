"""The login and room-code throttles: atomic under racing requests, and ``Retry-After`` the real time left.

Rules checked: racing wrong passwords for one name get exactly the throttle's most 401s and 429 for the rest
(the check and the count are one step), and so do racing lookups of unknown room codes; the 429 of a login
lockout, of the room-code throttle and of a flask-limiter limit says in ``Retry-After`` the time its counter
really has left (read from Redis), with the rate limits on, however long that is.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, fresh_name, sign_up
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.service.accounts import FAILURE_WINDOW_S, MAX_NAME_FAILURES
from tienlen.service.room_codes import MAX_ROOM_MISSES, ROOM_MISS_WINDOW_S, new_room_code
from tienlen.settings import DEFAULT_RATE_LIMITS

RACERS = 2 * MAX_NAME_FAILURES


def address() -> str:
    """A client address no other test uses."""
    return f"198.51.100.{secrets.randbelow(250) + 1}:{secrets.token_hex(4)}"


def race(app: Flask, count: int, send: Callable[[FlaskClient], Any]) -> list[int]:
    """The statuses of ``count`` requests sent at once from threads, one test client each, from one address."""
    where = address()
    start = threading.Barrier(count)
    statuses: list[int] = []

    def one() -> None:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = where
        start.wait()
        statuses.append(send(client).status_code)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sorted(statuses)


@pytest.mark.real_password_hashing  # a check as slow as in production: the window the racers used
def test_racing_wrong_passwords_get_exactly_the_most_allowed_and_the_rest_429(app: Flask) -> None:
    name = fresh_name()
    sign_up(app.test_client(), name)
    statuses = race(app, RACERS, lambda c: c.post("/v1/sessions", json={"name": name, "password": "wrong password"}))
    assert statuses == [401] * MAX_NAME_FAILURES + [429] * (RACERS - MAX_NAME_FAILURES)


def test_racing_lookups_of_unknown_codes_get_exactly_the_most_allowed_and_the_rest_429(app: Flask) -> None:
    racers = 2 * MAX_ROOM_MISSES
    statuses = race(app, racers, lambda c: c.get(f"/v1/rooms/{new_room_code()}"))
    assert statuses == [404] * MAX_ROOM_MISSES + [429] * (racers - MAX_ROOM_MISSES)


def test_a_right_password_or_a_found_code_is_not_counted_as_a_failure(app: Flask) -> None:
    web = app.test_client()
    web.environ_base["REMOTE_ADDR"] = address()
    name = fresh_name()
    sign_up(web, name)
    for _ in range(2 * MAX_NAME_FAILURES):
        assert web.post("/v1/sessions", json={"name": name, "password": PASSWORD}).status_code == 201


@pytest.fixture
def limited_app(redis_server: LocalRedis) -> Flask:
    """The app with the rate limits on (the defaults; ``account`` at 1 an hour): what a server in production runs."""
    settings = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_ANONYMOUS_HOSTING": "1"}
    settings["TIENLEN_RATE_LIMITS"] = "account=1/hour"
    return create_app({"REDIS_URL": redis_server.url, **settings})


def over_the_login_throttle(web: FlaskClient) -> Any:
    name = fresh_name()
    sign_up(web, name)
    web.environ_base["REMOTE_ADDR"] = address()  # the account limit (1 an hour) counted the other one
    for _ in range(MAX_NAME_FAILURES):
        assert web.post("/v1/sessions", json={"name": name, "password": "wrong password"}).status_code == 401
    return web.post("/v1/sessions", json={"name": name, "password": PASSWORD})


def over_the_room_throttle(web: FlaskClient) -> Any:
    for _ in range(MAX_ROOM_MISSES):
        assert web.get(f"/v1/rooms/{new_room_code()}").status_code == 404
    return web.post(f"/v1/rooms/{new_room_code()}/join", json={"name": "x"})  # limited itself (join)


def over_the_account_limit(web: FlaskClient) -> Any:
    sign_up(web, fresh_name())
    return web.post("/v1/accounts", json={"name": fresh_name(), "password": PASSWORD, "kind": "human"})


LOCKOUTS = [
    ("login lockout", over_the_login_throttle, FAILURE_WINDOW_S),
    ("room-code throttle", over_the_room_throttle, ROOM_MISS_WINDOW_S),
    ("flask-limiter limit (account=1/hour)", over_the_account_limit, 3600),
]


@pytest.mark.parametrize(("what", "overrun", "window_s"), LOCKOUTS, ids=[case[0] for case in LOCKOUTS])
def test_retry_after_tells_the_real_time_left_of_a_long_lockout(
    limited_app: Flask, what: str, overrun: Callable[[FlaskClient], Any], window_s: int
) -> None:
    assert DEFAULT_RATE_LIMITS["login"] == "60/minute", "the login limit's window is shorter than the lockout"
    web = limited_app.test_client()
    web.environ_base["REMOTE_ADDR"] = address()
    refused = overrun(web)
    assert refused.status_code == 429 and refused.get_json()["reason"] == "rate_limited", what
    assert window_s - 30 <= int(refused.headers["Retry-After"]) <= window_s, what
