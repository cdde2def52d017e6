"""Accounts, sessions and personal tokens (``/v1/accounts``, ``/v1/sessions``, ``/v1/me``).

Rules checked: a bad body is refused with its reason and changes nothing; names are unique ignoring case and the
house bots' names are taken; a wrong name and a wrong password are refused alike; failed logins are throttled with
``Retry-After``; a token lacks what its scopes do not give (403) and stops at once when revoked (401); no Redis
value and no answer but the one-time token answers holds a password or a token in clear; deleting an account leaves
no credential or token behind, and its name stays closed.
"""

from __future__ import annotations

import secrets
import time
from typing import Any

import pytest
from argon2 import profiles
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth, fresh_name, keys, sign_up, values
from tienlen.service.accounts import LOGIN_THROTTLE, MAX_ADDRESS_FAILURES, MAX_NAME_FAILURES
from tienlen.store.accounts import name_digest
from tienlen.store.redis_accounts import fails_key, name_key


@pytest.fixture
def web(client: FlaskClient) -> FlaskClient:
    """The test client (it calls from an address of its own: failed logins are counted per address)."""
    return client


def test_an_account_answers_itself_and_a_session_that_works(web: FlaskClient) -> None:
    name = fresh_name()
    body = sign_up(web, name, kind="bot")
    assert body["account"]["name"] == name and body["account"]["kind"] == "bot"
    assert set(body) == {"account", "token", "expires_at"} and len(body["token"]) >= 32
    assert not body["token"].startswith("-")
    me = web.get("/v1/me", headers=auth(body["token"]))
    assert me.status_code == 200 and me.get_json() == body["account"]


BAD_ACCOUNTS = [
    ({"name": "ab", "password": PASSWORD, "kind": "human"}, "name"),  # too short
    ({"name": "a" * 21, "password": PASSWORD, "kind": "human"}, "name"),  # too long
    ({"name": "bad name", "password": PASSWORD, "kind": "human"}, "name"),  # a space
    ({"name": "tiến", "password": PASSWORD, "kind": "human"}, "name"),  # not ASCII
    ({"name": "{x}", "password": PASSWORD, "kind": "human"}, "name"),  # braces (hash tags)
    ({"name": "good_name", "password": "short", "kind": "human"}, "password"),  # 5 characters
    ({"name": "good_name", "password": "x" * 129, "kind": "human"}, "password"),
    ({"name": "good_name", "password": PASSWORD, "kind": "robot"}, "kind"),
    ({"name": "good_name", "password": PASSWORD}, "kind"),
    ({"password": PASSWORD, "kind": "human"}, "name"),
]


@pytest.mark.parametrize(("body", "field"), BAD_ACCOUNTS)
def test_a_bad_account_body_is_refused_and_changes_nothing(
    web: FlaskClient, db: Any, body: dict[str, Any], field: str
) -> None:
    before = keys(db)
    answer = web.post("/v1/accounts", json=body)
    assert answer.status_code == 422
    found = answer.get_json()
    assert found["reason"] == "invalid_request" and field in found["errors"]["json"]
    assert PASSWORD not in answer.get_data(as_text=True)
    assert keys(db) == before


@pytest.mark.parametrize("taken", ["{name}", "{upper}", "{title}", "easy", "MEDIUM", "Hard"])
def test_a_name_taken_ignoring_case_or_a_house_bots_is_refused(web: FlaskClient, db: Any, taken: str) -> None:
    name = fresh_name()
    sign_up(web, name)
    before = keys(db)
    asked = taken.format(name=name, upper=name.upper(), title=name.title())
    answer = web.post("/v1/accounts", json={"name": asked, "password": PASSWORD, "kind": "human"})
    assert answer.status_code == 409 and answer.get_json()["reason"] == "name_taken"
    assert keys(db) == before


def test_a_wrong_name_and_a_wrong_password_are_refused_alike(web: FlaskClient) -> None:
    name = fresh_name()
    sign_up(web, name)
    wrong_password = web.post("/v1/sessions", json={"name": name, "password": "not the password"})
    wrong_name = web.post("/v1/sessions", json={"name": fresh_name(), "password": PASSWORD})
    for answer in (wrong_password, wrong_name):
        assert answer.status_code == 401
        assert answer.get_json() == wrong_password.get_json()
        assert answer.get_json()["reason"] == "invalid_credentials"
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    right = web.post("/v1/sessions", json={"name": name.upper(), "password": PASSWORD})
    assert right.status_code == 201 and set(right.get_json()) == {"token", "expires_at"}


