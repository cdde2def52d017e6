"""Room codes, hosting with an account, and an account's token acting for its seat.

Rules checked: on a server with the default settings hosting a match with open seats takes an account (401
``account_required``, nothing kept) while a match against bots alone does not; a match made with open seats gets a
6-character code of the look-alike-free alphabet, unique among live matches and read in any case; the code finds
the match's public summary with its host and seats anyone who joins by it (an account's token binds the seat, once
per account); unknown codes are 404 and, looked up too often from one address, 429 with ``Retry-After``; a
malformed code is 422; an account's token acts for the seat its account holds (and only with scope ``play``, and
only in a match where it holds one), the seat's own token keeps working, and a rematch keeps the seat the account's.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth
from tests.support.api import Api, json_object, own_address_client
from tests.support.lifecycle import lowest, play_out
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis
from tienlen.service.room_codes import MAX_ROOM_MISSES, ROOM_ALPHABET, new_room_code
from tienlen.store.rooms import room_key

CODE = re.compile(f"[{ROOM_ALPHABET}]{{6}}")
HOSTED = {"seats": [{"name": "host"}, {"open": True}]}


@pytest.fixture
def web(redis_server: LocalRedis) -> FlaskClient:
    """A client of an app with the default hosting rule, calling from an address of its own."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    return own_address_client(create_app({"REDIS_URL": redis_server.url, **settings}))


def account(web: FlaskClient) -> tuple[str, str]:
    """A new account's (name, session token)."""
    name = "r" + secrets.token_hex(5)
    made = web.post("/v1/accounts", json={"name": name, "password": PASSWORD, "kind": "human"})
    assert made.status_code == 201, made.json
    return name, str(made.get_json()["token"])


