"""The Python client's account calls against a real server process: make an account, log in and out, read the
account, make, list and revoke personal tokens, delete the account; each refusal raises ``ApiError`` with its
reason."""

from __future__ import annotations

import secrets
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client

pytestmark = pytest.mark.xdist_group("live_server")

PASSWORD = "a long enough password"


def test_an_account_is_made_used_and_deleted_through_the_client(live_server: str) -> None:
    client = Client(live_server)
    name = "c" + secrets.token_hex(6)
    made = client.create_account(name, PASSWORD, kind="bot")
    assert made["account"]["name"] == name and made["account"]["kind"] == "bot"
    session = client.login(name.upper(), PASSWORD)["token"]
    assert client.me(session) == made["account"]
    issued = client.create_token(session, "my bot", ["play"])
    assert issued["scopes"] == ["play"] and issued["token"]
    listed = client.tokens(made["token"])
    assert [(t["id"], t["label"]) for t in listed] == [(issued["id"], "my bot")] and "token" not in listed[0]
    assert client.me(issued["token"])["name"] == name
    client.revoke_token(session, issued["id"])
    with pytest.raises(ApiError) as revoked:
        client.me(issued["token"])
    assert revoked.value.status == 401 and revoked.value.reason == "invalid_token"
    client.logout(session)
    with pytest.raises(ApiError) as logged_out:
        client.tokens(session)
    assert logged_out.value.reason == "invalid_token"
    client.delete_account(made["token"], PASSWORD)
    with pytest.raises(ApiError) as gone:
        client.login(name, PASSWORD)
    assert gone.value.status == 401 and gone.value.reason == "invalid_credentials"


@pytest.mark.parametrize(
    ("name", "password", "kind", "status", "reason"),
    [
        ("x", PASSWORD, "human", 422, "invalid_request"),
        ("fine_name", "short", "human", 422, "invalid_request"),
        ("fine_name", PASSWORD, "alien", 422, "invalid_request"),
        ("Easy", PASSWORD, "human", 409, "name_taken"),
    ],
)
def test_a_refused_account_raises_its_reason(
    live_server: str, name: str, password: str, kind: str, status: int, reason: str
) -> None:
    with pytest.raises(ApiError) as refused:
        Client(live_server).create_account(name, password, kind)
    assert refused.value.status == status and refused.value.reason == reason


def test_a_play_only_token_cannot_make_tokens(live_server: str) -> None:
    client = Client(live_server)
    session = client.create_account("c" + secrets.token_hex(6), PASSWORD)["token"]
    play = client.create_token(session, "play only", ["play"])["token"]
    with pytest.raises(ApiError) as refused:
        client.create_token(play, "more", ["account"])
    assert refused.value.status == 403 and refused.value.reason == "scope_missing"
