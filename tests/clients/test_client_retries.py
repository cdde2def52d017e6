"""The client's Idempotency-Key and retries, against a scripted stub that drops, stalls and refuses.

The stub records every request it receives, so each test sees exactly how often a call was sent and
with which key.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, ConnectionFailed, RetryPolicy

from tests.clients.proxies import running
from tests.clients.stub import DROP, Answer, Slow, StubServer, refusal
from tienlen.local_redis import free_port

VIEW = {"status": "playing", "seat": 0, "turn": 1, "version": 3}


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    with running(server):
        yield server


def _client(stub: StubServer, pauses: list[float], timeout: float = 40.0, retry: RetryPolicy | None = None) -> Client:
    """A client of the stub whose pauses between attempts are recorded, not slept."""
    return Client(stub.url, timeout, retry=retry, sleep=pauses.append)


def test_a_dropped_connection_and_a_503_outcome_unknown_are_retried_with_the_same_idempotency_key(
    stub: StubServer,
) -> None:
    stub.script = [DROP, refusal(503, "outcome_unknown"), Answer(200, VIEW)]
    pauses: list[float] = []
    seat = _client(stub, pauses).seat("m", "tok")
    assert seat.play(["3S"], version=3) == VIEW
    sent = stub.received
    assert [(r.method, r.path) for r in sent] == [("POST", "/v1/matches/m/actions")] * 3
    keys = {r.key for r in sent}
    assert len(keys) == 1 and None not in keys, "every attempt of one call carries the same key"
    assert all(json.loads(r.body) == {"type": "play", "cards": ["3S"], "version": 3} for r in sent)
    assert all(r.headers["authorization"] == "Bearer tok" for r in sent)
    # exponential backoff with jitter: 0.25 s then 0.5 s, each drawn between half and all of it
    assert len(pauses) == 2 and 0.125 <= pauses[0] <= 0.25 and 0.25 <= pauses[1] <= 0.5
    seat.pass_turn()
    assert stub.received[-1].key not in keys, "the next call has a fresh key"


def test_a_503_store_unavailable_is_retried_and_a_timed_out_answer_too(stub: StubServer) -> None:
    stub.script = [refusal(503, "store_unavailable"), Slow(1.5, Answer(200, VIEW)), Answer(200, VIEW)]
    pauses: list[float] = []
    seat = _client(stub, pauses, timeout=0.5).seat("m", "tok")
    assert seat.pass_turn() == VIEW
    assert len(stub.received) == 3 and len({r.key for r in stub.received}) == 1
    assert len(pauses) == 2


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (409, "stale_version"),
        (409, "not_your_turn"),
        (422, "does_not_beat"),
        (401, "invalid_token"),
        (404, "match_not_found"),
        (503, "too_many_waiters"),
        (500, "internal_error"),
    ],
)
def test_a_write_refused_otherwise_is_not_retried(stub: StubServer, status: int, reason: str) -> None:
    stub.script = [refusal(status, reason)]
    pauses: list[float] = []
    with pytest.raises(ApiError) as refused:
        _client(stub, pauses).seat("m", "tok").play(["3S"])
    assert (refused.value.status, refused.value.reason, refused.value.attempts) == (status, reason, 1)
    assert refused.value.message == f"a scripted {reason}"
    assert refused.value.body["reason"] == reason
    assert len(stub.received) == 1 and pauses == []


def test_a_read_is_retried_after_any_503_and_after_a_dropped_connection(stub: StubServer) -> None:
    stub.script = [refusal(503, "too_many_waiters", retry_after="1"), DROP, Answer(200, {"events": [], "last_seq": 4})]
    pauses: list[float] = []
    assert _client(stub, pauses).events("m", after=4, wait=5) == {"events": [], "last_seq": 4}
    assert [r.path for r in stub.received] == ["/v1/matches/m/events?after=4&wait=5"] * 3
    assert all(r.key is None for r in stub.received), "a read carries no Idempotency-Key"
    # the drop came on the kept-alive connection: sent again at once on a new one, without a pause
    assert len(pauses) == 1 and 1.0 <= pauses[0] <= 1.1


def test_a_429_waits_its_retry_after_then_sends_the_same_call_again(stub: StubServer) -> None:
    created = {"match_id": "m", "tokens": [], "match": {}}
    stub.script = [refusal(429, "rate_limited", retry_after="2"), Answer(201, created)]
    pauses: list[float] = []
    assert _client(stub, pauses).create_match([{"name": "Ann"}]) == created
    assert len(stub.received) == 2 and len({r.key for r in stub.received}) == 1
    assert len(pauses) == 1 and 2.0 <= pauses[0] <= 2.2, "Retry-After is a lower bound, with a little jitter"
    # and with the real clock: the second attempt comes no sooner than Retry-After
    stub.script = [refusal(429, "rate_limited", retry_after="1"), Answer(201, created)]
    started = time.monotonic()
    Client(stub.url).join("m", "Bo")
    assert time.monotonic() - started >= 1.0
    assert stub.received[-1].key == stub.received[-2].key


def test_a_retry_after_longer_than_the_policy_allows_is_raised_at_once(stub: StubServer) -> None:
    stub.script = [refusal(429, "rate_limited", retry_after="3600")]
    pauses: list[float] = []
    with pytest.raises(ApiError) as limited:
        _client(stub, pauses).join("m", "Bo")
    assert (limited.value.status, limited.value.reason) == (429, "rate_limited")
    assert pauses == [] and len(stub.received) == 1


def test_attempts_are_bounded_and_the_last_refusal_is_raised(stub: StubServer) -> None:
    stub.script = [*[refusal(503, "outcome_unknown")] * 3, Answer(200, VIEW)]
    pauses: list[float] = []
    with pytest.raises(ApiError) as unknown:
        _client(stub, pauses, retry=RetryPolicy(attempts=3)).seat("m", "tok").pass_turn()
    assert (unknown.value.status, unknown.value.reason, unknown.value.attempts) == (503, "outcome_unknown", 3)
    assert len(stub.received) == 3 and len(pauses) == 2


def test_a_server_that_never_answers_raises_connection_failed_after_the_attempts() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    pauses: list[float] = []
    with pytest.raises(ConnectionFailed) as failed:
        Client(url, retry=RetryPolicy(attempts=3), sleep=pauses.append).join("m", "Bo")
    assert failed.value.attempts == 3 and isinstance(failed.value.cause, ConnectionRefusedError)
    assert isinstance(failed.value, ConnectionError), "code that catches OSError catches it"
    assert str(failed.value).startswith(f"no answer from {url} (POST /v1/matches/m/join) after 3 attempts: ")
    assert len(pauses) == 2


def test_every_write_carries_a_fresh_idempotency_key_and_reads_carry_none(stub: StubServer) -> None:
    stub.script = [
        Answer(201, {"match_id": "m", "tokens": [{"seat": 0, "token": "tok"}], "match": {}}),
        Answer(201, {"seat": 1, "token": "t1"}),
        Answer(200, VIEW),
        Answer(200, VIEW),
        Answer(200, {"status": "waiting"}),
        Answer(201, {"match_id": "n", "seat": 0, "token": "t2"}),
        Answer(204),
        Answer(200, VIEW),
    ]
    client = Client(stub.url)
    client.create_match([{"name": "Ann"}, {"open": True}], listed=True)
    client.join("m", "Bo")
    seat = client.seat("m", "tok")
    seat.play(["3S"])
    seat.pass_turn(key="my-own-key")
    seat.leave()
    seat.rematch()
    seat.cancel()
    seat.view()
    calls = [(r.method, r.path) for r in stub.received]
    assert calls == [
        ("POST", "/v1/matches"),
        ("POST", "/v1/matches/m/join"),
        ("POST", "/v1/matches/m/actions"),
        ("POST", "/v1/matches/m/actions"),
        ("POST", "/v1/matches/m/leave"),
        ("POST", "/v1/matches/m/rematch"),
        ("DELETE", "/v1/matches/m"),
        ("GET", "/v1/matches/m/view"),
    ]
    keys = [r.key for r in stub.received]
    assert keys[3] == "my-own-key"
    assert all(keys[:7]) and len(set(keys[:7])) == 7 and keys[7] is None
    assert json.loads(stub.received[0].body)["listed"] is True


def test_send_sends_once_whatever_the_answer(stub: StubServer) -> None:
    stub.script = [refusal(503, "outcome_unknown")]
    answer = Client(stub.url).send("POST", "/v1/matches/m/actions", {"type": "pass"}, token="tok")
    assert answer.status == 503 and answer.reason == "outcome_unknown"
    assert answer.headers["content-type"] == "application/json"
    assert len(stub.received) == 1 and stub.received[0].key


def test_a_retry_policy_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(attempts=0)
    with pytest.raises(ValueError):
        RetryPolicy(backoff_s=-1)
    policy = RetryPolicy(backoff_s=1, max_backoff_s=3)
    assert all(0.5 <= policy.pause_s(1) <= 1 for _ in range(50))
    assert all(1.5 <= policy.pause_s(5) <= 3 for _ in range(50)), "capped at max_backoff_s"
