"""Caps on waiting: the long polls and streams one account, or one client address, holds at once.

Rules checked: past ``TIENLEN_MAX_WAITERS_PER_ACCOUNT`` (or ``..._PER_ADDRESS``) the wait over the cap answers
429 ``too_many_waits`` with ``Retry-After`` while the others keep theirs, and another account or address still
waits; slots are counted in Redis for all servers and given back when the wait ends; a slot of a worker that
died is free once its lease ends; and on a real gevent server a stream (or long poll) whose client hung up gives
its slot back at once (measured), not at its next heartbeat.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.support.accounts import auth, fresh_name, session_of
from tests.support.api import json_object
from tests.support.servers import ServerStarter, stop_server
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis, free_port
from tienlen.store import TooManyWaitsError
from tienlen.store import redis_wait_slots as wait_slots_module
from tienlen.store.redis_wait_slots import RedisWaitSlots
from tienlen.store.wait_slots import Cap

WAITING = {"seats": [{"name": "A"}, {"open": True}]}


@pytest.fixture
def capped(redis_server: LocalRedis) -> Flask:
    """An app that lets an account hold 2 waits, and an address 4."""
    settings = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off", "TIENLEN_ANONYMOUS_HOSTING": "1"}
    settings |= {"TIENLEN_MAX_WAITERS_PER_ACCOUNT": "2", "TIENLEN_MAX_WAITERS_PER_ADDRESS": "4"}
    return create_app({"REDIS_URL": redis_server.url, **settings})


def client_at(app: Flask, address: str) -> FlaskClient:
    """A test client whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def holding(app: Flask, who: str, count: int) -> None:
    """Wait (up to 5 s) until ``who`` holds ``count`` waiting slots."""
    slots = services_of(app).game.core.store.wait_slots()
    deadline = time.monotonic() + 5
    while slots.held(who) != count:
        assert time.monotonic() < deadline, f"{who} holds {slots.held(who)} slots, not {count}"
        time.sleep(0.02)


def in_background(call: Callable[[], TestResponse]) -> tuple[threading.Thread, list[TestResponse]]:
    """Run ``call`` in a thread; its answer lands in the list."""
    answers: list[TestResponse] = []
    thread = threading.Thread(target=lambda: answers.append(call()))
    thread.start()
    return thread, answers


def too_many_waits(answer: TestResponse) -> None:
    """Assert a 429 too_many_waits with a Retry-After."""
    body = json_object(answer)
    assert (answer.status_code, body["reason"]) == (429, "too_many_waits"), body
    assert int(answer.headers["Retry-After"]) >= 1


def test_an_account_over_its_cap_of_waits_is_refused_and_everyone_else_keeps_waiting(capped: Flask) -> None:
    """Rule: an account holding TIENLEN_MAX_WAITERS_PER_ACCOUNT waits (inbox long polls) gets 429 too_many_waits
    for one more, also through another kind of wait (a quick-play ticket's, a match's with its token); another
    account from the same address still waits; once the waits end the slots are free again."""
    client = client_at(capped, "10.20.0.1")
    mine, other = session_of(client, fresh_name()), session_of(client, fresh_name())
    match_id = json_object(client.post("/v1/matches", json=WAITING))["match_id"]
    waits = [in_background(lambda: client.get("/v1/me/events?after=0&wait=2", headers=auth(mine))) for _ in range(2)]
    holding(capped, "address:10.20.0.1", 2)
    too_many_waits(client.get("/v1/me/events?after=0&wait=2", headers=auth(mine)))
    too_many_waits(client.get(f"/v1/matches/{match_id}/events?after=9&wait=2", headers=auth(mine)))
    assert client.get("/v1/me/events?after=0&wait=0", headers=auth(mine)).status_code == 200, "no wait: no slot"
    started = time.monotonic()
    assert client.get("/v1/me/events?after=0&wait=1", headers=auth(other)).status_code == 200, "another account"
    assert time.monotonic() - started >= 0.9, "it waited"
    for thread, answers in waits:
        thread.join(timeout=10)
        assert answers[0].status_code == 200, "the first waits kept their slots"
    holding(capped, "address:10.20.0.1", 0)
    assert client.get("/v1/me/events?after=0&wait=0.2", headers=auth(mine)).status_code == 200, "given back"


def test_an_address_over_its_cap_of_waits_is_refused_and_other_addresses_keep_waiting(capped: Flask) -> None:
    """Rule: without a token (the match's public events need none) the address is counted: past
    TIENLEN_MAX_WAITERS_PER_ADDRESS one more long poll or stream is 429 too_many_waits; another address waits."""
    client = client_at(capped, "10.20.0.2")
    match_id = json_object(client.post("/v1/matches", json=WAITING))["match_id"]
    poll = f"/v1/matches/{match_id}/events?after=9&wait=2"
    waits = [in_background(lambda: client.get(poll)) for _ in range(4)]
    holding(capped, "address:10.20.0.2", 4)
    too_many_waits(client.get(poll))
    too_many_waits(client.get(f"/v1/matches/{match_id}/stream?after=9"))
    elsewhere = client_at(capped, "10.20.0.3").get(f"/v1/matches/{match_id}/stream?after=0", buffered=False)
    assert elsewhere.status_code == 200, "another address follows the match"
    holding(capped, "address:10.20.0.3", 1)
    elsewhere.close()
    holding(capped, "address:10.20.0.3", 0)  # a stream closed gives its slot back
    for thread, answers in waits:
        thread.join(timeout=10)
        assert answers[0].status_code == 200
    holding(capped, "address:10.20.0.2", 0)


