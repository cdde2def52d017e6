"""The Python client's friends calls against a real server process: follow and unfollow an account, the list of
those followed with their presence and live matches (typed), the profile's follower count, the `friends` setting
and the `friend_started` inbox event it brings, and a refusal raised as an ApiError with its reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")


def test_following_an_account_shows_it_playing_and_tells_of_its_start(live_server: str) -> None:
    """Rule: a follow (idempotent) lists the account with its presence; once it starts a match it is `playing`
    with that match, and a follower with `friends` on hears `friend_started`; an unfollow empties the list."""
    client = Client(live_server)
    fan, star = new_member(client), new_member(client)
    assert client.set_my_settings(fan.session, friends=True) == {"rated": True, "casual": True, "friends": True}
    client.follow_account(fan.token, star.name)
    client.follow_account(fan.token, star.name.upper())
    (listed,) = client.following(fan.token)
    assert (listed["name"], listed["bot"], listed["presence"], listed["matches"]) == (star.name, True, "away", [])
    assert client.player(star.name)["followers"] == 1
    started = client.challenge(star.token, ["easy"], 2, preset="ladder")
    (listed,) = client.following(fan.token)
    assert listed["presence"] == "playing"
    assert [m["match_id"] for m in listed["matches"]] == [started["match_id"]]
    told = [e for e in client.my_events(fan.token)["events"] if e["type"] == "friend_started"]
    assert [(e["name"], e["match_id"], e["watchable"]) for e in told] == [(star.name, started["match_id"], True)]
    client.unfollow_account(fan.token, star.name)
    assert client.following(fan.token) == [] and client.player(star.name)["followers"] == 0


def test_a_refused_follow_raises_its_reason(live_server: str) -> None:
    """Rule: following oneself is 422 invalid_request, an unknown name 404 player_not_found."""
    client = Client(live_server)
    me = new_member(client)
    for name, expected in ((me.name, (422, "invalid_request")), ("nobody" + me.name, (404, "player_not_found"))):
        with pytest.raises(ApiError) as refused:
            client.follow_account(me.token, name)
        assert (refused.value.status, refused.value.reason) == expected
