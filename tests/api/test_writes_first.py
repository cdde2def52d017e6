"""Writes first: a process wakes its waiting clients once its write requests are answered.

A seat's play must not queue behind its spectators' streams (issue 42: the
seats' action latency with 1,000 spectators within 20 % of none; measured by
``make bench-watch``). These tests check the mechanism: every request that may
write is counted from its start until its answer is sent, and the process's
wake-up subscriber holds the wake-ups while one is, for a moment at most.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask

from tests.support.api import Api, json_object
from tests.support.lifecycle import play_turn, service_of, tokens_of
from tienlen.store import RedisMatchStore
from tienlen.store.layout import wake_channel
from tienlen.store.writes_first import GATHER_S, WRITES_FIRST_S, WritesFirst


def _until(condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


# ----- the count ------------------------------------------------------------------------------


def test_nothing_answered_lets_the_wake_ups_through_once_the_burst_is_gathered() -> None:
    assert 0 < GATHER_S <= 0.01  # what a burst's first message waits for the next ones, no more
    gate = WritesFirst(limit_s=5.0, gather_s=0.05)
    started = time.monotonic()
    assert gate.let_through()
    assert 0.045 <= time.monotonic() - started < 1.0


def test_the_wake_ups_wait_until_the_last_answer_is_ready() -> None:
    gate = WritesFirst(limit_s=10.0)
    through: list[float] = []
    with gate.answering():
        with gate.answering():
            waiting = threading.Thread(target=lambda: through.append(gate.let_through() and time.monotonic()))
            waiting.start()
            time.sleep(0.1)
        time.sleep(0.1)
        assert not through and gate.answering_now == 1, "one answer ended: the other still holds them"
        ended = time.monotonic()
    waiting.join(timeout=5)
    assert through and through[0] >= ended and gate.answering_now == 0


def test_an_answer_that_fails_ends_too() -> None:
    gate = WritesFirst(limit_s=10.0)
    with pytest.raises(ValueError, match="refused"), gate.answering():
        raise ValueError("refused")
    assert gate.answering_now == 0 and gate.let_through()


def test_the_wake_ups_wait_no_longer_than_the_limit() -> None:
    assert GATHER_S < WRITES_FIRST_S <= 0.05  # a spectator's delivery may take this much longer, no more
    gate = WritesFirst(limit_s=0.05)
    with gate.answering():
        started = time.monotonic()
        assert not gate.let_through()
        assert 0.04 <= time.monotonic() - started < 2.0


# ----- the app counts every request that may write ---------------------------------------------------


class Counted:
    """Wraps a store's :meth:`answering`: how many were begun, how many are still being answered."""

    def __init__(self, store: RedisMatchStore) -> None:
        self.begun = 0
        self.open = 0
        self.answering = store.answering

    @contextmanager
    def __call__(self) -> Iterator[None]:
        self.begun += 1
        self.open += 1
        try:
            with self.answering():
                yield
        finally:
            self.open -= 1


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "writes"),
    [
        ("post", "/v1/matches", {"seats": [{"name": "A"}, {"name": "B"}]}, 201, True),
        ("post", "/v1/matches", {"seats": []}, 422, True),
        ("post", "/v1/matches/0123456789abcdef0123/actions", {"type": "pass"}, 404, True),
        ("delete", "/v1/live/featured", None, 403, True),
        ("get", "/v1/rules", None, 200, False),
        ("get", "/v1/matches/0123456789abcdef0123", None, 404, False),
    ],
)
def test_every_request_that_may_write_is_answering_until_its_answer_is_made(
    app: Flask, monkeypatch: pytest.MonkeyPatch, method: str, path: str, body: Any, status: int, writes: bool
) -> None:
    store = service_of(app).core.store
    assert isinstance(store, RedisMatchStore)
    counted = Counted(store)
    monkeypatch.setattr(store, "answering", counted)
    response = getattr(app.test_client(), method)(path, json=body)
    assert response.status_code == status, response.get_data(as_text=True)
    assert counted.begun == (1 if writes else 0)
    assert counted.open == 0, "an answer made still counted as being answered: every wake-up would wait"
    assert store._waiting.writes_first.answering_now == 0


# ----- the wake-up waits for the answer -------------------------------------------------------------


def test_a_waiting_client_is_woken_only_once_this_process_has_answered_its_write(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = Api(app.test_client())
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"hands": 1}, seed=4)
    match_id, tokens, last = created["match_id"], tokens_of(created), created["match"]["last_seq"]
    store = service_of(app).core.store
    assert isinstance(store, RedisMatchStore)
    monkeypatch.setattr(store._waiting, "writes_first", WritesFirst(limit_s=30.0))
    answered: list[float] = []

    def poll() -> None:
        page = json_object(app.test_client().get(f"/v1/matches/{match_id}/events?after={last}&wait=20"))
        assert page.get("events"), f"the poll ended without the play: {page}"
        answered.append(time.monotonic())

    poller = threading.Thread(target=poll)
    poller.start()
    _until(lambda: getattr(store._waiting._feeds.get(wake_channel(match_id)), "confirmed", False))
    with store.answering():  # a write of this process still being answered
        play_turn(api, match_id, tokens)  # committed and published; its own answer has been made
        time.sleep(0.3)
        assert not answered, "the waiting client was woken while this process was still answering a write"
        ended = time.monotonic()
    poller.join(timeout=10)
    assert answered and answered[0] >= ended
