"""Properties of accounts over generated names and passwords (hypothesis, real Redis).

Rules checked: a name that differs from a taken one only in case is refused (409 ``name_taken``), whichever
letters change; no answer but the one that shows a token once, no log line and no Redis value ever holds a
password or a token in clear, whatever the password.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.accounts import keys, values
from tests.support.api import own_address_client
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis

NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
SLOW = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def chatty(redis_server: LocalRedis) -> Flask:
    """An app that logs everything (DEBUG), so that a secret in any log line would be caught."""
    settings_ = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "DEBUG", "TIENLEN_RATE_LIMITS": "off"}
    settings_ |= {"TIENLEN_ANONYMOUS_HOSTING": "1"}  # the hosted match keeps seat records too
    return create_app({"REDIS_URL": redis_server.url, **settings_})


def _client(app: Flask) -> FlaskClient:
    return own_address_client(app)


@SLOW
@given(
    stem=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=12),
    flips=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_a_name_differing_only_in_case_is_refused(chatty: Flask, stem: str, flips: list[bool]) -> None:
    client = _client(chatty)
    name = stem + secrets.token_hex(3)  # unique across examples; the stem's letters are what change case
    first = client.post("/v1/accounts", json={"name": name, "password": "long enough", "kind": "human"})
    assert first.status_code == 201, first.json
    variant = "".join(c.upper() if flip else c for c, flip in zip(name, flips + [True] * len(name), strict=False))
    again = client.post("/v1/accounts", json={"name": variant, "password": "long enough", "kind": "bot"})
    assert again.status_code == 409 and again.get_json()["reason"] == "name_taken"


@SLOW
@given(password=st.text(min_size=8, max_size=40).filter(lambda p: len(p.strip()) >= 8 and "\x00" not in p))
def test_no_answer_log_line_or_redis_value_holds_a_secret_in_clear(
    chatty: Flask, db: Any, caplog: pytest.LogCaptureFixture, password: str
) -> None:
    client = _client(chatty)
    name = "".join(secrets.choice(NAME_CHARS) for _ in range(12))
    # a word an answer holds anyway ("tiebreak" is a rule's value) would look leaked: a secret is never only that
    password += secrets.token_hex(4)
    before = keys(db)
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        made = client.post("/v1/accounts", json={"name": name, "password": password, "kind": "human"})
        assert made.status_code == 201, made.json
        session = made.get_json()["token"]
        login = client.post("/v1/sessions", json={"name": name, "password": password})
        personal = client.post(
            "/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers={"Authorization": f"Bearer {session}"}
        )
        bearer = {"Authorization": f"Bearer {session}"}
        secrets_seen = [password, session, login.get_json()["token"], personal.get_json()["token"]]
        later = [
            client.get("/v1/me", headers={"Authorization": f"Bearer {session}"}),
            client.get("/v1/me/tokens", headers={"Authorization": f"Bearer {session}"}),
            client.post("/v1/sessions", json={"name": name, "password": password + "!"}),
            client.post("/v1/matches", json={"seats": [{"name": "x"}, {"open": True}]}, headers=bearer),
        ]
    text = "\n".join(f"{record.getMessage()} {vars(record)}" for record in caplog.records)  # extras too
    assert "/v1/sessions" in text, "the request log lines were not seen: this test could not catch a secret there"
    for secret in secrets_seen:
        assert secret not in text
        for answer in later:
            assert secret not in answer.get_data(as_text=True)
    assert made.get_data(as_text=True).count(session) == 1 and password not in made.get_data(as_text=True)
    for value in values(db, keys(db) - before):
        for secret in secrets_seen:
            assert secret.encode() not in value
