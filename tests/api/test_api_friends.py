"""Friends: following accounts, their presence and live matches, `friend_started` on the inbox, profiles' counts.

Rules checked: following is idempotent and refused (with its reason, changing nothing) for an unknown name, the
account itself, a house bot, past the cap, without a token or the `play` scope; an account followed is `playing`
(its live match listed) while seated in a dealt match it still plays, `online` after listening to its inbox,
`away` otherwise; the list is ordered playing, online, away, then by name; `friend_started` reaches only
followers whose `friends` setting is on; a profile counts its followers.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import Api, json_object
from tests.support.lifecycle import play_out, tokens_of
from tienlen.api.services import services_of
from tienlen.service import friends as friends_module
from tienlen.service import live_seats as live_seats_module
from tienlen.service.inbox import ONLINE_S


def member(client: FlaskClient, prefix: str = "f", kind: str = "human") -> tuple[str, str]:
    """A new account: its name and session token."""
    name = fresh_name(prefix)
    return name, str(sign_up(client, name, kind=kind)["token"])


def follow(client: FlaskClient, token: str, name: str, method: str = "PUT") -> tuple[int, str | None]:
    """PUT (or DELETE) /v1/me/following/{name}: the status and the reason of a refusal (None for a 204)."""
    answer = client.open(f"/v1/me/following/{name}", method=method, headers=auth(token))
    return answer.status_code, None if answer.status_code == 204 else json_object(answer)["reason"]


def following(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    """GET /v1/me/following's list; assert 200."""
    answer = client.get("/v1/me/following", headers=auth(token))
    assert answer.status_code == 200, answer.json
    listed: list[dict[str, Any]] = json_object(answer)["following"]
    return listed


def presence(client: FlaskClient, token: str) -> dict[str, str]:
    """Each followed account's presence, by name."""
    return {friend["name"]: friend["presence"] for friend in following(client, token)}


def followers(client: FlaskClient, name: str) -> int:
    """The profile's follower count."""
    answer = client.get(f"/v1/players/{name}")
    assert answer.status_code == 200, answer.json
    return int(json_object(answer)["followers"])


def inbox_types(client: FlaskClient, token: str) -> list[dict[str, Any]]:
    """Every event of the account's inbox (listening makes it online)."""
    answer = client.get("/v1/me/events", headers=auth(token))
    assert answer.status_code == 200, answer.json
    events: list[dict[str, Any]] = json_object(answer)["events"]
    return events


def indexed(app: Flask, name: str) -> list[str]:
    """The match ids the live-seats index holds for the account named ``name`` (read, not pruned)."""
    store = services_of(app).game.core.store
    account = store.accounts().find(name)
    assert account is not None
    return [match_id for match_id, _ in store.live_seats().of(account.account_id)]


