"""Races, idempotent retries, long polls, and restarts that lose nothing."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any, TypedDict

import pytest
from flask import Flask

from tests.support.api import Api, json_object
from tests.support.servers import ServerStarter
from tienlen.local_redis import LocalRedis, free_port

DEAL = [
    ["3S", "4S", "5S", "6S", "9H"],
    ["3C", "3D", "4C", "4D", "5C", "5D", "2H"],
    ["7S", "7C", "8S", "2S"],
    ["QS", "QC", "QD", "QH", "KS"],
]


def four_remote(api: Api) -> tuple[str, list[str], int]:
    created = api.create(seats=[{"name": n} for n in "ABCD"], deal=DEAL)
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    return created["match_id"], tokens, created["match"]["version"]


def test_sixteen_threads_same_play_same_version_exactly_one_applied(app: Flask, api: Api) -> None:
    match_id, tokens, version = four_remote(api)
    barrier = threading.Barrier(16)
    results: list[tuple[int, str | None]] = []

    def submit() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            json={"type": "play", "cards": ["3S"], "version": version},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        results.append((response.status_code, (response.json or {}).get("reason")))

    threads = [threading.Thread(target=submit) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = Counter(results)
    assert counts[(200, None)] == 1, counts
    assert sum(n for (code, _), n in counts.items() if code == 409) == 15, counts
    assert set(r for code, r in counts if code == 409) <= {"stale_version", "not_your_turn"}
    state = api.public(match_id)
    assert state["version"] == version + 1 and state["seats"][0]["cards_left"] == 4
    events = json_object(api.client.get(f"/v1/matches/{match_id}/events"))["events"]
    assert [e["type"] for e in events].count("played") == 1


def test_racing_joins_for_the_last_seats_get_one_seat_each(app: Flask, api: Api) -> None:
    created = api.create(seats=[{"name": "Host"}, {"open": True}, {"open": True}, {"open": True}])
    match_id = created["match_id"]
    barrier = threading.Barrier(12)
    answers: list[tuple[int, Any]] = []

    def join(i: int) -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(f"/v1/matches/{match_id}/join", json={"name": f"J{i}"})
        answers.append((response.status_code, response.json))

    threads = [threading.Thread(target=join, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    won = [body for code, body in answers if code == 201]
    lost = [body for code, body in answers if code != 201]
    assert sorted(b["seat"] for b in won) == [1, 2, 3], "one join per seat, never two tokens for one seat"
    assert len(lost) == 9 and all(b["reason"] == "match_full" for b in lost)
    for body in won:
        assert api.view(match_id, body["token"])["seat"] == body["seat"]
    state = api.public(match_id)
    assert state["status"] == "playing" and [s["open"] for s in state["seats"]] == [False] * 4


def test_idempotent_retry_applies_once(api: Api) -> None:
    match_id, tokens, version = four_remote(api)
    first = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **{"Idempotency-Key": "k-1"})
    again = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 200
    assert first.json == again.json
    state = api.public(match_id)
    assert state["version"] == version + 1 and state["turn"] == 1
    # The same key from another seat is another request.
    other = api.act(match_id, tokens[1], {"type": "pass"}, **{"Idempotency-Key": "k-1"})
    assert other.status_code == 200 and api.public(match_id)["version"] == version + 2


def test_idempotent_retries_racing_apply_once(app: Flask, api: Api) -> None:
    match_id, tokens, version = four_remote(api)
    barrier = threading.Barrier(8)
    bodies: list[tuple[int, Any]] = []

    def submit() -> None:
        client = app.test_client()
        barrier.wait()
        response = client.post(
            f"/v1/matches/{match_id}/actions",
            json={"type": "play", "cards": ["3S"]},
            headers={"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": "race"},
        )
        bodies.append((response.status_code, response.json))

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert api.public(match_id)["version"] == version + 1
    assert all(code == 200 for code, _ in bodies), bodies
    assert len({str(body) for _, body in bodies}) == 1


class Woke(TypedDict, total=False):
    """What the long poll of the next test saw: when it woke, how long it waited, the events it got."""

    at: float
    waited: float
    events: list[dict[str, Any]]


def test_long_poll_wakes_within_a_second_of_an_event(app: Flask, api: Api) -> None:
    match_id, tokens, _ = four_remote(api)
    last = json_object(api.client.get(f"/v1/matches/{match_id}/events"))["last_seq"]
    woke: Woke = {}

    def poll() -> None:
        client = app.test_client()
        started = time.monotonic()
        answer = json_object(client.get(f"/v1/matches/{match_id}/events?after={last}&wait=10"))
        woke["at"] = time.monotonic()
        woke["waited"] = woke["at"] - started
        woke["events"] = answer["events"]

    thread = threading.Thread(target=poll)
    thread.start()
    time.sleep(0.5)
    acted = time.monotonic()
    assert api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}).status_code == 200
    thread.join(timeout=15)
    assert woke["events"] and woke["events"][0]["type"] == "played"
    assert woke["at"] - acted < 1.0
    assert woke["waited"] >= 0.4


def test_long_poll_with_nothing_new_answers_empty_when_the_wait_ends(api: Api) -> None:
    match_id, _, _ = four_remote(api)
    last = json_object(api.client.get(f"/v1/matches/{match_id}/events"))["last_seq"]
    started = time.monotonic()
    answer = api.client.get(f"/v1/matches/{match_id}/events?after={last}&wait=1").json
    assert answer == {"events": [], "last_seq": last}
    assert 0.9 <= time.monotonic() - started < 3


@pytest.mark.parametrize("wait", ["0.0001", "1e-9", "0.0004"])
def test_a_wait_below_a_millisecond_ends_at_once_not_never(api: Api, wait: str) -> None:
    # Redis reads XREAD BLOCK 0 as "block for ever"; a tiny wait must not become that.
    match_id, _, _ = four_remote(api)
    last = json_object(api.client.get(f"/v1/matches/{match_id}/events"))["last_seq"]
    started = time.monotonic()
    answer = api.client.get(f"/v1/matches/{match_id}/events?after={last}&wait={wait}")
    assert answer.status_code == 200 and answer.json == {"events": [], "last_seq": last}
    assert time.monotonic() - started < 2


def _http(method: str, url: str, body: bytes | None = None, token: str | None = None) -> dict[str, Any]:
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        answer = json.loads(response.read())
    assert isinstance(answer, dict), answer
    return answer


@pytest.mark.xdist_group("server")
def test_restart_of_server_and_redis_loses_no_accepted_action(tmp_path: Path, server_starter: ServerStarter) -> None:
    with LocalRedis(tmp_path / "redis") as redis_server:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = server_starter(redis_server.url, port, tmp_path / "server.log")
        try:
            body = json.dumps({"seats": [{"name": n} for n in "ABCD"], "deal": DEAL}).encode()
            created = _http("POST", f"{base}/v1/matches", body)
            match_id = created["match_id"]
            tokens = [t["token"] for t in created["tokens"]]
            for seat, play in ((0, {"type": "play", "cards": ["3S"]}), (1, {"type": "pass"})):
                _http("POST", f"{base}/v1/matches/{match_id}/actions", json.dumps(play).encode(), tokens[seat])
            before = _http("GET", f"{base}/v1/matches/{match_id}")
            events_before = _http("GET", f"{base}/v1/matches/{match_id}/events")
        finally:
            server.terminate()
            server.wait(timeout=20)
        redis_server.restart()
        server = server_starter(redis_server.url, port, tmp_path / "server.log")
        try:
            after = _http("GET", f"{base}/v1/matches/{match_id}")
            assert after == before and after["version"] == 3
            assert _http("GET", f"{base}/v1/matches/{match_id}/events") == events_before
            view = _http("GET", f"{base}/v1/matches/{match_id}/view", token=tokens[2])
            assert view["turn"] == 2 and view["cards"] == ["7S", "7C", "8S", "2S"]
        finally:
            server.terminate()
            server.wait(timeout=20)
