"""An account's one connection: its inbox (long poll and stream), presence, challenge settings, ``/v1/bots``.

Rules checked: a match an account sits in tells it `match_started`, then `your_turn` whenever its seat comes on
turn (with the version to act with), and `match_finished` with its place and rating change when it ends; the
inbox numbers events from 1 and a client resuming after any seq misses none and sees none twice; a long poll
answers as soon as an event arrives; the stream sends each event with its seq as the SSE id and resumes after
`Last-Event-ID`; an account listening is online for a minute and `GET /v1/bots` lists only bots online, with
their settings; settings change only with an `account` token; bad input is refused with its reason.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth, fresh_name, session_of, sign_up
from tests.support.api import Api, json_object
from tests.support.lifecycle import play_out, tokens_of
from tests.support.sse import Frame, SseReader
from tienlen.api.services import services_of
from tienlen.service.inbox import ONLINE_S, InboxService


def inbox(client: FlaskClient, token: str, after: int = 0, wait: float = 0) -> dict[str, Any]:
    """The account's inbox page after ``after``; assert 200."""
    answer = client.get(f"/v1/me/events?after={after}&wait={wait}", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def challenge(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    """A challenge to the house bots (one-hand `ladder` rules); assert 201."""
    answer = client.post("/v1/challenges", json={"preset": "ladder", **body}, headers=auth(token))
    assert answer.status_code == 201, answer.json
    return json_object(answer)


def test_a_match_tells_its_account_it_started_each_turn_and_how_it_ended(api: Api, client: FlaskClient) -> None:
    """Rule: match_started once, your_turn with the match's version each time the seat is on turn, then
    match_finished with the place and the rating before and after (a rated match)."""
    token = session_of(client, fresh_name("i"))
    created = challenge(client, token, to=["easy"], players=2, rated=True)
    match_id = created["match_id"]
    first = inbox(client, token)["events"]
    assert first[0]["type"] == "match_started" and first[0]["match_id"] == match_id
    assert first[0] | {"at": None} == {
        "seq": 1,
        "type": "match_started",
        "at": None,
        "match_id": match_id,
        "seat": 0,
        "players": 2,
        "rated": True,
    }
    view = api.view(match_id, tokens_of(created)[0])
    turns = [e for e in first if e["type"] == "your_turn"]
    if view["turn"] == 0:
        assert turns and turns[-1]["version"] == view["version"] and turns[-1]["seat"] == 0
    play_out(api, match_id, tokens_of(created))
    events = inbox(client, token)["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert sum(e["type"] == "match_started" for e in events) == 1
    assert len([e for e in events if e["type"] == "your_turn"]) >= 1
    finished = [e for e in events if e["type"] == "match_finished"]
    assert len(finished) == 1 and finished[0]["match_id"] == match_id and finished[0]["place"] in (1, 2)
    assert finished[0]["rating_before"] == 1500 and finished[0]["rating_after"] != 1500
    assert events[-1]["type"] == "match_finished"


def test_resuming_after_any_seq_misses_nothing_and_repeats_nothing(api: Api, client: FlaskClient) -> None:
    """Rule: the events after `after` are exactly those numbered above it; `last_seq` is the next cursor."""
    token = session_of(client, fresh_name("i"))
    created = challenge(client, token, to=["medium"], players=3)
    play_out(api, created["match_id"], tokens_of(created))
    everything = inbox(client, token)
    assert everything["last_seq"] == len(everything["events"]) >= 3
    for after in range(len(everything["events"]) + 1):
        page = inbox(client, token, after=after)
        assert page["events"] == everything["events"][after:]
        assert page["last_seq"] == max(after, everything["last_seq"])


def test_a_long_poll_answers_as_soon_as_an_event_arrives(app: Flask, client: FlaskClient) -> None:
    """Rule: with wait and nothing new, the answer comes when the first event does, not at the wait's end."""
    token = session_of(client, fresh_name("i"))
    answers: list[dict[str, Any]] = []
    started = time.monotonic()

    def poll() -> None:
        with app.test_client() as other:
            answers.append(inbox(other, token, wait=10))

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)
    challenge(client, token, to=["easy"], players=2)
    waiter.join(10)
    assert answers and answers[0]["events"][0]["type"] == "match_started"
    assert time.monotonic() - started < 5


@pytest.mark.xdist_group("live_server")
def test_the_inbox_stream_sends_each_event_with_its_seq_and_resumes_after_last_event_id(live_server: str) -> None:
    """Rule: SSE frames carry `id: <seq>` and `event: <type>`; a stream opened with Last-Event-ID starts after it."""
    import urllib.request

    name = fresh_name("s")
    body = json.dumps({"name": name, "password": PASSWORD, "kind": "human"}).encode()
    request = urllib.request.Request(f"{live_server}/v1/accounts", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        token = json.loads(answer.read())["token"]
    reader = SseReader(live_server, "/v1/me/events/stream", auth(token))
    assert reader.status == 200
    assert reader.next() is not None  # ": following"
    request = urllib.request.Request(
        f"{live_server}/v1/challenges",
        json.dumps({"to": ["easy"], "players": 2, "preset": "ladder"}).encode(),
        {"Content-Type": "application/json"} | auth(token),
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 201
    frames: list[Frame] = []
    while len(frames) < 2:
        frame = reader.next()
        assert frame is not None
        if frame.id is not None:
            frames.append(frame)
    reader.close()
    assert frames[0].id == "1" and frames[0].event == "match_started" and frames[0].payload["seq"] == 1
    assert frames[1].id == "2" and frames[1].event == frames[1].payload["type"]
    resumed = SseReader(live_server, "/v1/me/events/stream", auth(token) | {"Last-Event-ID": "1"})
    frame = resumed.next()
    while frame is not None and frame.id is None:
        frame = resumed.next()
    resumed.close()
    assert frame is not None and frame.id == "2"


def test_only_bots_listening_in_the_last_minute_are_listed_with_their_settings(app: Flask, client: FlaskClient) -> None:
    """Rule: GET /v1/bots lists bot accounts that listened within a minute; humans never; settings shown."""
    bot = fresh_name("b")
    bot_token = str(sign_up(client, bot, kind="bot")["token"])
    human_token = session_of(client, fresh_name("h"))
    quiet = fresh_name("q")
    sign_up(client, quiet, kind="bot")
    assert client.put("/v1/me/settings", json={"rated": False}, headers=auth(bot_token)).status_code == 200
    inbox(client, bot_token)
    inbox(client, human_token)
    listed = {b["name"]: b for b in json_object(client.get("/v1/bots"))["bots"]}
    assert bot in listed and quiet not in listed and all(b["name"] != "easy" for b in listed.values())
    assert listed[bot]["settings"] == {"rated": False, "casual": True}
    service: InboxService = services_of(app).inbox
    real = service.now
    service.now = lambda: real() + ONLINE_S + 1
    try:
        assert bot not in {b["name"] for b in json_object(client.get("/v1/bots"))["bots"]}
    finally:
        service.now = real


def test_settings_change_with_an_account_token_only_and_bad_ones_change_nothing(client: FlaskClient) -> None:
    """Rule: PUT /v1/me/settings needs scope `account` (403 scope_missing with a play-only token); a value that
    is not a boolean or an unknown field is 422 invalid_request; no token is 401."""
    token = session_of(client, fresh_name("t"))
    made = client.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(token))
    play_only = json_object(made)["token"]
    cases = [
        (auth(play_only), {"rated": False}, 403, "scope_missing"),
        (auth(token), {"rated": "no"}, 422, "invalid_request"),
        (auth(token), {"ranked": True}, 422, "invalid_request"),
        ({}, {"rated": False}, 401, "invalid_token"),
    ]
    for headers, body, status, reason in cases:
        answer = client.put("/v1/me/settings", json=body, headers=headers)
        assert (answer.status_code, json_object(answer)["reason"]) == (status, reason), body
    assert json_object(client.get("/v1/me/settings", headers=auth(token))) == {
        "rated": True,
        "casual": True,
        "friends": False,
    }
    assert json_object(client.put("/v1/me/settings", json={"casual": False}, headers=auth(token))) == {
        "rated": True,
        "casual": False,
        "friends": False,
    }


def test_bad_inbox_queries_are_refused_with_their_reason(client: FlaskClient) -> None:
    """Rule: no token 401 invalid_token; a negative cursor or a wait over 30 s 422 invalid_request."""
    token = session_of(client, fresh_name("t"))
    assert json_object(client.get("/v1/me/events"))["reason"] == "invalid_token"
    for query in ("after=-1", "wait=31", "after=x"):
        answer = client.get(f"/v1/me/events?{query}", headers=auth(token))
        assert (answer.status_code, json_object(answer)["reason"]) == (422, "invalid_request"), query


def test_deleting_an_account_takes_its_challenges_out_of_the_others_inboxes(client: FlaskClient) -> None:
    """Rule: a deleted account's name stays in no other account's inbox: the events about the challenges it sent
    or received (challenge_received names it in `from`) go from the others' inboxes."""
    sender, other = fresh_name("d"), fresh_name("o")
    sender_token, other_token = session_of(client, sender), session_of(client, other)
    inbox(client, other_token)  # online
    sent = client.post("/v1/challenges", json={"to": [other], "players": 2}, headers=auth(sender_token))
    assert sent.status_code == 201, sent.json
    told = inbox(client, other_token)["events"]
    assert [e["type"] for e in told] == ["challenge_received"] and told[0]["from"] == sender
    gone = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(sender_token))
    assert gone.status_code == 204, gone.json
    assert sender not in json.dumps(inbox(client, other_token)["events"])
