"""The Python client plays under an account against a real server process: a match made or joined with an
account's token binds the seat to the account, and that one token then views, asks for hints and legal plays,
acts, asks for the rematch and leaves, in this match and the next, with no seat token."""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import lowest_from_legal, play_match
from tienlen_client import ApiError, Client, Seat

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")


def hinted(seat: Seat, view: dict[str, Any]) -> list[str] | None:
    """The server's hint for the seat (GET …/hint), as a play's cards or None to pass."""
    action = seat.hint()["action"]
    return list(action["cards"]) if action["type"] == "play" else None


def test_an_account_token_plays_a_whole_match_and_its_rematch(live_server: str) -> None:
    """Rule: with the account's token, create_match binds the first seat to the account, and the same token views,
    asks for hints and legal plays, acts to the end, asks for the rematch, plays there and leaves it."""
    client = Client(live_server)
    member = new_member(client)
    seats = [{"type": "remote", "name": "me"}, {"type": "bot", "name": "Bo", "bot": "easy"}]
    created = client.create_match(seats, rules={"hands": 1}, seed=5, token=member.token)
    match_id = created["match_id"]
    first = created["match"]["seats"][0]
    assert (first["name"], first["account"]) == (member.name, True)
    assert created["match"]["seats"][1]["account"] is False
    seat = client.seat(match_id, member.token)
    assert seat.view()["seat"] == 0 and "plays" in seat.legal()
    final = play_match(seat, choose=hinted)  # every play is the hint's, asked with the account's token
    assert final["status"] == "finished" and final["seat"] == 0
    assert client.match(match_id)["winner"] in (0, 1)

    again = seat.rematch()
    assert again["seat"] == 0 and again["match_id"] != match_id
    assert seat.rematch() == again, "the same call again answers the same"
    following = client.seat(again["match_id"], member.token)  # the account's token, not again["token"]
    view = following.view()
    assert (view["seat"], view["status"]) == (0, "playing")
    assert view["seats"][0]["account"] is True
    left = following.leave()
    assert left["seats"][0]["left"] is True
    with pytest.raises(ApiError) as gone:
        following.view()
    assert (gone.value.status, gone.value.reason) == (403, "not_seated")


def test_an_account_joins_by_match_id_and_both_seats_play_to_the_end(live_server: str) -> None:
    """Rule: join with an account's token needs no name, seats the account (409 already_seated a second time), and
    the account's token plays the seat beside a seat token."""
    client = Client(live_server)
    seats: list[dict[str, Any]] = [
        {"type": "remote", "name": "Ann"},
        {"type": "open", "open": True},
        {"type": "open", "open": True},
    ]
    created = client.create_match(seats, rules={"hands": 1})
    match_id = created["match_id"]
    member = new_member(client)
    joined = client.join(match_id, token=member.token)
    assert joined["seat"] == 1
    seated = client.match(match_id)["seats"][1]
    assert (seated["name"], seated["account"], seated["open"]) == (member.name, True, False)
    with pytest.raises(ApiError) as twice:
        client.join(match_id, token=member.token)
    assert (twice.value.status, twice.value.reason) == (409, "already_seated")
    guest = client.join(match_id, "Cy", entropy="cy 42")["token"]
    host_entropy, member_entropy, guest_entropy = client.match(match_id)["fair_deal"]["entropy"]
    assert guest_entropy == "cy 42", "a join's entropy is its seat's"
    # the client draws fresh entropy for every other seat it takes (the host's, the member's)
    assert all(re.fullmatch("[0-9a-f]{32}", e) for e in (host_entropy, member_entropy))
    assert host_entropy != member_entropy

    finals: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(token: str) -> None:
        try:
            finals.append(play_match(Client(live_server).seat(match_id, token), choose=lowest_from_legal))
        except BaseException as error:
            errors.append(error)

    tokens = (created["tokens"][0]["token"], member.token, guest)
    players = [threading.Thread(target=run, args=(token,)) for token in tokens]
    for player in players:
        player.start()
    for player in players:
        player.join(timeout=120)
    assert not errors, errors
    assert sorted(f["seat"] for f in finals) == [0, 1, 2] and all(f["status"] == "finished" for f in finals)


def test_account_tokens_that_cannot_act_for_a_seat_are_refused_with_their_reason(live_server: str) -> None:
    """Rule: a token without the play scope is 403 scope_missing; another account's is 403 not_seated; an unknown
    token is 401 invalid_token, also when creating a match."""
    client = Client(live_server)
    member = new_member(client)
    created = client.create_match([{"name": "me"}, {"name": "Bo", "bot": "easy"}], seed=3, token=member.token)
    match_id = created["match_id"]
    account_only = client.create_token(member.session, "no play", ["account"])["token"]
    stranger = new_member(client)
    for token, status, reason in [
        (account_only, 403, "scope_missing"),
        (stranger.token, 403, "not_seated"),
        ("not-a-token", 401, "invalid_token"),
    ]:
        with pytest.raises(ApiError) as refused:
            client.seat(match_id, token).view()
        assert (refused.value.status, refused.value.reason) == (status, reason), token
    with pytest.raises(ApiError) as unknown:
        client.create_match([{"name": "me"}, {"name": "Bo", "bot": "easy"}], token="not-a-token")
    assert (unknown.value.status, unknown.value.reason) == (401, "invalid_token")
