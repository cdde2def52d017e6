"""Faults with real processes: Redis paused, Redis killed and restarted on its AOF, a worker killed under load.

What each checks: a 503 comes within 1.5 s and ``store_unavailable`` means
nothing changed; no acknowledged action is lost; retries with the same
``Idempotency-Key`` apply an action exactly once.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import Reply, call, children
from tests.support.servers import ServerStarter
from tienlen.local_redis import LocalRedis, free_port

DEAL = [
    ["3S", "4S", "5S", "6S", "9H"],
    ["3C", "3D", "4C", "4D", "5C", "5D", "2H"],
    ["7S", "7C", "8S", "2S"],
    ["QS", "QC", "QD", "QH", "KS"],
]
FAST_503_S = 1.5


@contextmanager
def serving(redis_server: LocalRedis, tmp_path: Path, starter: ServerStarter, workers: int = 1) -> Iterator[str]:
    """A real server on ``redis_server``; its base URL."""
    port = free_port()
    process = starter(redis_server.url, port, tmp_path / "server.log", args=("--workers", str(workers)))
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


def against_bots(base: str) -> tuple[str, str]:
    """A one-hand match of a remote seat against three Easy bots: its id and the seat's token."""
    seats = [{"name": "Me"}, *({"name": f"B{i}", "bot": "easy"} for i in range(3))]
    created = call("POST", f"{base}/v1/matches", {"seats": seats, "rules": {"preset": "standard", "hands": 1}})
    assert created.status == 201, created
    return created.body["match_id"], created.body["tokens"][0]["token"]


def next_action(base: str, match_id: str, token: str) -> dict[str, Any] | None:
    """The remote seat's next action (its first legal play, else a pass); None when the match is over."""
    legal = call("GET", f"{base}/v1/matches/{match_id}/legal", token=token)
    if legal.status != 200:
        return None
    plays = legal.body["plays"]
    if plays:
        return {"type": "play", "cards": plays[0]["cards"]}
    return {"type": "pass"} if legal.body["can_pass"] else None


def act_until_acknowledged(base: str, match_id: str, token: str, body: dict[str, Any], key: str) -> Reply:
    """POST the action, retrying with the same key on 5xx and broken connections until an answer comes."""
    deadline = time.monotonic() + 30
    while True:
        url = f"{base}/v1/matches/{match_id}/actions"
        reply = call("POST", url, body, token=token, headers={"Idempotency-Key": key})
        if (reply.status == 0 or reply.status >= 500) and time.monotonic() < deadline:
            time.sleep(0.1)
            continue
        return reply


@pytest.mark.xdist_group("faults")
def test_paused_redis_answers_503_fast_and_store_unavailable_writes_never_apply(
    tmp_path: Path, server_starter: ServerStarter
) -> None:
    with LocalRedis(tmp_path / "redis") as redis_server, serving(redis_server, tmp_path, server_starter) as base:
        matches = []
        for _ in range(6):
            created = call("POST", f"{base}/v1/matches", {"seats": [{"name": n} for n in "ABCD"], "deal": DEAL})
            assert created.status == 201, created
            matches.append((created.body["match_id"], created.body["tokens"][0]["token"]))
        assert redis_server.pid is not None
        os.kill(redis_server.pid, signal.SIGSTOP)
        try:
            answers: dict[str, Reply] = {}

            def act(match_id: str, token: str) -> None:
                answers[match_id] = call(
                    "POST", f"{base}/v1/matches/{match_id}/actions", {"type": "play", "cards": ["3S"]}, token=token
                )

            threads = [threading.Thread(target=act, args=m) for m in matches]
            for thread in threads:
                thread.start()
            health = call("GET", f"{base}/healthz")
            for thread in threads:
                thread.join()
            health_again = call("GET", f"{base}/healthz")
        finally:
            os.kill(redis_server.pid, signal.SIGCONT)
        for reply in (health, health_again):
            assert reply.status == 503 and reply.reason == "store_unavailable", reply
            assert reply.seconds < FAST_503_S, f"/healthz took {reply.seconds:.2f} s while Redis was paused"
        for reply in answers.values():
            assert reply.status == 503 and reply.reason in ("store_unavailable", "outcome_unknown"), reply
            assert reply.seconds < FAST_503_S, f"an action took {reply.seconds:.2f} s while Redis was paused"
        time.sleep(1.0)  # anything Redis had queued has run by now
        assert call("GET", f"{base}/healthz").status == 200, "the server recovers once Redis answers again"
        for match_id, _ in matches:
            if answers[match_id].reason == "store_unavailable":
                state = call("GET", f"{base}/v1/matches/{match_id}").body
                assert state["version"] == 1 and state["seats"][0]["cards_left"] == 5, "store_unavailable changed it"


