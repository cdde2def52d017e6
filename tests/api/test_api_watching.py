"""Watching a match: who may read one whose host turned watching off, the spectators count, hands shown once over,
and the profile's live matches (the live table is tests/api/test_api_live.py; the leak scan test_api_leak_scan.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import Api, json_object
from tienlen.api.services import services_of
from tienlen.service import watching

TWO = [{"name": "ann"}, {"name": "bob"}]
PUBLIC_READS = ["", "/events", "/events?wait=0.1", "/stream", "/replay"]


def create(api: Api, **more: Any) -> tuple[str, list[str]]:
    created = api.create(seats=TWO, rules={"preset": "standard"}, **more)
    return created["match_id"], [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]


def play_out(api: Api, match_id: str, tokens: list[str]) -> dict[str, Any]:
    """Play the match to its end (each seat on turn plays its first legal play, or passes)."""
    state = api.view(match_id, tokens[0])
    while state["status"] == "playing":
        seat = state["turn"]
        legal = api.legal(match_id, tokens[seat])
        body = {"type": "play", "cards": legal["plays"][0]["cards"]} if legal["plays"] else {"type": "pass"}
        answer = api.act(match_id, tokens[seat], body)
        assert answer.status_code == 200, answer.json
        state = json_object(answer)
    return state


class Reads(Api):
    """The API, with a read of the public match as a given token."""

    def public_as(self, match_id: str, token: str | None) -> dict[str, Any]:
        headers = {} if token is None else auth(token)
        return json_object(self.client.get(f"/v1/matches/{match_id}", headers=headers))


@pytest.fixture
def reads(client: FlaskClient) -> Reads:
    """The API over the test client, reading the match as a token too."""
    return Reads(client)


@pytest.mark.parametrize("path", PUBLIC_READS)
def test_a_match_not_watchable_refuses_each_public_read_to_a_stranger_and_serves_its_seats(
    reads: Reads, client: FlaskClient, path: str
) -> None:
    """Rule: with watching off, the match, its events, stream and replay answer 403 not_watchable to a reader
    without a seat's token (none, an unknown one, another match's seat), and serve a seat's token."""
    match_id, tokens = create(reads, watchable=False)
    _, others = create(reads)
    if path == "/replay":
        play_out(reads, match_id, tokens)
    for headers in ({}, auth("not-a-token-at-all"), auth(others[0])):
        answer = client.get(f"/v1/matches/{match_id}{path}", headers=headers)
        assert answer.status_code == 403, (path, headers)
        assert answer.get_json()["reason"] == "not_watchable"
    seat = client.get(f"/v1/matches/{match_id}{path}", headers=auth(tokens[1]))
    assert seat.status_code in (200, 204), (path, seat.status_code)
    watchable_id, _ = create(reads)
    if path != "/replay":
        assert client.get(f"/v1/matches/{watchable_id}{path}").status_code in (200, 204)


def test_a_seated_accounts_play_token_reads_a_match_not_watchable_and_another_account_may_not(
    reads: Reads, client: FlaskClient
) -> None:
    """Rule: a play-scope token of an account seated in the match reads it; another account's is refused."""
    host = sign_up(client, fresh_name())
    stranger = sign_up(client, fresh_name())
    answer = client.post(
        "/v1/matches", json={"seats": [{"name": "x"}, {"name": "bot", "bot": "easy"}], "watchable": False},
        headers=auth(host["token"]),
    )  # fmt: skip
    match_id = json_object(answer)["match_id"]
    assert client.get(f"/v1/matches/{match_id}", headers=auth(host["token"])).status_code == 200
    refused = client.get(f"/v1/matches/{match_id}/events", headers=auth(stranger["token"]))
    assert refused.status_code == 403 and refused.get_json()["reason"] == "not_watchable"


