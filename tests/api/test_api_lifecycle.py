"""A match's whole life after the clock: leaving, cancelling, rematches, the lobby, and their bad input.

The Flask test client on the session's private Redis (turn clocks and their
sweepers are in ``test_api_clock.py``).
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, keys, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import events, play_out, play_turn, service_of, tokens_of
from tienlen.api import schemas
from tienlen.local_redis import LocalRedis

# ----- leaving ----------------------------------------------------------------------------------


def test_leaving_a_waiting_match_opens_the_seat_again_and_revokes_the_token(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"open": True}, {"open": True}], listed=True)
    match_id = created["match_id"]
    joined = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={"name": "B"}))
    left = api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(joined["token"]))
    assert left.status_code == 200
    body = json_object(left)
    assert schemas.LeaveAnswerSchema().validate(body) == {}
    assert body["seats"][1] | {"name": None} == body["seats"][1] and body["seats"][1]["open"] is True
    assert body["events"] == [{"type": "seat_left", "seat": 1, "seq": body["last_seq"]}]
    assert api.client.get(f"/v1/matches/{match_id}/view", headers=api.auth(joined["token"])).status_code == 401
    again = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={"name": "C"}))
    assert again["seat"] == 1


def test_leaving_mid_hand_lets_the_takeover_bot_finish_and_the_last_remote_seat_abandons(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}, {"name": "C"}], rules={"hands": 1}, seed=8)
    match_id, tokens = created["match_id"], tokens_of(created)
    for _ in range(4):
        play_turn(api, match_id, tokens)
    turn = api.public(match_id)["turn"]
    left = json_object(api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(tokens[turn])))
    kinds = [e["type"] for e in left["events"]]
    assert kinds[:2] == ["seat_left", "seat_taken_over"]
    assert left["events"][1]["bot"] == "medium", "the default takeover level"
    assert left["events"][2]["seat"] == turn and kinds[2] in ("played", "passed"), "the bot plays the seat at once"
    assert left["seats"][turn]["left"] and left["seats"][turn]["taken_over"] and left["seats"][turn]["bot"] == "medium"
    remaining = {seat: token for seat, token in tokens.items() if seat != turn}
    play_out(api, match_id, remaining)
    finished = api.public(match_id)
    assert finished["status"] == "finished" and finished["winner"] is not None, "the hand was played to its end"

    created = api.create(seats=[{"name": "A"}, {"name": "B"}, {"name": "C", "bot": "easy"}], seed=3)
    match_id, tokens = created["match_id"], tokens_of(created)
    first = json_object(api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(tokens[0])))
    assert first["status"] == "playing"
    last = json_object(api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(tokens[1])))
    assert (last["status"], last["winner"]) == ("finished", None)
    assert last["events"][-1]["type"] == "match_abandoned"
    assert api.act(match_id, tokens[1], {"type": "pass"}).status_code == 401


@pytest.mark.parametrize(
    ("headers", "status", "reason"), [({}, 401, "invalid_token"), ({"Authorization": "Bearer x"}, 401, "invalid_token")]
)
def test_leaving_needs_a_seat_token(api: Api, headers: dict[str, str], status: int, reason: str) -> None:
    created = api.create(seats=[{"name": "A"}, {"open": True}])
    before = api.public(created["match_id"])
    answer = api.client.post(f"/v1/matches/{created['match_id']}/leave", headers=headers)
    assert (answer.status_code, json_object(answer)["reason"]) == (401, "invalid_token")
    assert api.public(created["match_id"]) == before
    missing = api.client.post("/v1/matches/nosuchmatch/leave", headers=api.auth(created["tokens"][0]["token"]))
    assert (missing.status_code, json_object(missing)["reason"]) == (404, "match_not_found")


# ----- cancelling --------------------------------------------------------------------------------


def test_cancelling_a_waiting_match_deletes_it_and_tells_its_followers(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"open": True}], listed=True)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    heard: list[dict[str, Any]] = []
    listening = threading.Thread(
        target=lambda: heard.extend(
            json_object(api.client.get(f"/v1/matches/{match_id}/events?after=0&wait=5"))["events"]
        )
    )
    listening.start()
    time.sleep(0.3)
    assert api.client.delete(f"/v1/matches/{match_id}").status_code == 401
    answer = api.client.delete(f"/v1/matches/{match_id}", headers=api.auth(token))
    assert answer.status_code == 204 and answer.data == b""
    listening.join(timeout=10)
    assert [e["type"] for e in heard] == ["match_cancelled"]
    assert api.client.get(f"/v1/matches/{match_id}").status_code == 404
    assert api.client.delete(f"/v1/matches/{match_id}", headers=api.auth(token)).status_code == 404
    listed = json_object(api.client.get("/v1/matches?limit=50"))["matches"]
    assert match_id not in [m["match_id"] for m in listed]


def test_a_match_in_play_cannot_be_cancelled(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}])
    match_id = created["match_id"]
    before = api.public(match_id)
    answer = api.client.delete(f"/v1/matches/{match_id}", headers=api.auth(created["tokens"][0]["token"]))
    assert (answer.status_code, json_object(answer)["reason"]) == (409, "match_not_waiting")
    assert api.public(match_id) == before


@pytest.mark.parametrize(
    ("canceller", "status"),
    [
        ("host account's token", 204),
        ("host's seat token", 204),
        ("anonymous joiner's seat token", 403),
        ("joining account's token", 403),
        ("joining account's seat token", 403),
    ],
)
def test_only_the_host_cancels_a_hosted_match_and_the_others_leave(api: Api, canceller: str, status: int) -> None:
    host = session_of(api.client, fresh_name("host"))
    joiner = session_of(api.client, fresh_name("join"))
    seats = [{"name": "H"}, {"open": True}, {"open": True}, {"open": True}]
    answer = api.client.post("/v1/matches", json={"seats": seats}, headers=auth(host))
    created = json_object(answer)
    match_id = created["match_id"]
    anonymous = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={"name": "B"}))
    by_account = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={}, headers=auth(joiner)))
    token = {
        "host account's token": host,
        "host's seat token": created["tokens"][0]["token"],
        "anonymous joiner's seat token": anonymous["token"],
        "joining account's token": joiner,
        "joining account's seat token": by_account["token"],
    }[canceller]
    before = api.public(match_id)
    answer = api.client.delete(f"/v1/matches/{match_id}", headers=auth(token))
    assert answer.status_code == status, answer.json
    if status == 403:
        assert json_object(answer)["reason"] == "not_host"
        assert api.public(match_id) == before, "a refused cancel changes nothing"
        left = api.client.post(f"/v1/matches/{match_id}/leave", headers=auth(token))
        assert left.status_code == 200, "the others leave instead"
    else:
        assert api.client.get(f"/v1/matches/{match_id}").status_code == 404


def test_only_seat_0_cancels_a_match_no_account_made(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}, {"open": True}, {"open": True}])
    match_id, tokens = created["match_id"], tokens_of(created)
    joined = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={"name": "C"}, headers={}))
    for token in (tokens[1], joined["token"]):
        answer = api.client.delete(f"/v1/matches/{match_id}", headers=api.auth(token))
        assert (answer.status_code, json_object(answer)["reason"]) == (403, "not_host")
    assert api.client.delete(f"/v1/matches/{match_id}", headers=api.auth(tokens[0])).status_code == 204


# ----- rematch ----------------------------------------------------------------------------------


def test_every_seat_asking_for_a_rematch_at_once_makes_one_next_match(api: Api) -> None:
    created = api.create(
        seats=[{"name": "A"}, {"name": "B"}, {"name": "C", "bot": "easy"}, {"name": "D"}],
        rules={"hands": 1},
        clock={"turn_seconds": 600},
        seed=12,
    )
    match_id, tokens = created["match_id"], tokens_of(created)
    early = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0]))
    assert (early.status_code, json_object(early)["reason"]) == (409, "match_not_finished")
    play_out(api, match_id, tokens)
    answers: dict[int, dict[str, Any]] = {}

    def ask(seat: int) -> None:
        response = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[seat]))
        assert response.status_code == 201, response.json
        answers[seat] = json_object(response)

    threads = [threading.Thread(target=ask, args=(seat,)) for seat in tokens]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    next_ids = {a["match_id"] for a in answers.values()}
    assert len(next_ids) == 1
    next_id = next_ids.pop()
    assert {seat: a["seat"] for seat, a in answers.items()} == {seat: seat for seat in tokens}
    assert len({a["token"] for a in answers.values()}) == 3
    assert all(schemas.RematchSchema().validate(a) == {} for a in answers.values())
    again = json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[1])))
    assert again == answers[1], "the same call answers the same"
    finished = api.public(match_id)
    assert finished["next_match_id"] == next_id
    assert [e["type"] for e in events(api.client, match_id)].count("rematch") == 1
    rematch = api.public(next_id)
    assert rematch["status"] == "playing" and rematch["clock"] == finished["clock"]
    assert [(s["name"], s["bot"]) for s in rematch["seats"]] == [(s["name"], s["bot"]) for s in finished["seats"]]
    assert rematch["rules"] == finished["rules"]
    assert [e["type"] for e in events(api.client, next_id)].count("hand_started") == 1, "dealt once"
    for seat, answer in answers.items():
        assert api.view(next_id, answer["token"])["seat"] == seat
        assert api.client.get(f"/v1/matches/{next_id}/view", headers=api.auth(tokens[seat])).status_code == 401


def test_a_rematch_waits_for_every_remote_seat_to_claim_its_place(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"hands": 1}, seed=30)
    match_id, tokens = created["match_id"], tokens_of(created)
    play_out(api, match_id, tokens)
    first = json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0])))
    waiting = api.public(first["match_id"])
    assert waiting["status"] == "waiting"
    assert waiting["seats"][1]["open"] is False, "the place is kept for its player, not open to joins"
    full = api.client.post(f"/v1/matches/{first['match_id']}/join", json={"name": "Intruder"})
    assert (full.status_code, json_object(full)["reason"]) == (409, "match_full")
    json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[1])))
    assert api.public(first["match_id"])["status"] == "playing"


# ----- the lobby ---------------------------------------------------------------------------------


@pytest.fixture
def quiet_lobby(redis_server: LocalRedis) -> None:
    """An empty lobby for tests that count its entries (earlier tests on this worker's Redis listed matches)."""
    redis.Redis.from_url(redis_server.url).delete("tl:{lobby}:open")


@pytest.mark.usefixtures("quiet_lobby")
def test_the_lobby_lists_listed_open_matches_newest_first_by_page_and_filter(api: Api) -> None:
    made = []
    for index in range(7):
        preset = "classic" if index % 2 else "standard"
        seats = [{"name": "A"}] + [{"open": True}] * (1 + index % 3)
        made.append(api.create(seats=seats, rules={"preset": preset}, listed=True)["match_id"])
        time.sleep(0.002)
    api.create(seats=[{"name": "A"}, {"open": True}], listed=False)
    api.create(seats=[{"name": "A"}, {"name": "B"}], listed=True)  # full: never listed
    seen: list[str] = []
    cursor = None
    while True:
        query = "limit=3" + ("" if cursor is None else f"&cursor={cursor}")
        page = json_object(api.client.get(f"/v1/matches?{query}"))
        assert schemas.LobbySchema().validate(page) == {}
        assert len(page["matches"]) <= 3
        seen += [m["match_id"] for m in page["matches"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == made[::-1]
    classic = json_object(api.client.get("/v1/matches?preset=classic"))["matches"]
    assert [m["match_id"] for m in classic] == [made[i] for i in (5, 3, 1)]
    three = json_object(api.client.get("/v1/matches?players=3"))["matches"]
    assert [m["match_id"] for m in three] == [made[i] for i in (4, 1)]
    entry = classic[0]
    assert entry["rules"]["preset"] == "classic" and entry["seats"][0] == {
        "seat": 0,
        "name": "A",
        "bot": None,
        "open": False,
        "account": False,
    }


@pytest.mark.parametrize(
    "query",
    [
        "status=playing",
        "players=1",
        "players=5",
        "players=x",
        "preset=bogus",
        "limit=0",
        "limit=51",
        "cursor=%21%21",
        "cursor=bm90LWEtY3Vyc29y",
    ],
)
def test_the_lobby_refuses_a_bad_filter_or_cursor(client: FlaskClient, query: str) -> None:
    answer = client.get(f"/v1/matches?{query}")
    assert (answer.status_code, json_object(answer)["reason"]) == (422, "invalid_request")


@pytest.mark.usefixtures("quiet_lobby")
def test_under_racing_joins_the_lobby_never_lists_a_match_that_a_join_already_filled(api: Api) -> None:
    matches = [
        api.create(seats=[{"name": "A"}, {"open": True}, {"open": True}], listed=True)["match_id"] for _ in range(4)
    ]
    filled_at: dict[str, float] = {}
    problems: list[str] = []
    done = threading.Event()

    def join(match_id: str) -> None:
        answer = api.client.post(f"/v1/matches/{match_id}/join", json={"name": "J"})
        if answer.status_code == 201 and json_object(answer)["seat"] == 2:
            filled_at[match_id] = time.monotonic()

    def watch() -> None:
        while not done.is_set():
            asked = time.monotonic()
            listed = json_object(api.client.get("/v1/matches?limit=50"))["matches"]
            for entry in listed:
                full_since = filled_at.get(entry["match_id"])
                if full_since is not None and full_since < asked:
                    problems.append(entry["match_id"])

    watcher = threading.Thread(target=watch)
    watcher.start()
    joiners = [threading.Thread(target=join, args=(m,)) for m in matches for _ in range(3)]
    for thread in joiners:
        thread.start()
    for thread in joiners:
        thread.join()
    time.sleep(0.2)
    done.set()
    watcher.join()
    assert sorted(filled_at) == sorted(matches)
    assert problems == []
    assert json_object(api.client.get("/v1/matches"))["matches"] == []


# ----- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "extra",
    [
        {"clock": {"turn_seconds": 0}},
        {"clock": {"turn_seconds": 3601}},
        {"clock": {"turn_seconds": "30"}},
        {"clock": {"turn_seconds": 1.5}},
        {"clock": {}},
        {"clock": {"turn_seconds": 30, "timeouts_before_takeover": 0}},
        {"clock": {"turn_seconds": 30, "timeouts_before_takeover": 11}},
        {"clock": {"turn_seconds": 30, "sudden_death": True}},
        {"clock": None},
        {"takeover": "grandmaster"},
        {"takeover": None},
        {"listed": "yes"},
        {"listed": 1},
    ],
)
def test_creating_with_a_bad_clock_takeover_or_listing_is_refused_and_stores_nothing(
    client: FlaskClient, redis_server: LocalRedis, extra: dict[str, Any]
) -> None:
    store = redis.Redis.from_url(redis_server.url)  # this test worker's own Redis: only what expires changes now
    before = keys(store)
    answer = client.post("/v1/matches", json={"seats": [{"name": "A"}, {"name": "B"}]} | extra)
    assert (answer.status_code, json_object(answer)["reason"]) == (422, "invalid_request")
    assert keys(store) == before


def test_rematch_needs_a_token_of_the_finished_match(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"hands": 1}, seed=2)
    match_id, tokens = created["match_id"], tokens_of(created)
    play_out(api, match_id, tokens)
    for headers in ({}, {"Authorization": "Bearer nope"}):
        answer = api.client.post(f"/v1/matches/{match_id}/rematch", headers=headers)
        assert (answer.status_code, json_object(answer)["reason"]) == (401, "invalid_token")
    assert api.public(match_id)["next_match_id"] is None
    missing = api.client.post("/v1/matches/nosuchmatch/rematch", headers=api.auth(tokens[0]))
    assert missing.status_code == 404


def test_a_cancelled_rematch_stays_gone_for_every_seat(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}, {"name": "C"}], rules={"hands": 1}, seed=14)
    match_id, tokens = created["match_id"], tokens_of(created)
    play_out(api, match_id, tokens)
    first = json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0])))
    next_id = first["match_id"]
    cancelled = api.client.delete(f"/v1/matches/{next_id}", headers=api.auth(first["token"]))
    assert cancelled.status_code == 204
    for seat in (1, 2, 0):  # the others, and the seat that made and cancelled it
        answer = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[seat]))
        body = json_object(answer)
        assert (answer.status_code, body["reason"]) == (409, "rematch_cancelled"), body
        assert schemas.ErrorSchema().validate(body) == {}
        assert api.client.get(f"/v1/matches/{next_id}").status_code == 404, "not made again"
    finished = api.public(match_id)
    assert finished["next_match_id"] == next_id, "it still names the rematch there was"
    assert [e["type"] for e in events(api.client, match_id)].count("rematch") == 1


