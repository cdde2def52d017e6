"""The Python client's room calls against a real server process: a room code finds its match (any case), anyone
joins by it with or without an account, and each refusal raises ``ApiError`` with its reason. The answers' types
are the contract's."""

from __future__ import annotations

import json
import re
import secrets
import sys
import typing
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, LobbySeat, Room, RoomSeat
from tienlen_client.rooms import MatchStatus

from tests.clients.people import new_member

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile("[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6}")

pytestmark = pytest.mark.xdist_group("live_server")


def _host_match(client: Client, open_seats: int = 2) -> tuple[str, str, str]:
    """A match hosted by a new account with ``open_seats`` open seats: its id, room code and host's name."""
    host = new_member(client)
    seats: list[dict[str, Any]] = [{"type": "remote", "name": "me"}] + [{"type": "open", "open": True}] * open_seats
    created = client.create_match(seats, rules={"hands": 1}, token=host.token)
    code = created["match"]["room_code"]
    assert isinstance(code, str) and CODE.fullmatch(code)
    return created["match_id"], code, host.name


def test_a_room_code_finds_its_match_in_any_case(live_server: str) -> None:
    """Rule: GET /v1/rooms/{code} (any case) answers the match's id, status, seats, rules and host, typed as Room."""
    client = Client(live_server)
    match_id, code, host = _host_match(client)
    room = client.room(code.lower())
    assert set(room) == Room.__required_keys__
    assert (room["room_code"], room["match_id"], room["status"], room["host"]) == (code, match_id, "waiting", host)
    assert room["rules"]["hands"] == 1 and room["created_at"]
    assert [set(seat) == LobbySeat.__required_keys__ for seat in room["seats"]] == [True] * 3
    first, *others = room["seats"]
    assert (first["name"], first["account"], first["open"], first["bot"]) == (host, True, False, None)
    assert [(s["seat"], s["open"], s["account"], s["name"]) for s in others] == [
        (1, True, False, None),
        (2, True, False, None),
    ]


def test_anyone_joins_by_room_code_with_or_without_an_account_until_the_match_is_full(live_server: str) -> None:
    """Rule: POST /v1/rooms/{code}/join takes the lowest open seat (the account's with its token), answers the match,
    the seat and a token that acts for it; once no seat is open it is 409 match_full."""
    client = Client(live_server)
    match_id, code, _ = _host_match(client)
    guest = client.join_room(code, "Guest")
    assert set(guest) == RoomSeat.__required_keys__
    assert (guest["match_id"], guest["seat"]) == (match_id, 1)
    assert client.seat(match_id, guest["token"]).view()["seat"] == 1
    member = new_member(client)
    joined = client.join_room(code, token=member.token, entropy="member's own")
    assert (joined["match_id"], joined["seat"]) == (match_id, 2)
    state = client.match(match_id)
    assert state["status"] == "playing" and state["room_code"] == code
    host_entropy, guest_entropy, member_entropy = state["fair_deal"]["entropy"]
    assert member_entropy == "member's own", "the joiner's entropy is its seat's"
    # the client draws fresh entropy for every other seat it takes (the host's, the guest's)
    assert all(re.fullmatch("[0-9a-f]{32}", e) for e in (host_entropy, guest_entropy)) and host_entropy != guest_entropy
    assert (state["seats"][2]["name"], state["seats"][2]["account"]) == (member.name, True)
    assert state["seats"][1]["account"] is False
    assert client.seat(match_id, member.token).view()["seat"] == 2, "the account's token acts for its seat"
    assert client.room(code)["status"] == "playing"
    with pytest.raises(ApiError) as full:
        client.join_room(code, "Late")
    assert (full.value.status, full.value.reason) == (409, "match_full")
    assert full.value.request == f"POST /v1/rooms/{code}/join"


def test_an_account_takes_one_seat_of_a_room(live_server: str) -> None:
    """Rule: an account that already sits in the room's match is refused another seat (409 already_seated)."""
    client = Client(live_server)
    match_id, code, _ = _host_match(client, open_seats=3)
    member = new_member(client)
    joined = client.join_room(code, token=member.token)
    assert (joined["match_id"], joined["seat"]) == (match_id, 1)
    with pytest.raises(ApiError) as again:
        client.join_room(code.lower(), token=member.token)
    assert (again.value.status, again.value.reason) == (409, "already_seated")
    assert [s["open"] for s in client.room(code)["seats"]] == [False, False, True, True]


def test_an_unknown_or_malformed_room_code_is_refused_with_its_reason(live_server: str) -> None:
    """Rule: a code no match has is 404 room_not_found (lookup and join); text that cannot be a code is 422."""
    client = Client(live_server)
    unknown = "".join(secrets.choice("23456789ABCDEFGHJKMNPQRSTUVWXYZ") for _ in range(6))
    with pytest.raises(ApiError) as missing:
        client.room(unknown)
    assert (missing.value.status, missing.value.reason) == (404, "room_not_found")
    with pytest.raises(ApiError) as no_join:
        client.join_room(unknown, "Ann")
    assert (no_join.value.status, no_join.value.reason) == (404, "room_not_found")
    with pytest.raises(ApiError) as malformed:
        client.room("0O1IL!")
    assert (malformed.value.status, malformed.value.reason) == (422, "invalid_request")


def _schema(name: str) -> dict[str, Any]:
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    found: dict[str, Any] = contract["components"]["schemas"][name]
    return found


@pytest.mark.parametrize(
    ("typed", "schema"),
    [(Room, "Room"), (LobbySeat, "LobbySeat"), (RoomSeat, "RoomSeat")],
)
def test_the_room_types_have_the_contracts_fields(typed: Any, schema: str) -> None:
    """Rule: each typed answer of the room calls has exactly the fields the contract's schema has, all required."""
    fields = _schema(schema)
    assert typed.__required_keys__ == set(fields["properties"]) == set(fields["required"])


def test_the_match_status_type_is_the_contracts() -> None:
    """Rule: the statuses a Room may carry are the contract's MatchStatus."""
    assert set(typing.get_args(MatchStatus)) == set(_schema("MatchStatus")["enum"])