def challenge_bots(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    """A one-hand match against a house bot, dealt at once; assert 201."""
    sent = {"preset": "ladder", "to": ["easy"], "players": 2, **body}
    answer = client.post("/v1/challenges", json=sent, headers=auth(token))
    assert answer.status_code == 201, answer.json
    return json_object(answer)


def set_friends(client: FlaskClient, token: str, on: bool) -> dict[str, Any]:
    """PUT /v1/me/settings {friends}; assert 200."""
    answer = client.put("/v1/me/settings", json={"friends": on}, headers=auth(token))
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def test_follow_and_unfollow_answer_each_case_with_its_status(client: FlaskClient) -> None:
    """Rule: a follow or unfollow is 204 and idempotent; an unknown name 404 player_not_found; oneself or a house
    bot 422 invalid_request; no token 401; a play-less token 403; each refusal changes nothing."""
    me, token = member(client)
    friend, _ = member(client)
    made = client.post("/v1/me/tokens", json={"label": "acct", "scopes": ["account"]}, headers=auth(token))
    account_only = json_object(made)["token"]
    cases: list[tuple[str, str, str, tuple[int, str | None], list[str]]] = [
        ("follow", token, friend, (204, None), [friend]),
        ("follow again", token, friend.upper(), (204, None), [friend]),
        ("unknown", token, fresh_name("nobody"), (404, "player_not_found"), [friend]),
        ("myself", token, me, (422, "invalid_request"), [friend]),
        ("myself in capitals", token, me.upper(), (422, "invalid_request"), [friend]),
        ("a house bot", token, "easy", (422, "invalid_request"), [friend]),
        ("no token", "", friend, (401, "invalid_token"), [friend]),
        ("no play scope", account_only, fresh_name("x"), (403, "scope_missing"), [friend]),
    ]
    for about, sent, name, expected, after in cases:
        assert follow(client, sent, name) == expected, about
        assert [f["name"] for f in following(client, token)] == after, about
    assert followers(client, friend) == 1 and followers(client, me) == 0
    unfollows: list[tuple[str, str, tuple[int, str | None], int]] = [
        ("unknown", fresh_name("nobody"), (404, "player_not_found"), 1),
        ("unfollow", friend, (204, None), 0),
        ("unfollow again", friend, (204, None), 0),
        ("never followed", me, (204, None), 0),
    ]
    for about, name, expected, count in unfollows:
        assert follow(client, token, name, "DELETE") == expected, about
        assert followers(client, friend) == count, about
    assert following(client, token) == []


def test_following_past_the_cap_is_refused_and_changes_nothing(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: an account follows at most MAX_FOLLOWED others: one more is 409 too_many_followed and is neither
    listed nor counted; following one already followed at the cap is still 204; after an unfollow there is room."""
    monkeypatch.setattr(friends_module, "MAX_FOLLOWED", 2)
    _me, token = member(client)
    (a, _), (b, _), (c, _) = member(client), member(client), member(client)
    assert follow(client, token, a) == follow(client, token, b) == (204, None)
    assert follow(client, token, c) == (409, "too_many_followed")
    assert follow(client, token, a) == (204, None)
    assert sorted(f["name"] for f in following(client, token)) == sorted([a, b])
    assert followers(client, c) == 0
    assert follow(client, token, b, "DELETE") == (204, None)
    assert follow(client, token, c) == (204, None)
    assert followers(client, c) == 1


def test_presence_is_playing_with_its_match_then_away_after_the_end_and_online_after_listening(
    app: Flask, api: Api, client: FlaskClient
) -> None:
    """Rule: an account seated in a dealt match is `playing` with that match listed (id, seats, rated, when it
    started); once the match is over it is `away` with no match; listening to its inbox makes it `online` (with
    `last_seen`) for a minute; the list is ordered playing, online, away."""
    _me, token = member(client)
    (player, player_token), (listener, listener_token), (idle, _) = member(client), member(client), member(client)
    for name in (idle, listener, player):
        assert follow(client, token, name) == (204, None)
    assert presence(client, token) == {idle: "away", listener: "away", player: "away"}
    created = challenge_bots(client, player_token, rated=True)
    inbox_types(client, listener_token)
    listed = following(client, token)
    assert [f["name"] for f in listed] == [player, listener, idle]
    assert [f["presence"] for f in listed] == ["playing", "online", "away"]
    (match,) = listed[0]["matches"]
    assert match | {"started_at": None} == {
        "match_id": created["match_id"],
        "watchable": True,
        "players": 2,
        "rated": True,
        "started_at": None,
    }
    assert listed[1]["matches"] == [] and listed[1]["last_seen"] is not None and listed[2]["last_seen"] is None
    assert listed[0]["bot"] is False
    assert indexed(app, player) == [created["match_id"]]
    play_out(api, created["match_id"], tokens_of(created))
    assert indexed(app, player) == []
    assert presence(client, token) == {player: "away", listener: "online", idle: "away"}
    service = services_of(app).friends
    real = service.now
    service.now = lambda: real() + ONLINE_S + 1
    try:
        assert presence(client, token) == {idle: "away", listener: "away", player: "away"}
    finally:
        service.now = real
    assert all(f["matches"] == [] for f in following(client, token))


def test_an_account_that_leaves_its_match_is_playing_no_more_while_the_match_goes_on(
    app: Flask, client: FlaskClient
) -> None:
    """Rule: a seat left (taken over by a bot) takes the match out of its account's live matches, while the
    others still playing it keep it."""
    _me, token = member(client)
    (a, a_token), (b, b_token) = member(client), member(client)
    inbox_types(client, b_token)  # online: may be challenged
    sent = client.post(
        "/v1/challenges", json={"preset": "standard", "to": [b, "easy"], "players": 3}, headers=auth(a_token)
    )
    assert sent.status_code == 201, sent.json
    started = client.post(f"/v1/challenges/{json_object(sent)['challenge_id']}/accept", headers=auth(b_token))
    assert started.status_code == 200, started.json
    match_id = json_object(started)["match_id"]
    for name in (a, b):
        follow(client, token, name)
    assert {f["name"]: [m["match_id"] for m in f["matches"]] for f in following(client, token)} == {
        a: [match_id],
        b: [match_id],
    }
    assert client.post(f"/v1/matches/{match_id}/leave", headers=auth(a_token)).status_code == 200
    assert indexed(app, a) == [] and indexed(app, b) == [match_id]
    listed = {f["name"]: f for f in following(client, token)}
    assert listed[a]["matches"] == [] and listed[a]["presence"] != "playing"
    assert [m["match_id"] for m in listed[b]["matches"]] == [match_id] and listed[b]["presence"] == "playing"


def test_friend_started_reaches_only_followers_with_the_setting_on(client: FlaskClient) -> None:
    """Rule: when a followed account's match is dealt, each follower with `friends` on hears friend_started (its
    name, the match, seats, rated, watchable), once; a follower with it off, and an account following someone
    else, hear nothing of it; the setting is off until changed and shown by GET /v1/me/settings."""
    (star, star_token), (_fan, fan_token), (_quiet, quiet_token), (_other, other_token) = (
        member(client) for _ in "abcd"
    )
    elsewhere, _ = member(client)
    assert json_object(client.get("/v1/me/settings", headers=auth(fan_token))) == {
        "rated": True,
        "casual": True,
        "friends": False,
    }
    assert set_friends(client, fan_token, True) == {"rated": True, "casual": True, "friends": True}
    set_friends(client, other_token, True)
    follow(client, fan_token, star)
    follow(client, quiet_token, star)
    follow(client, other_token, elsewhere)
    created = challenge_bots(client, star_token)
    told = [e for e in inbox_types(client, fan_token) if e["type"] == "friend_started"]
    assert [e | {"seq": None, "at": None} for e in told] == [
        {
            "seq": None,
            "type": "friend_started",
            "at": None,
            "name": star,
            "match_id": created["match_id"],
            "watchable": True,
            "players": 2,
            "rated": False,
        }
    ]
    assert inbox_types(client, quiet_token) == []
    assert inbox_types(client, other_token) == []
    set_friends(client, fan_token, False)
    challenge_bots(client, star_token)
    assert len([e for e in inbox_types(client, fan_token) if e["type"] == "friend_started"]) == 1


def test_turning_the_setting_on_after_following_tells_of_the_next_start(client: FlaskClient) -> None:
    """Rule: the setting counts whenever it is turned on, for the accounts followed before it too."""
    (star, star_token), (_fan, fan_token) = member(client), member(client)
    follow(client, fan_token, star)
    set_friends(client, fan_token, True)
    created = challenge_bots(client, star_token)
    told = [e["match_id"] for e in inbox_types(client, fan_token) if e["type"] == "friend_started"]
    assert told == [created["match_id"]]


def test_bad_settings_bodies_are_refused_and_change_nothing(client: FlaskClient) -> None:
    """Rule: `friends` must be a boolean (422 invalid_request) and needs the `account` scope (403)."""
    _name, token = member(client)
    made = client.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(token))
    play_only = json_object(made)["token"]
    for headers, body, status, reason in [
        (auth(token), {"friends": "yes"}, 422, "invalid_request"),
        (auth(token), {"friends": None}, 422, "invalid_request"),
        (auth(play_only), {"friends": True}, 403, "scope_missing"),
    ]:
        answer = client.put("/v1/me/settings", json=body, headers=headers)
        assert (answer.status_code, json_object(answer)["reason"]) == (status, reason), body
    assert json_object(client.get("/v1/me/settings", headers=auth(token)))["friends"] is False


def test_a_deleted_account_leaves_the_lists_and_the_counts(client: FlaskClient) -> None:
    """Rule: deleting an account takes it out of the lists of those following it and out of the counts of those
    it followed."""
    (gone, gone_token), (_fan, fan_token), (star, _) = member(client), member(client), member(client)
    follow(client, fan_token, gone)
    follow(client, gone_token, star)
    assert followers(client, star) == 1
    answer = client.delete("/v1/me", json={"password": "correct horse battery"}, headers=auth(gone_token))
    assert answer.status_code == 204, answer.json
    assert following(client, fan_token) == [] and followers(client, star) == 0


def test_friend_started_is_told_to_the_first_fans_only(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: the fan-out of one start is bounded: only the first MAX_FRIENDS_TOLD followers with the setting on
    (in the order they followed) are told."""
    monkeypatch.setattr(live_seats_module, "MAX_FRIENDS_TOLD", 1)
    (star, star_token), (_first, first_token), (_second, second_token) = member(client), member(client), member(client)
    for token in (first_token, second_token):
        set_friends(client, token, True)
        follow(client, token, star)
    challenge_bots(client, star_token)
    assert [e["type"] for e in inbox_types(client, first_token)] == ["friend_started"]
    assert inbox_types(client, second_token) == []


def test_a_fan_seated_in_the_same_match_is_not_told_of_it(client: FlaskClient) -> None:
    """Rule: a follower who sits in the match its followed account starts hears match_started, not friend_started."""
    (star, star_token), (fan, fan_token) = member(client), member(client)
    set_friends(client, fan_token, True)
    follow(client, fan_token, star)
    inbox_types(client, fan_token)  # online: may be challenged
    sent = client.post("/v1/challenges", json={"preset": "ladder", "to": [fan], "players": 2}, headers=auth(star_token))
    assert sent.status_code == 201, sent.json
    accepted = client.post(f"/v1/challenges/{json_object(sent)['challenge_id']}/accept", headers=auth(fan_token))
    assert accepted.status_code == 200, accepted.json
    told = [e["type"] for e in inbox_types(client, fan_token)]
    assert "match_started" in told and "friend_started" not in told
