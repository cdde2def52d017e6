"""``GET /metrics`` of a real server with two gunicorn workers: Prometheus text summed over both workers."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.http import call
from tests.support.servers import ServerStarter, stop_server
from tienlen.local_redis import LocalRedis, free_port

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture(scope="module")
def two_workers(server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with two gevent workers (so the metrics must be summed across processes).

    It has a Redis of its own: on the session's Redis its clock sweeper would also fire the
    turn clocks other tests left running, and count those actions in these metrics.
    """
    data = tmp_path_factory.mktemp("metrics")
    port = free_port()
    log: Path = data / "server.log"
    with LocalRedis(data / "redis") as redis_server:
        process = server_starter(redis_server.url, port, log, args=("--workers", "2"))
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_server(process)


def scrape(base: str) -> Samples:
    """Every sample of ``/metrics`` by name and labels (checks the answer's type on the way)."""
    reply = call("GET", f"{base}/metrics")
    assert reply.status == 200, reply
    assert reply.headers["content-type"].startswith("text/plain; version="), reply.headers  # the exposition format
    text = reply.body if isinstance(reply.body, str) else str(reply.body)
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """One sample's value (0 when it is not there yet)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def all_events(base: str, match_id: str) -> list[dict[str, Any]]:
    """Every event of the match, page after page (one read answers at most a few hundred)."""
    found: list[dict[str, Any]] = []
    while True:
        page = call("GET", f"{base}/v1/matches/{match_id}/events?after={len(found)}").body
        found += page["events"]
        if not page["events"] or len(found) >= page["last_seq"]:
            return found


def test_metrics_count_requests_actions_refusals_matches_bots_and_waiters_over_both_workers(two_workers: str) -> None:
    base = two_workers
    before = scrape(base)
    for _ in range(20):  # not /healthz: a late health check of the server's start may still be answered
        assert call("GET", f"{base}/v1/rules").status == 200
    assert call("GET", f"{base}/v1/matches/nope").reason == "match_not_found"

    created = call(
        "POST",
        f"{base}/v1/matches",
        {"seats": [{"name": "A"}, {"name": "B", "bot": "easy"}, {"name": "C", "bot": "medium"}], "seed": 7},
    )
    assert created.status == 201, created
    match_id, token = created.body["match_id"], created.body["tokens"][0]["token"]
    refused = call("POST", f"{base}/v1/matches/{match_id}/actions", {"type": "play", "cards": ["2H"]}, token=token)
    assert refused.status in (409, 422), refused
    actions = 0
    while call("GET", f"{base}/v1/matches/{match_id}").body["status"] == "playing":
        hint = call("GET", f"{base}/v1/matches/{match_id}/hint", token=token).body["action"]
        answer = call("POST", f"{base}/v1/matches/{match_id}/actions", hint, token=token)
        assert answer.status == 200, answer
        actions += 1
    events = all_events(base, match_id)
    applied = {kind: sum(1 for e in events if e["type"] == kind) for kind in ("played", "passed")}
    assert actions and sum(applied.values()) > actions, "the bots acted too"

    after = scrape(base)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    # exactly what was sent, whichever worker answered it and whichever answers the scrape
    assert grew("tienlen_http_requests_total", route="/v1/rules", method="GET", status="200") == 20
    assert grew("tienlen_http_request_duration_seconds_count", route="/v1/rules", method="GET") == 20
    assert grew("tienlen_refusals_total", reason="match_not_found") == 1
    assert grew("tienlen_refusals_total", reason=refused.reason or "") == 1
    assert grew("tienlen_matches_created_total") == 1
    assert grew("tienlen_matches_finished_total", how="ended") == 1
    assert grew("tienlen_actions_applied_total", type="played") == applied["played"]
    assert grew("tienlen_actions_applied_total", type="passed") == applied["passed"]
    easy = grew("tienlen_bot_decision_seconds_count", level="easy")
    medium = grew("tienlen_bot_decision_seconds_count", level="medium")
    assert easy > 0 and medium > 0 and easy + medium == sum(applied.values()) - actions
    assert ("tienlen_cas_retries_total", ()) in after
    assert not [key for key in after if key[0] == "tienlen_redis_errors_total"], "Redis never failed here"


def test_waiting_connections_are_summed_over_the_workers_while_they_wait(two_workers: str) -> None:
    base = two_workers
    created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"open": True}]})
    match_id = created.body["match_id"]
    waits = 6
    with ThreadPoolExecutor(waits) as pool:
        polls = [
            pool.submit(call, "GET", f"{base}/v1/matches/{match_id}/events?after=1&wait=3", timeout=10)
            for _ in range(waits)
        ]
        deadline = time.monotonic() + 2
        waiting = 0.0
        while time.monotonic() < deadline and waiting < waits:
            time.sleep(0.1)
            waiting = value(scrape(base), "tienlen_waiting_connections")
        assert waiting == waits, f"{waiting} waiting connections counted, {waits} held"
        for poll in polls:
            assert poll.result().status == 200
    assert value(scrape(base), "tienlen_waiting_connections") == 0


def test_lost_races_are_counted_as_compare_and_set_retries(two_workers: str) -> None:
    """Rule: joins racing for the seats of one match lose compare-and-sets, and each lost one is counted."""
    base = two_workers
    before = value(scrape(base), "tienlen_cas_retries_total")
    for _ in range(5):
        created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}] + [{"open": True}] * 3})
        match_id = created.body["match_id"]
        start = threading.Barrier(6)

        def join(name: str, match_id: str = match_id, start: threading.Barrier = start) -> int:
            start.wait()
            return call("POST", f"{base}/v1/matches/{match_id}/join", {"name": name}).status

        with ThreadPoolExecutor(6) as pool:
            statuses = sorted(pool.map(join, "BCDEFG"))
        assert statuses == [201, 201, 201, 409, 409, 409], statuses
        if value(scrape(base), "tienlen_cas_retries_total") > before:
            return
    pytest.fail("30 racing joins over two workers never lost a compare-and-set race")


def test_redis_errors_are_counted_from_the_answers_and_from_the_clock_sweeper(
    server_starter: ServerStarter, tmp_path: Path
) -> None:
    """Rule: while Redis is paused ``tienlen_redis_errors_total`` grows by itself (every worker's sweeper
    fails, logs and counts each round) and by one more for each answer Redis failed."""
    port = free_port()
    with LocalRedis(tmp_path / "redis") as redis_server:
        env = {"TIENLEN_REDIS_TIMEOUT": "0.3"}
        process = server_starter(redis_server.url, port, tmp_path / "server.log", env=env)
        base = f"http://127.0.0.1:{port}"
        try:
            created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"open": True}]})
            match_id = created.body["match_id"]
            before = value(scrape(base), "tienlen_redis_errors_total", reason="store_unavailable")
            assert redis_server.pid is not None
            os.kill(redis_server.pid, signal.SIGSTOP)
            try:
                time.sleep(1.5)  # no request: only the sweeper asks Redis
                swept = value(scrape(base), "tienlen_redis_errors_total", reason="store_unavailable")
                answer = call("GET", f"{base}/v1/matches/{match_id}")
                after = value(scrape(base), "tienlen_redis_errors_total", reason="store_unavailable")
            finally:
                os.kill(redis_server.pid, signal.SIGCONT)
            assert answer.status == 503 and answer.reason == "store_unavailable", answer
            assert swept > before, "the sweeper's failed rounds are counted"
            assert after >= swept + 1, "the failed answer is counted"
        finally:
            stop_server(process)
