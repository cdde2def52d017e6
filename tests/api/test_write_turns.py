"""Writes take turns (tienlen.api.write_turns): at most N at once, each after the worker's ready work.

These run :class:`WriteTurns` with real threads, which take turns the same
way greenlets do under gevent; tests/api/test_api_stream.py checks a served
gevent worker.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest
from flask import Flask

from tienlen.api import create_app
from tienlen.api.write_turns import YIELD_MAX_S, WriteTurns, install_write_turns
from tienlen.settings import DEFAULT_WRITES_AT_ONCE, Settings


class Overlap:
    """Counts the writes running at once and the most seen."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.now = 0
        self.most = 0

    def inside(self, seconds: float) -> None:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(seconds)
        with self._lock:
            self.now -= 1


def run_all(jobs: list[Callable[[], object]]) -> None:
    threads = [threading.Thread(target=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads)


@pytest.mark.parametrize("at_once", [1, 2, 3])
def test_no_more_than_the_set_number_of_writes_run_at_once(at_once: int) -> None:
    turns = WriteTurns(at_once, lambda _max_s: None)
    overlap = Overlap()
    run_all([lambda: turns.run(lambda: overlap.inside(0.02)) for _ in range(8)])
    assert overlap.most == at_once


def test_a_write_lets_the_worker_settle_first_for_at_most_the_yield_limit() -> None:
    happened: list[str] = []
    turns = WriteTurns(1, lambda max_s: happened.append(f"settle {max_s}"))

    def write() -> str:
        happened.append("write")
        return "answer"

    assert turns.run(write) == "answer"
    assert happened == [f"settle {YIELD_MAX_S}", "write"]
    assert 0 < YIELD_MAX_S <= 0.5, "a write never waits long for the rest of the worker"


def test_a_failing_write_gives_its_turn_back() -> None:
    turns = WriteTurns(1, lambda _max_s: None)

    def fail() -> None:
        raise RuntimeError("the write failed")

    with pytest.raises(RuntimeError):
        turns.run(fail)
    finished = threading.Event()
    run_all([lambda: turns.run(finished.set)])
    assert finished.is_set(), "the next write got the turn"


def test_a_write_lends_its_turn_while_its_bots_think_and_takes_it_back_after() -> None:
    """Rule: one match's thinking bots do not hold every other write of the worker."""
    turns = WriteTurns(1, lambda _max_s: None)
    thinking = turns.lending(lambda work: work())
    overlap = Overlap()
    other_ran_while_thinking = threading.Event()
    think_started = threading.Event()

    def slow_write() -> None:
        overlap.inside(0.01)

        def think() -> None:
            think_started.set()
            assert other_ran_while_thinking.wait(5), "another write ran while this one's bots were thinking"

        thinking(think)
        overlap.inside(0.05)  # holding its turn again: the other write must not overlap this

    def quick_write() -> None:
        assert think_started.wait(5)
        overlap.inside(0.01)
        other_ran_while_thinking.set()
        overlap.inside(0.05)

    run_all([lambda: turns.run(slow_write), lambda: turns.run(quick_write)])
    assert other_ran_while_thinking.is_set()
    assert overlap.most == 1, "outside its bots' thinking a write holds its turn alone"


def test_thinking_outside_a_write_takes_no_turn() -> None:
    turns = WriteTurns(1, lambda _max_s: None)
    thinking = turns.lending(lambda work: work())
    assert thinking(lambda: "move") == "move"  # e.g. a hint (a GET): nothing to lend, nothing taken
    finished = threading.Event()
    run_all([lambda: turns.run(finished.set)])
    assert finished.is_set()


def test_only_posts_and_deletes_take_turns_reads_answer_at_once() -> None:
    app = Flask(__name__)

    @app.route("/thing", methods=["GET", "POST", "DELETE"])
    def thing() -> str:
        return "done"

    @app.get("/read")
    def read() -> str:
        return "read"

    turns = WriteTurns(1, lambda _max_s: None)
    install_write_turns(app, turns)
    client = app.test_client()
    held = threading.Event()
    release = threading.Event()

    def hold_the_turn() -> None:
        held.set()
        release.wait(5)

    holder = threading.Thread(target=turns.run, args=(hold_the_turn,))
    holder.start()
    try:
        assert held.wait(5)
        assert client.get("/read").text == "read"
        assert client.get("/thing").text == "done", "a GET of a route that also takes writes does not wait"
        answers: list[str] = []
        writer = threading.Thread(target=lambda: answers.append(client.post("/thing").text))
        writer.start()
        writer.join(timeout=0.3)
        assert writer.is_alive() and answers == [], "a POST waits for its turn"
        release.set()
        writer.join(timeout=5)
        assert answers == ["done"]
    finally:
        release.set()
        holder.join(timeout=5)


def test_writes_take_no_turn_while_the_worker_holds_no_waiting_client() -> None:
    """Rule: with nobody to deliver to, writes run as they come (their Redis round trips overlap)."""
    app = Flask(__name__)
    following = {"now": False}

    @app.post("/thing")
    def thing() -> str:
        return "done"

    turns = WriteTurns(1, lambda _max_s: None, lambda: following["now"])
    install_write_turns(app, turns)
    client = app.test_client()
    release = threading.Event()
    holder = threading.Thread(target=turns.run, args=(lambda: release.wait(5),))
    holder.start()
    try:
        time.sleep(0.05)
        answer = client.post("/thing")
        assert answer.text == "done", "not followed: no turn taken, no wait"
        assert "Server-Timing" not in answer.headers
        following["now"] = True
        answers: list[str] = []
        writer = threading.Thread(target=lambda: answers.append(client.post("/thing").text))
        writer.start()
        writer.join(timeout=0.3)
        assert writer.is_alive() and answers == [], "followed: the write waits for its turn"
    finally:
        release.set()
        holder.join(timeout=5)
    writer.join(timeout=5)
    assert answers == ["done"]


def test_a_write_in_turn_tells_how_long_it_waited_in_server_timing() -> None:
    app = Flask(__name__)

    @app.post("/thing")
    def thing() -> str:
        return "done"

    turns = WriteTurns(1, lambda _max_s: time.sleep(0.03))
    install_write_turns(app, turns)
    header = app.test_client().post("/thing").headers["Server-Timing"]
    name, _, duration = header.partition(";dur=")
    assert name == "turn" and 30 <= float(duration) < 1000, header
    assert "Server-Timing" not in app.test_client().get("/thing").headers, "405, and a read waits for nothing"


def test_writes_at_once_defaults_to_one_and_zero_turns_them_off() -> None:
    assert DEFAULT_WRITES_AT_ONCE == 1
    assert Settings.load({}).writes_at_once == 1
    assert Settings.load({"TIENLEN_WRITES_AT_ONCE": "0"}).writes_at_once == 0
    assert Settings.load({"TIENLEN_WRITES_AT_ONCE": "4"}).writes_at_once == 4


@pytest.mark.parametrize("bad", ["-1", "one", "1.5", ""])
def test_writes_at_once_must_be_a_whole_number_not_below_zero(bad: str) -> None:
    with pytest.raises(ValueError, match="TIENLEN_WRITES_AT_ONCE"):
        create_app({"REDIS_URL": "redis://127.0.0.1:1/0", "TIENLEN_WRITES_AT_ONCE": bad})