def host(web: FlaskClient, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """Create a match as the account of ``token``; assert 201."""
    made = web.post("/v1/matches", json=body or HOSTED, headers=auth(token))
    assert made.status_code == 201, made.json
    return json_object(made)


def refused(answer: Any, status: int, reason: str) -> None:
    """Assert the answer is the error ``reason`` with ``status``."""
    assert answer.status_code == status, answer.json
    assert answer.get_json()["reason"] == reason


# ----- hosting ------------------------------------------------------------------------------------------


def test_hosting_open_seats_without_an_account_is_refused_and_keeps_nothing(web: FlaskClient, db: Any) -> None:
    before = set(db.scan_iter("tl:{room:*"))
    refused(web.post("/v1/matches", json=HOSTED), 401, "account_required")
    answer = web.post("/v1/matches", json=HOSTED)
    assert answer.headers["WWW-Authenticate"] == 'Bearer realm="tienlen"'
    assert set(db.scan_iter("tl:{room:*")) == before


def test_a_match_against_bots_alone_needs_no_account_and_has_no_code(web: FlaskClient) -> None:
    made = web.post("/v1/matches", json={"seats": [{"name": "me"}, {"name": "b", "bot": "easy"}]})
    assert made.status_code == 201, made.json
    assert made.get_json()["match"]["room_code"] is None


def test_anonymous_hosting_is_allowed_when_the_server_says_so(api: Api) -> None:
    """Rule: TIENLEN_ANONYMOUS_HOSTING=1 (the `api` fixture's app) lets anyone host; the match still has a code."""
    made = api.create(**HOSTED)
    assert CODE.fullmatch(made["match"]["room_code"])
    assert made["match"]["seats"][0]["account"] is False


def test_hosting_with_an_account_binds_the_first_remote_seat_and_gives_a_code(web: FlaskClient) -> None:
    name, token = account(web)
    made = host(web, token, {"seats": [{"name": "anything"}, {"open": True}, {"name": "friend"}]})
    seats = made["match"]["seats"]
    assert (seats[0]["name"], seats[0]["account"]) == (name, True)
    assert (seats[2]["name"], seats[2]["account"]) == ("friend", False)
    code = made["match"]["room_code"]
    assert CODE.fullmatch(code)
    view = web.get(f"/v1/matches/{made['match_id']}/view", headers=auth(made["tokens"][0]["token"]))
    assert view.get_json()["room_code"] == code, "the code is in the seat view"


@pytest.mark.parametrize(
    ("header", "status", "reason"),
    [("Bearer not-a-token", 401, "invalid_token")],
)
def test_hosting_with_a_bad_token_is_refused(web: FlaskClient, header: str, status: int, reason: str) -> None:
    refused(web.post("/v1/matches", json=HOSTED, headers={"Authorization": header}), status, reason)


def test_hosting_with_a_token_without_the_play_scope_is_refused_403(web: FlaskClient) -> None:
    _name, session = account(web)
    personal = web.post("/v1/me/tokens", json={"label": "admin", "scopes": ["account"]}, headers=auth(session))
    refused(web.post("/v1/matches", json=HOSTED, headers=auth(personal.get_json()["token"])), 403, "scope_missing")


# ----- codes ---------------------------------------------------------------------------------------------


def test_room_codes_avoid_look_alikes() -> None:
    """Rule: no 0/O, 1/I/L in the alphabet; a code is 6 of it."""
    assert not set("0O1IL") & set(ROOM_ALPHABET)
    assert all(CODE.fullmatch(new_room_code()) for _ in range(500))


def test_a_code_held_by_a_live_match_is_not_given_again(web: FlaskClient, db: Any) -> None:
    """Rule: unique among live matches (a code is claimed before its match is kept)."""
    _name, token = account(web)
    codes = {host(web, token)["match"]["room_code"] for _ in range(30)}
    assert len(codes) == 30
    store = services_of(web.application).game.core.store
    taken = next(iter(codes))
    assert store.claim_room(taken, "f" * 20) is False
    assert db.get(room_key(taken)) != b"f" * 20


def test_a_code_finds_the_match_in_any_case_with_its_host(web: FlaskClient) -> None:
    name, token = account(web)
    made = host(web, token)
    code = made["match"]["room_code"]
    for typed in (code, code.lower(), f" {code.lower()} "):
        found = web.get(f"/v1/rooms/{typed}")
        assert found.status_code == 200, found.json
        room = found.get_json()
        assert room["match_id"] == made["match_id"] and room["room_code"] == code
        assert room["host"] == name and room["status"] == "waiting"
        assert [s["open"] for s in room["seats"]] == [False, True]
        assert room["rules"]["players"] == 2


def test_joining_by_code_seats_anyone_and_deals_when_full(web: FlaskClient) -> None:
    _name, token = account(web)
    made = host(web, token)
    joined = web.post(f"/v1/rooms/{made['match']['room_code'].lower()}/join", json={"name": "guest"})
    assert joined.status_code == 201, joined.json
    seat = joined.get_json()
    assert seat["match_id"] == made["match_id"] and seat["seat"] == 1
    view = web.get(f"/v1/matches/{made['match_id']}/view", headers=auth(seat["token"]))
    assert view.get_json()["status"] == "playing" and view.get_json()["seats"][1]["account"] is False
    refused(web.post(f"/v1/rooms/{made['match']['room_code']}/join", json={"name": "late"}), 409, "match_full")


def test_joining_with_an_account_binds_the_seat_once(web: FlaskClient) -> None:
    _host, token = account(web)
    made = host(web, token, {"seats": [{"name": "h"}, {"open": True}, {"open": True}]})
    code = made["match"]["room_code"]
    guest, guest_token = account(web)
    joined = web.post(f"/v1/rooms/{code}/join", json={}, headers=auth(guest_token))
    assert joined.status_code == 201, joined.json
    public = web.get(f"/v1/matches/{made['match_id']}").get_json()
    assert (public["seats"][1]["name"], public["seats"][1]["account"]) == (guest, True)
    refused(web.post(f"/v1/rooms/{code}/join", json={}, headers=auth(guest_token)), 409, "already_seated")
    refused(web.post(f"/v1/matches/{made['match_id']}/join", json={}, headers=auth(token)), 409, "already_seated")
    assert web.get(f"/v1/matches/{made['match_id']}").get_json()["version"] == public["version"]


def test_joining_without_an_account_needs_a_name(web: FlaskClient) -> None:
    _name, token = account(web)
    made = host(web, token)
    refused(web.post(f"/v1/rooms/{made['match']['room_code']}/join", json={}), 422, "invalid_request")
    assert web.get(f"/v1/matches/{made['match_id']}").get_json()["seats"][1]["open"] is True


@pytest.mark.parametrize("code", ["ABC", "ABCDEFG", "ABCDE0", "ABCDEI", "ABCDE!", "ÄBCDEF"])
def test_a_malformed_code_is_refused_422(web: FlaskClient, code: str) -> None:
    refused(web.get(f"/v1/rooms/{code}"), 422, "invalid_request")


def test_an_unknown_code_is_404_and_many_from_one_address_are_throttled(web: FlaskClient) -> None:
    _name, token = account(web)
    known = host(web, token)["match"]["room_code"]
    unknown = [new_room_code() for _ in range(MAX_ROOM_MISSES)]
    for code in unknown:
        if code != known:
            refused(web.get(f"/v1/rooms/{code}"), 404, "room_not_found")
    throttled = web.get(f"/v1/rooms/{known}")
    refused(throttled, 429, "rate_limited")
    assert int(throttled.headers["Retry-After"]) >= 1
    refused(web.post(f"/v1/rooms/{known}/join", json={"name": "x"}), 429, "rate_limited")
    web.environ_base["REMOTE_ADDR"] = f"198.18.0.{secrets.randbelow(250) + 1}"
    assert web.get(f"/v1/rooms/{known}").status_code == 200, "another address is not throttled"


def test_a_cancelled_match_lets_its_code_go(web: FlaskClient) -> None:
    _name, token = account(web)
    made = host(web, token)
    assert web.delete(f"/v1/matches/{made['match_id']}", headers=auth(token)).status_code == 204
    refused(web.get(f"/v1/rooms/{made['match']['room_code']}"), 404, "room_not_found")


# ----- an account's token acts for its seat ----------------------------------------------------------------


def _dealt(web: FlaskClient) -> tuple[dict[str, Any], str, str]:
    """A dealt 2-seat match: the create answer, the host's account token, the guest's seat token."""
    _name, token = account(web)
    made = host(web, token)
    guest = web.post(f"/v1/rooms/{made['match']['room_code']}/join", json={"name": "guest"}).get_json()
    return made, token, guest["token"]


def test_an_account_token_reads_and_acts_for_its_seat(web: FlaskClient) -> None:
    made, token, guest = _dealt(web)
    match_id = made["match_id"]
    mine = web.get(f"/v1/matches/{match_id}/view", headers=auth(token)).get_json()
    by_seat_token = web.get(f"/v1/matches/{match_id}/view", headers=auth(made["tokens"][0]["token"])).get_json()
    assert mine["seat"] == 0 and mine["cards"] == by_seat_token["cards"]
    tokens = {0: token, 1: guest}
    turn = mine["turn"]
    view = web.get(f"/v1/matches/{match_id}/view", headers=auth(tokens[turn])).get_json()
    acted = web.post(f"/v1/matches/{match_id}/actions", json=lowest(view), headers=auth(tokens[turn]))
    assert acted.status_code == 200, acted.json
    assert web.get(f"/v1/matches/{match_id}/legal", headers=auth(token)).status_code == 200


def test_an_account_without_a_seat_or_the_scope_is_refused(web: FlaskClient) -> None:
    made, token, _guest = _dealt(web)
    match_id = made["match_id"]
    _other, stranger = account(web)
    refused(web.get(f"/v1/matches/{match_id}/view", headers=auth(stranger)), 403, "not_seated")
    personal = web.post("/v1/me/tokens", json={"label": "admin", "scopes": ["account"]}, headers=auth(token))
    refused(web.get(f"/v1/matches/{match_id}/view", headers=auth(personal.get_json()["token"])), 403, "scope_missing")
    before = web.get(f"/v1/matches/{match_id}").get_json()["version"]
    refused(web.post(f"/v1/matches/{match_id}/leave", headers=auth(stranger)), 403, "not_seated")
    assert web.get(f"/v1/matches/{match_id}").get_json()["version"] == before


def test_a_personal_play_token_acts_like_a_session(web: FlaskClient) -> None:
    """Rule: a bot account plays with a personal token of scope play."""
    made, token, _guest = _dealt(web)
    personal = web.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(token))
    view = web.get(f"/v1/matches/{made['match_id']}/view", headers=auth(personal.get_json()["token"]))
    assert view.status_code == 200 and view.get_json()["seat"] == 0