def test_a_rematch_made_and_cancelled_while_another_seat_asks_is_not_made_again(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race a cancelled rematch leaves: seat B read the finished match before seat A made the rematch,
    and looks for the rematch after A cancelled it. B must not make it again under the same id."""
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"hands": 1}, seed=3)
    match_id, tokens = created["match_id"], tokens_of(created)
    play_out(api, match_id, tokens)
    service = service_of(app)
    stale = service.reads.get(match_id)  # what B read: no rematch yet
    assert stale.next_match_id is None
    first = json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0])))
    next_id = first["match_id"]
    assert api.client.delete(f"/v1/matches/{next_id}", headers=api.auth(first["token"])).status_code == 204
    monkeypatch.setattr(service.core, "get", lambda _match_id: stale)
    answer = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[1]))
    assert (answer.status_code, json_object(answer)["reason"]) == (409, "rematch_cancelled")
    monkeypatch.undo()
    assert api.client.get(f"/v1/matches/{next_id}").status_code == 404, "not made again"
    assert [e["type"] for e in events(api.client, match_id)].count("rematch") == 1, "announced once"


def test_seats_that_left_are_open_in_the_rematch(api: Api) -> None:
    created = api.create(
        seats=[{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D", "bot": "easy"}],
        rules={"hands": 1},
        listed=True,
    )
    match_id, tokens = created["match_id"], tokens_of(created)
    play_turn(api, match_id, tokens)
    left = api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(tokens[2]))
    assert left.status_code == 200
    play_out(api, match_id, {seat: token for seat, token in tokens.items() if seat != 2})
    gone = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[2]))
    assert (gone.status_code, json_object(gone)["reason"]) == (401, "invalid_token"), "a seat that left has no say"
    first = json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0])))
    next_id = first["match_id"]
    seats = api.public(next_id)["seats"]
    assert [(s["name"], s["open"], s["bot"]) for s in seats] == [
        ("A", False, None),
        ("B", False, None),
        (None, True, None),
        ("D", False, "easy"),
    ], "the seat whose player left is open; the others are kept for their players; bots stay bots"
    listed = json_object(api.client.get("/v1/matches?limit=50"))["matches"]
    assert next_id in [m["match_id"] for m in listed], "a listed match's rematch with an open seat is in the lobby"
    json_object(api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[1])))
    assert api.public(next_id)["status"] == "waiting", "it waits for someone to join the open seat"
    joined = json_object(api.client.post(f"/v1/matches/{next_id}/join", json={"name": "E"}))
    assert joined["seat"] == 2
    assert api.public(next_id)["status"] == "playing"