def test_watchable_is_on_by_default_answered_and_kept_by_a_rematch(reads: Reads, client: FlaskClient) -> None:
    """Rule: watchable defaults to true, the match answers it, and a rematch copies it (false stays false)."""
    match_id, _ = create(reads)
    assert reads.public(match_id)["watchable"] is True
    closed_id, tokens = create(reads, watchable=False)
    assert reads.public_as(closed_id, tokens[0])["watchable"] is False
    play_out(reads, closed_id, tokens)
    again = client.post(f"/v1/matches/{closed_id}/rematch", headers=auth(tokens[0]))
    assert again.status_code == 201, again.json
    next_id = again.get_json()["match_id"]
    assert client.get(f"/v1/matches/{next_id}").status_code == 403
    assert reads.public_as(next_id, again.get_json()["token"])["watchable"] is False


@pytest.mark.parametrize("value", [None, 1, "no", "true"])
def test_a_watchable_that_is_no_boolean_is_refused(client: FlaskClient, value: Any) -> None:
    """Rule: watchable takes JSON true or false only (422 invalid_request)."""
    answer = client.post("/v1/matches", json={"seats": TWO, "watchable": value})
    assert answer.status_code == 422 and answer.get_json()["reason"] == "invalid_request"


@pytest.mark.parametrize("watcher", ["", "x" * 65, "a b", "a/b", "é"])
def test_a_bad_watcher_id_is_refused(reads: Reads, client: FlaskClient, watcher: str) -> None:
    """Rule: a long poll's watcher is 1 to 64 of A-Z a-z 0-9 _ - (else 422 invalid_request, nothing counted)."""
    match_id, _ = create(reads)
    answer = client.get(f"/v1/matches/{match_id}/events", query_string={"watcher": watcher})
    assert answer.status_code == 422 and answer.get_json()["reason"] == "invalid_request"
    assert reads.public(match_id)["spectators"] == 0


def test_long_polls_naming_a_watcher_are_counted_once_each_and_seats_are_not(reads: Reads, client: FlaskClient) -> None:
    """Rule: each distinct watcher id counts once however often it polls; a poll without one, or with a seat's
    token, does not count; the count shows in the match and in a seat's view."""
    match_id, tokens = create(reads)
    for watcher in ("w1", "w2", "w1", "w3", "w2"):
        assert client.get(f"/v1/matches/{match_id}/events", query_string={"watcher": watcher}).status_code == 200
    client.get(f"/v1/matches/{match_id}/events")
    client.get(f"/v1/matches/{match_id}/events", query_string={"watcher": "seat"}, headers=auth(tokens[0]))
    assert reads.public(match_id)["spectators"] == 3
    assert reads.view(match_id, tokens[0])["spectators"] == 3


def test_the_count_falls_once_a_watcher_is_not_seen_for_the_window(
    app: Flask, reads: Reads, client: FlaskClient
) -> None:
    """Rule: a spectator not seen for 30 s is no longer counted."""
    match_id, _ = create(reads)
    client.get(f"/v1/matches/{match_id}/events", query_string={"watcher": "old"})
    core = services_of(app).game.core
    real = core.now
    core.now = lambda: real() + watching.WINDOW_S + 1
    try:
        assert reads.public(match_id)["spectators"] == 0
    finally:
        core.now = real


class Stream:
    """An SSE stream read on a thread of its own (the test client's body is read as it comes)."""

    def __init__(self, client: FlaskClient, url: str, headers: dict[str, str] | None = None) -> None:
        self.response = client.get(url, headers=headers or {}, buffered=False)
        assert self.response.status_code == 200
        self.chunks = iter(self.response.response)
        assert next(self.chunks) == b": following\n\n"

    def close(self) -> None:
        self.response.close()


def test_streams_count_while_open_and_fall_when_closed_and_a_seats_stream_is_not_counted(
    reads: Reads, client: FlaskClient
) -> None:
    """Rule: each open stream without a seat's token is one spectator; closing it takes it off the count at once."""
    match_id, tokens = create(reads)
    streams = [Stream(client, f"/v1/matches/{match_id}/stream") for _ in range(3)]
    seat = Stream(client, f"/v1/matches/{match_id}/stream", auth(tokens[0]))
    assert reads.public(match_id)["spectators"] == 3
    streams[0].close()
    streams[1].close()
    assert reads.public(match_id)["spectators"] == 1
    streams[2].close()
    seat.close()
    assert reads.public(match_id)["spectators"] == 0