def test_after_leaving_the_account_token_acts_no_more(web: FlaskClient) -> None:
    made, token, _guest = _dealt(web)
    match_id = made["match_id"]
    assert web.post(f"/v1/matches/{match_id}/leave", headers=auth(token)).status_code == 200
    refused(web.get(f"/v1/matches/{match_id}/view", headers=auth(token)), 403, "not_seated")


def test_a_rematch_keeps_the_seat_the_accounts_whichever_token_asks(web: FlaskClient) -> None:
    made, token, guest = _dealt(web)
    match_id = made["match_id"]
    play_out(Api(web), match_id, {0: token, 1: guest})
    by_account = web.post(f"/v1/matches/{match_id}/rematch", headers=auth(token))
    assert by_account.status_code == 201, by_account.json
    by_seat = web.post(f"/v1/matches/{match_id}/rematch", headers=auth(made["tokens"][0]["token"]))
    assert by_seat.get_json() == by_account.get_json(), "one seat, one token in the rematch"
    next_id = by_account.get_json()["match_id"]
    assert web.post(f"/v1/matches/{match_id}/rematch", headers=auth(guest)).status_code == 201
    public = web.get(f"/v1/matches/{next_id}").get_json()
    assert public["status"] == "playing" and public["seats"][0]["account"] is True
    assert web.get(f"/v1/matches/{next_id}/view", headers=auth(token)).get_json()["seat"] == 0
