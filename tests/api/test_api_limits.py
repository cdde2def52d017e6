"""Rate limits on a real server (the one test module that runs with limits on): bursts, headers, resets."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.http import Reply, call
from tests.support.servers import ServerStarter, stop_server
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis, free_port
from tienlen.settings import DEFAULT_RATE_LIMITS, parse_rate_limits

LIMIT = 3
WINDOW_S = 2
SMALL_LIMITS = ";".join(f"{kind}={LIMIT}/{WINDOW_S} seconds" for kind in DEFAULT_RATE_LIMITS)


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory: pytest.TempPathFactory, server_starter: ServerStarter) -> Iterator[str]:
    """A server whose every limit is 3 requests per 2 seconds."""
    data = tmp_path_factory.mktemp("limits")
    with LocalRedis(data / "redis") as redis_server:
        port = free_port()
        env = {"TIENLEN_RATE_LIMITS": SMALL_LIMITS}
        process = server_starter(redis_server.url, port, data / "server.log", env=env)
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_server(process)


def burst_then_reset(send: Callable[[], Reply]) -> None:
    """``LIMIT`` requests pass with falling RateLimit-Remaining, the next is 429 with its headers, then it resets."""
    # Start at the beginning of a window, so the burst is not split over two.
    first = send()
    if first.status != 429 and int(first.headers["ratelimit-remaining"]) != LIMIT - 1:
        time.sleep(int(first.headers["ratelimit-reset"]) + 0.05)
        first = send()
    passed = [first] + [send() for _ in range(LIMIT - 1)]
    assert [r.status != 429 for r in passed] == [True] * LIMIT, passed
    assert [int(r.headers["ratelimit-remaining"]) for r in passed] == [LIMIT - 1 - i for i in range(LIMIT)]
    assert all(int(r.headers["ratelimit-limit"]) == LIMIT for r in passed)
    over = send()
    assert over.status == 429 and over.reason == "rate_limited", over
    assert set(over.body) >= {"code", "status", "message", "reason"} and over.body["code"] == 429
    assert over.headers["ratelimit-limit"] == str(LIMIT) and over.headers["ratelimit-remaining"] == "0"
    retry_after = int(over.headers["retry-after"])
    assert 1 <= retry_after <= WINDOW_S and 0 <= int(over.headers["ratelimit-reset"]) <= WINDOW_S
    time.sleep(retry_after + 0.05)
    again = send()
    assert again.status != 429, f"the limit did not reset after Retry-After: {again}"


def test_a_burst_over_each_limit_gets_429_with_its_headers_and_the_limit_resets(limited_server: str) -> None:
    base = limited_server
    seats = [{"name": "A"}, {"open": True}]
    created = call("POST", f"{base}/v1/matches", {"seats": seats})
    assert created.status == 201, created
    match_id, token = created.body["match_id"], created.body["tokens"][0]["token"]
    sends: dict[str, Callable[[], Reply]] = {
        "create": lambda: call("POST", f"{base}/v1/matches", {"seats": seats}),
        "join": lambda: call("POST", f"{base}/v1/matches/nope/join", {"name": "B"}),
        "act": lambda: call("POST", f"{base}/v1/matches/{match_id}/actions", {"type": "pass"}, token=token),
        "hint": lambda: call("GET", f"{base}/v1/matches/{match_id}/hint", token=token),
        "wait": lambda: call("GET", f"{base}/v1/matches/{match_id}/events"),
    }
    time.sleep(WINDOW_S)  # the create above is in a window of its own
    with ThreadPoolExecutor(len(sends)) as pool:
        for done in [pool.submit(burst_then_reset, send) for send in sends.values()]:
            done.result()


def test_actions_are_counted_per_seat_token_and_unlimited_calls_carry_no_headers(limited_server: str) -> None:
    base = limited_server
    created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}]})
    if created.status == 429:
        time.sleep(int(created.headers["retry-after"]) + 0.05)
        created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}]})
    match_id = created.body["match_id"]
    first, second = (t["token"] for t in created.body["tokens"])
    url = f"{base}/v1/matches/{match_id}/actions"
    answers = [call("POST", url, {"type": "pass"}, token=first) for _ in range(LIMIT + 1)]
    assert answers[-1].status == 429
    other = call("POST", url, {"type": "pass"}, token=second)
    assert other.status != 429 and other.headers["ratelimit-remaining"] == str(LIMIT - 1), "another seat's count"
    public = call("GET", f"{base}/v1/matches/{match_id}")
    assert public.status == 200 and "ratelimit-limit" not in public.headers


def test_rate_limits_setting_parses_overrides_and_off() -> None:
    assert parse_rate_limits("off") is None
    assert parse_rate_limits("") == DEFAULT_RATE_LIMITS
    assert parse_rate_limits("create=5/second; act=1 per minute") == DEFAULT_RATE_LIMITS | {
        "create": "5/second",
        "act": "1 per minute",
    }
    with pytest.raises(ValueError, match="TIENLEN_RATE_LIMITS"):
        parse_rate_limits("shout=1/second")
    assert DEFAULT_RATE_LIMITS["create"] == "60/minute", "a flood of creates meets the limit within a second"

    with pytest.raises(ValueError, match="is not a limit"):
        create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_RATE_LIMITS": "create=lots"})


def test_limits_off_lets_a_burst_through_without_headers(redis_server: LocalRedis) -> None:
    """Rule: ``TIENLEN_RATE_LIMITS=off`` counts nothing; with a limit of 1 a minute the second create is 429."""
    body = {"seats": [{"name": "A"}, {"open": True}]}
    base = {"REDIS_URL": redis_server.url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_ANONYMOUS_HOSTING": "1"}
    limited = create_app(base | {"TIENLEN_RATE_LIMITS": "create=1/minute"}).test_client()
    limited.environ_base["REMOTE_ADDR"] = f"10.0.0.{time.time_ns() % 250 + 1}"
    answers = [limited.post("/v1/matches", json=body) for _ in range(2)]
    assert [a.status_code for a in answers] == [201, 429]
    assert answers[0].headers["RateLimit-Limit"] == "1" and answers[1].headers["Retry-After"]

    unlimited = create_app(base | {"TIENLEN_RATE_LIMITS": "off"})
    assert services_of(unlimited).limiter is None
    client = unlimited.test_client()
    client.environ_base["REMOTE_ADDR"] = limited.environ_base["REMOTE_ADDR"]
    answers = [client.post("/v1/matches", json=body) for _ in range(70)]
    assert {a.status_code for a in answers} == {201}, "more creates than the default 60 a minute"
    assert not any("RateLimit-Limit" in a.headers for a in answers)


def test_a_chat_flood_from_one_account_is_cut_while_others_keep_talking(limited_server: str) -> None:
    """Rule: chat is limited per account (per seat for an anonymous seat): one account's flood is cut with 429
    ``rate_limited`` while another account and a seat keep talking."""
    base = limited_server
    created = call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}]})
    assert created.status == 201, created
    match_id, seat = created.body["match_id"], created.body["tokens"][0]["token"]
    tokens = []
    for _ in range(2):
        body = {"name": f"c{secrets.token_hex(5)}", "password": "x" * 12, "kind": "human"}
        made = call("POST", f"{base}/v1/accounts", body)
        assert made.status == 201, made
        tokens.append(made.body["token"])
    flooder, other = tokens

    def say(token: str, room: str = "spectators") -> Reply:
        return call("POST", f"{base}/v1/matches/{match_id}/chat", {"room": room, "text": "hi"}, token=token)

    time.sleep(WINDOW_S)  # a window of its own
    flood = [say(flooder) for _ in range(LIMIT + 2)]
    assert [r.status for r in flood[:LIMIT]] == [201] * LIMIT, flood
    assert all(r.status == 429 and r.reason == "rate_limited" for r in flood[LIMIT:]), flood
    assert say(other).status == 201 and say(seat, "table").status == 201  # the others are counted on their own
    assert say(flooder).status == 429