def test_hand_shown_follows_every_hand_ended_with_the_replays_deal(reads: Reads, client: FlaskClient) -> None:
    """Rule: right after each hand_ended comes hand_shown with every seat's cards as dealt (the replay's deal), the
    match's completed hands carry the same deal, and no hand_shown comes before its hand is over."""
    created = reads.create(seats=TWO, rules={"preset": "standard", "hands": 3}, seed=7)
    match_id = created["match_id"]
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    first = json_object(client.get(f"/v1/matches/{match_id}/events"))["events"]
    assert not any(e["type"] == "hand_shown" for e in first)
    state = play_out(reads, match_id, tokens)
    events = json_object(client.get(f"/v1/matches/{match_id}/events"))["events"]
    ended = [i for i, e in enumerate(events) if e["type"] == "hand_ended"]
    shown = [i for i, e in enumerate(events) if e["type"] == "hand_shown"]
    assert len(ended) == 3 and shown == [i + 1 for i in ended]
    replay = json_object(client.get(f"/v1/matches/{match_id}/replay"))
    deals = [hand["deal"] for hand in replay["hands"]]
    assert [events[i]["hands"] for i in shown] == deals
    assert [events[i]["hand_number"] for i in shown] == [1, 2, 3]
    assert [hand["dealt"] for hand in state["hands"]] == deals
    assert [hand["dealt"] for hand in reads.public(match_id)["hands"]] == deals


def test_a_fixed_first_deal_is_the_one_shown(reads: Reads) -> None:
    """Rule: a match made with a fixed first deal shows exactly that deal once the hand is over."""
    deal = [["3S", "4S", "5S"], ["6S", "7S", "2H"]]
    created = reads.create(seats=TWO, rules={"preset": "standard", "hands": 1}, deal=deal)
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    state = play_out(reads, created["match_id"], tokens)
    assert state["hands"][0]["dealt"] == deal


def test_a_profile_lists_the_live_matches_it_plays_until_they_end(reads: Reads, client: FlaskClient) -> None:
    """Rule: a player's profile answers playing: its live matches (id, watchable, seats, rated); a left one goes."""
    player = sign_up(client, fresh_name())
    name = player["account"]["name"]
    made = []
    for watchable_flag in (True, False):
        answer = client.post(
            "/v1/matches",
            json={"seats": [{"name": "x"}, {"name": "b", "bot": "easy"}], "watchable": watchable_flag, "seed": 3},
            headers=auth(player["token"]),
        )
        made.append(json_object(answer))
    profile = json_object(client.get(f"/v1/players/{name}"))
    assert sorted((p["match_id"], p["watchable"], p["players"], p["rated"]) for p in profile["playing"]) == sorted(
        (m["match_id"], w, 2, False) for m, w in zip(made, (True, False), strict=True)
    )
    leave = client.post(f"/v1/matches/{made[0]['match_id']}/leave", headers=auth(player["token"]))
    assert leave.status_code == 200, leave.json
    profile = json_object(client.get(f"/v1/players/{name}"))
    assert [p["match_id"] for p in profile["playing"]] == [made[1]["match_id"]]


def test_no_card_of_the_dealt_hands_is_in_a_stream_before_hand_shown(reads: Reads, client: FlaskClient) -> None:
    """Rule: a spectator's stream carries hand_shown only after its hand_ended (its bytes in order)."""
    created = reads.create(seats=TWO, rules={"preset": "standard", "hands": 2}, seed=11)
    match_id = created["match_id"]
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    play_out(reads, match_id, tokens)
    body = client.get(f"/v1/matches/{match_id}/stream").get_data()
    kinds = [line[len(b"event: ") :] for line in body.split(b"\n") if line.startswith(b"event: ")]
    for index, kind in enumerate(kinds):
        if kind == b"hand_shown":
            assert kinds[index - 1] == b"hand_ended"
    data = [json.loads(line[6:]) for line in body.split(b"\n") if line.startswith(b"data: ")]
    assert sum(1 for d in data if d["type"] == "hand_shown") == 2