def test_failed_logins_for_one_name_are_throttled_with_retry_after(web: FlaskClient, db: Any) -> None:
    name = fresh_name()
    sign_up(web, name)
    for _ in range(MAX_NAME_FAILURES):
        web.environ_base["REMOTE_ADDR"] = "203.0.113." + str(secrets.randbelow(250) + 1) + secrets.token_hex(3)
        assert web.post("/v1/sessions", json={"name": name, "password": "wrong password"}).status_code == 401
    refused = web.post("/v1/sessions", json={"name": name, "password": PASSWORD})  # even the right one
    assert refused.status_code == 429 and refused.get_json()["reason"] == "rate_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 15 * 60
    counter = fails_key(LOGIN_THROTTLE, f"name:{name_digest(name)}")
    assert 0 < db.ttl(counter) <= 15 * 60  # a counter never outlives its window
    other = fresh_name()
    sign_up(web, other)
    assert web.post("/v1/sessions", json={"name": other, "password": PASSWORD}).status_code == 201


def test_failed_logins_from_one_address_are_throttled_whatever_the_name(web: FlaskClient) -> None:
    name = fresh_name()
    sign_up(web, name)
    for _ in range(MAX_ADDRESS_FAILURES):
        assert web.post("/v1/sessions", json={"name": fresh_name(), "password": PASSWORD}).status_code == 401
    refused = web.post("/v1/sessions", json={"name": name, "password": PASSWORD})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    web.environ_base["REMOTE_ADDR"] = "192.0.2." + secrets.token_hex(4)
    assert web.post("/v1/sessions", json={"name": name, "password": PASSWORD}).status_code == 201


@pytest.mark.real_password_hashing
def test_an_unknown_name_takes_about_as_long_as_a_wrong_password(web: FlaskClient) -> None:
    name = fresh_name()
    sign_up(web, name)

    def median_s(body: dict[str, str]) -> float:
        spent = []
        for _ in range(5):
            started = time.perf_counter()
            assert web.post("/v1/sessions", json=body).status_code == 401
            spent.append(time.perf_counter() - started)
        return sorted(spent)[2]

    wrong_password = median_s({"name": name, "password": "wrong password"})
    unknown_name = median_s({"name": fresh_name(), "password": "wrong password"})
    # without the dummy hash an unknown name answers in a few ms, a password check takes tens
    assert unknown_name > 0.3 * wrong_password, (unknown_name, wrong_password)


@pytest.mark.real_password_hashing
def test_passwords_are_kept_as_argon2id_hashes_with_rfc_9106s_low_memory_parameters(web: FlaskClient, db: Any) -> None:
    """Rule: the password is kept only as an Argon2id hash of RFC 9106's low-memory profile (64 MiB, 3 passes, 4
    lanes): what the server does when no test makes hashing cheap."""
    name = fresh_name()
    before = keys(db)
    sign_up(web, name)
    kept = [v for v in values(db, keys(db) - before) if v.startswith(b"$argon2")]
    low = profiles.RFC_9106_LOW_MEMORY
    expected = f"$argon2id$v=19$m={low.memory_cost},t={low.time_cost},p={low.parallelism}$".encode()
    assert len(kept) == 1 and kept[0].startswith(expected), kept


def test_a_token_without_the_scope_is_refused_403(web: FlaskClient) -> None:
    session = sign_up(web, fresh_name())["token"]
    made = web.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(session))
    assert made.status_code == 201
    play_only = made.get_json()["token"]
    assert web.get("/v1/me", headers=auth(play_only)).status_code == 200  # any scope tells who it is
    for method, path, body in [
        ("post", "/v1/me/tokens", {"label": "more", "scopes": ["play"]}),
        ("get", "/v1/me/tokens", None),
        ("delete", f"/v1/me/tokens/{made.get_json()['id']}", None),
        ("delete", "/v1/me", {"password": PASSWORD}),
    ]:
        answer = getattr(web, method)(path, json=body, headers=auth(play_only))
        assert answer.status_code == 403 and answer.get_json()["reason"] == "scope_missing", path
    assert len(web.get("/v1/me/tokens", headers=auth(session)).get_json()) == 1