def play_for(
    base: str, seconds: float, keys: Iterator[int], acknowledged: list[tuple[str, Reply]], failures: list[str]
) -> None:
    """Play matches against bots for ``seconds``, each action retried with its key until answered.

    An answer other than 200 to an action (a retry judged again, say) goes to ``failures``.
    """
    stop = time.monotonic() + seconds
    match_id, token = "", ""
    while time.monotonic() < stop:
        body = next_action(base, match_id, token) if match_id else None
        if body is None:
            try:
                match_id, token = against_bots(base)
            except AssertionError:
                time.sleep(0.1)  # the store or the worker is down: try again
            continue
        reply = act_until_acknowledged(base, match_id, token, body, f"k{next(keys)}")
        if reply.status != 200:
            failures.append(f"an action (retried with its key) was refused: {reply}")
            return
        acknowledged.append((match_id, reply))


def check_acknowledged(base: str, acknowledged: list[tuple[str, Reply]]) -> int:
    """Every event of every acknowledged answer is in its match's stream, once, as answered; the actions seen."""
    by_match: dict[str, list[Reply]] = {}
    for match_id, reply in acknowledged:
        by_match.setdefault(match_id, []).append(reply)
    for match_id, replies in by_match.items():
        stream = call("GET", f"{base}/v1/matches/{match_id}/events").body["events"]
        by_seq = {event["seq"]: event for event in stream}
        assert [e["seq"] for e in stream] == list(range(1, len(stream) + 1))
        for reply in replies:
            for event in reply.body["events"]:
                assert by_seq.get(event["seq"]) == event, f"acknowledged event lost or changed: {event}"
        mine = [e for e in stream if e["type"] in ("played", "passed") and e.get("seat") == 0]
        assert len(mine) == len(replies), f"{len(replies)} actions acknowledged, {len(mine)} applied in {match_id}"
    return len(acknowledged)


@pytest.mark.xdist_group("faults")
def test_redis_killed_and_restarted_on_its_aof_loses_no_acknowledged_action(
    tmp_path: Path, server_starter: ServerStarter
) -> None:
    redis_server = LocalRedis(tmp_path / "redis", extra_args=("--appendfsync", "always"))
    with redis_server, serving(redis_server, tmp_path, server_starter) as base:
        acknowledged: list[tuple[str, Reply]] = []
        failures: list[str] = []
        keys = itertools.count()  # next() of a count is atomic: the players share it
        players = [threading.Thread(target=play_for, args=(base, 5.0, keys, acknowledged, failures)) for _ in range(3)]
        for player in players:
            player.start()
        time.sleep(1.5)
        assert redis_server.pid is not None
        os.kill(redis_server.pid, signal.SIGKILL)
        time.sleep(0.5)
        redis_server.restart()
        for player in players:
            player.join(timeout=60)
        assert not failures, failures
        assert call("GET", f"{base}/healthz").status == 200, "the server works again without a restart"
        assert check_acknowledged(base, acknowledged) > 10


@pytest.mark.xdist_group("faults")
def test_worker_killed_under_load_retries_with_the_same_key_apply_exactly_once(
    tmp_path: Path, server_starter: ServerStarter
) -> None:
    with LocalRedis(tmp_path / "redis") as redis_server:
        port = free_port()
        process = server_starter(redis_server.url, port, tmp_path / "server.log", args=("--workers", "2"))
        base = f"http://127.0.0.1:{port}"
        try:
            acknowledged: list[tuple[str, Reply]] = []
            failures: list[str] = []
            keys = itertools.count()  # next() of a count is atomic: the players share it
            work = (base, 5.0, keys, acknowledged, failures)
            players = [threading.Thread(target=play_for, args=work) for _ in range(4)]
            for player in players:
                player.start()
            time.sleep(1.5)
            workers = children(process.pid)
            assert len(workers) == 2, workers
            os.kill(workers[0], signal.SIGKILL)
            for player in players:
                player.join(timeout=60)
            assert not failures, failures
            assert check_acknowledged(base, acknowledged) > 10
        finally:
            process.terminate()
            process.wait(timeout=20)