def test_a_slot_whose_worker_died_is_free_once_its_lease_ends(
    redis_server: LocalRedis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: slots are leases in Redis: one never given back (its worker died) stops counting when it ends."""
    import redis

    slots = RedisWaitSlots(redis.Redis.from_url(redis_server.url))
    cap = [Cap("address:" + fresh_name(), 1)]
    monkeypatch.setattr(wait_slots_module, "LEASE_S", 0.3)
    slots.take(cap)  # never released: its worker "died"
    with pytest.raises(TooManyWaitsError):
        slots.take(cap)
    time.sleep(0.4)
    slot = slots.take(cap)
    slots.release(slot, cap)
    assert slots.held(cap[0].who) == 0


def test_racing_waits_never_take_more_slots_than_the_cap(redis_server: LocalRedis) -> None:
    """Rule: the take is one script (drop ended leases, count, add): 30 racing takes under a cap of 5 leave 5."""
    import redis

    slots = RedisWaitSlots(redis.Redis.from_url(redis_server.url))
    cap = [Cap("account:" + fresh_name(), 5)]
    barrier = threading.Barrier(30)
    taken: list[str] = []
    refused: list[TooManyWaitsError] = []

    def take() -> None:
        barrier.wait()
        try:
            taken.append(slots.take(cap))
        except TooManyWaitsError as error:
            refused.append(error)

    threads = [threading.Thread(target=take) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert (len(taken), len(refused), slots.held(cap[0].who)) == (5, 25, 5)
    assert refused[0].kind == "account" and refused[0].most == 5


# ----- a real gevent server: the slot of a client that hung up comes back at once --------------------------


# How soon a slot must come back, by worker class: gevent watches the socket; threads look every GONE_POLL_S (1 s).
FREED_WITHIN_S = {"gevent": 1.0, "gthread": 2.0}


@pytest.fixture(params=sorted(FREED_WITHIN_S))
def capped_server(
    request: pytest.FixtureRequest, redis_server: LocalRedis, server_starter: ServerStarter, tmp_path: Path
) -> Iterator[tuple[str, int, str]]:
    """A real gunicorn server (gevent, or threads) that lets an address hold 2 waits (heartbeat 15 s: the default)."""
    port = free_port()
    env = {"TIENLEN_MAX_WAITERS_PER_ADDRESS": "2", "TIENLEN_HEARTBEAT": "15"}
    worker = str(request.param)
    args = ("--workers", "1", "--worker-class", worker) + (("--threads", "8") if worker == "gthread" else ())
    process = server_starter(redis_server.url, port, tmp_path / "server.log", env=env, args=args)
    try:
        yield "127.0.0.1", port, worker
    finally:
        stop_server(process)


def send_wait(address: tuple[str, int], path: str) -> socket.socket:
    """Send a GET on a raw socket, reading nothing; the socket."""
    connection = socket.create_connection(address, timeout=10)
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    return connection


def status_of(connection: socket.socket, within_s: float) -> int | None:
    """The status of the answer, if its first line comes within ``within_s`` (None: still waiting)."""
    connection.settimeout(within_s)
    head = b""
    try:
        while b"\r\n" not in head:
            chunk = connection.recv(1)
            assert chunk, "the server closed the connection"
            head += chunk
    except TimeoutError:
        return None
    return int(head.split()[1])


def create_over_http(address: tuple[str, int]) -> str:
    """A waiting match made over HTTP; its id."""
    import http.client
    import json

    connection = http.client.HTTPConnection(*address, timeout=10)
    connection.request("POST", "/v1/matches", json.dumps(WAITING), {"Content-Type": "application/json"})
    body: dict[str, Any] = json.loads(connection.getresponse().read())
    connection.close()
    return str(body["match_id"])


@pytest.mark.xdist_group("live_server")
@pytest.mark.parametrize("kind", ["stream", "long poll"])
def test_a_wait_whose_client_hung_up_gives_its_slot_back_at_once(
    capped_server: tuple[str, int, str], kind: str
) -> None:
    """Rule: a client that closes its stream (or long poll) frees its slot within a second or two (measured
    here), not at the next heartbeat (15 s): the server notices the hang-up itself."""
    host, port, worker = capped_server
    address = (host, port)
    match_id = create_over_http(address)
    stream = kind == "stream"
    path = f"/v1/matches/{match_id}/stream?after=9" if stream else f"/v1/matches/{match_id}/events?after=9&wait=30"
    waiting = 200 if stream else None  # what a wait that holds its slot shows at once: a stream's head, or nothing
    held = [send_wait(address, path) for _ in range(2)]
    assert [status_of(c, 1.0) for c in held] == [waiting, waiting]
    extra = send_wait(address, path)
    assert status_of(extra, 5.0) == 429, "the cap is full"
    extra.close()
    held[0].close()
    started = time.monotonic()
    while True:
        again = send_wait(address, path)
        status = status_of(again, 0.3 if not stream else 5.0)
        if status != 429:
            break
        again.close()
        assert time.monotonic() - started < 5, "the slot of the client that left was not given back"
        time.sleep(0.05)
    freed_s = time.monotonic() - started
    assert status == waiting
    probe_s = 0.0 if stream else 0.3  # a long poll is known to be waiting once nothing came for 0.3 s
    assert freed_s - probe_s < FREED_WITHIN_S[worker], f"freed after {freed_s:.2f} s"
    print(f"\n{worker} {kind}: the slot came back within {(freed_s - probe_s) * 1000:.0f} ms of the hang-up")
    again.close()
    held[1].close()