def test_a_revoked_token_is_refused_at_once(web: FlaskClient) -> None:
    session = sign_up(web, fresh_name())["token"]
    made = web.post("/v1/me/tokens", json={"label": "ci", "scopes": ["account", "play"]}, headers=auth(session))
    token, token_id = made.get_json()["token"], made.get_json()["id"]
    listed = web.get("/v1/me/tokens", headers=auth(token)).get_json()
    assert [(t["id"], t["label"], t["scopes"]) for t in listed] == [(token_id, "ci", ["account", "play"])]
    assert "token" not in listed[0]
    assert web.delete(f"/v1/me/tokens/{token_id}", headers=auth(session)).status_code == 204
    refused = web.get("/v1/me", headers=auth(token))
    assert refused.status_code == 401 and refused.get_json()["reason"] == "invalid_token"
    assert 'error="invalid_token"' in refused.headers["WWW-Authenticate"]
    again = web.delete(f"/v1/me/tokens/{token_id}", headers=auth(session))
    assert again.status_code == 404 and again.get_json()["reason"] == "token_not_found"
    assert web.delete("/v1/sessions/current", headers=auth(session)).status_code == 204
    assert web.get("/v1/me", headers=auth(session)).status_code == 401


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer nonsense"}, {"Authorization": "Basic abc"}, {"Authorization": "Bearer "}]
)
def test_no_or_an_unknown_token_is_refused_401(web: FlaskClient, headers: dict[str, str]) -> None:
    answer = web.get("/v1/me", headers=headers)
    assert answer.status_code == 401 and answer.get_json()["reason"] == "invalid_token"
    assert answer.headers["WWW-Authenticate"].startswith('Bearer realm="tienlen"')


BAD_TOKENS = [
    {"label": "", "scopes": ["play"]},
    {"label": "x" * 61, "scopes": ["play"]},
    {"label": "ok", "scopes": []},
    {"label": "ok", "scopes": ["admin"]},
    {"label": "ok"},
]


@pytest.mark.parametrize("body", BAD_TOKENS)
def test_a_bad_token_body_is_refused_and_changes_nothing(web: FlaskClient, db: Any, body: dict[str, Any]) -> None:
    session = sign_up(web, fresh_name())["token"]
    before = keys(db)
    answer = web.post("/v1/me/tokens", json=body, headers=auth(session))
    assert answer.status_code == 422 and answer.get_json()["reason"] == "invalid_request"
    assert keys(db) == before


def test_no_value_kept_and_no_later_answer_holds_a_password_or_token_in_clear(web: FlaskClient, db: Any) -> None:
    before = keys(db)
    name, password = fresh_name(), "pä55 wörd " + secrets.token_hex(8)
    secrets_seen = [password]
    secrets_seen.append(sign_up(web, name, password)["token"])
    login = web.post("/v1/sessions", json={"name": name, "password": password})
    session = login.get_json()["token"]
    secrets_seen.append(session)
    made = web.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(session))
    secrets_seen.append(made.get_json()["token"])
    web.post("/v1/sessions", json={"name": name, "password": password + "x"})  # a failure is counted too
    later = [
        web.get("/v1/me", headers=auth(session)),
        web.get("/v1/me/tokens", headers=auth(session)),
        web.post("/v1/sessions", json={"name": name, "password": "wrong " + password}),
    ]
    created = keys(db) - before
    assert created, "the account wrote nothing?"
    for value in values(db, created):
        for secret in secrets_seen:
            assert secret.encode() not in value
    for answer in later:
        for secret in secrets_seen:
            assert secret not in answer.get_data(as_text=True)


def test_deleting_the_account_leaves_no_credential_and_closes_the_name(web: FlaskClient, db: Any) -> None:
    before = keys(db)
    name = fresh_name()
    session = sign_up(web, name)["token"]
    web.post("/v1/me/tokens", json={"label": "a", "scopes": ["play"]}, headers=auth(session))
    second = web.post("/v1/sessions", json={"name": name, "password": PASSWORD}).get_json()["token"]
    wrong = web.delete("/v1/me", json={"password": "not the password"}, headers=auth(session))
    assert wrong.status_code == 401 and wrong.get_json()["reason"] == "invalid_credentials"
    assert web.delete("/v1/me", json={"password": PASSWORD}, headers=auth(session)).status_code == 204
    for token in (session, second):
        assert web.get("/v1/me", headers=auth(token)).status_code == 401
    left = keys(db) - before
    assert {key for key in left if not key.startswith(b"tl:{fails:")} == {name_key(name).encode()}
    assert db.get(name_key(name)) == b"-"  # closed, and no credential in it
    assert not any(name.lower().encode() in key.lower() for key in keys(db)), "no key spells the name"
    again = web.post("/v1/accounts", json={"name": name, "password": PASSWORD, "kind": "human"})
    assert again.status_code == 409 and again.get_json()["reason"] == "name_taken"
    assert web.post("/v1/sessions", json={"name": name, "password": PASSWORD}).status_code == 401


def test_logging_out_with_a_personal_token_is_refused(web: FlaskClient) -> None:
    session = sign_up(web, fresh_name())["token"]
    token = web.post("/v1/me/tokens", json={"label": "a", "scopes": ["play"]}, headers=auth(session)).get_json()
    answer = web.delete("/v1/sessions/current", headers=auth(token["token"]))
    assert answer.status_code == 422 and answer.get_json()["reason"] == "invalid_request"
    assert web.get("/v1/me", headers=auth(token["token"])).status_code == 200
