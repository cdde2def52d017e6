"""Turn clocks and takeover: what a match shows of its life, clocks that run out, and the sweepers of real servers.

The Flask test client on the session's private Redis, with the service's
clock moved by hand, for the rules; real ``tienlen serve`` processes for the
sweepers that fire clocks with no client at all.
"""

from __future__ import annotations

import itertools
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from tests.support.api import Api
from tests.support.lifecycle import Clock, events, play_turn, rfc3339, service_of, tokens_of
from tests.support.pace import paced
from tests.support.servers import ServerStarter, stop_server
from tests.support.sse import SseReader
from tienlen.api import runtime, schemas
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis, free_port
from tienlen.service import MatchServices

from .test_api_stream import _ok


@pytest.fixture
def clock(app: Flask, redis_server: LocalRedis) -> Clock:
    """The service's clock, moved by the test (earlier tests' turn clocks are forgotten, not fired)."""
    redis.Redis.from_url(redis_server.url).delete("tl:{clock}:deadlines")
    moved = Clock()
    service: MatchServices = services_of(app).game
    service.core.now = moved
    return moved


# ----- what a match shows of its life ------------------------------------------------------


def test_a_match_shows_its_clock_times_listing_and_rematch(api: Api) -> None:
    created = api.create(
        seats=[{"name": "A"}, {"name": "B", "bot": "easy"}], clock={"turn_seconds": 30}, listed=False, seed=5
    )
    match = created["match"]
    assert match["clock"] == {"turn_seconds": 30, "timeouts_before_takeover": 2}
    assert match["listed"] is False and match["next_match_id"] is None
    assert abs(rfc3339(match["created_at"]) - time.time()) < 5
    assert rfc3339(match["updated_at"]) >= rfc3339(match["created_at"])
    assert match["turn"] == 0, "the bot plays until the remote seat is on turn"
    assert 25 < rfc3339(match["turn_deadline"]) - time.time() <= 30
    assert [(s["left"], s["taken_over"]) for s in match["seats"]] == [(False, False), (False, False)]
    no_clock = api.create(seats=[{"name": "A"}, {"name": "B"}])["match"]
    assert no_clock["clock"] is None and no_clock["turn_deadline"] is None


def test_the_answer_to_an_action_says_what_the_bots_played(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B", "bot": "easy"}, {"name": "C", "bot": "easy"}], seed=9)
    match_id, tokens = created["match_id"], tokens_of(created)
    before = created["match"]["last_seq"]
    answer = play_turn(api, match_id, tokens)
    assert schemas.ActionAnswerSchema().validate(answer) == {}
    told = answer["events"]
    assert told == events(api.client, match_id, before), "the answer carries exactly the new events"
    assert told[0]["type"] in ("played", "passed") and told[0]["seat"] == 0
    assert {e["seat"] for e in told if e["type"] in ("played", "passed")} >= {1, 2} or answer["status"] != "playing"
    assert told[-1]["seq"] == answer["last_seq"]


# ----- turn clocks --------------------------------------------------------------------------


def test_a_clock_that_runs_out_passes_or_plays_the_lowest_play_including_the_start_card(
    app: Flask, api: Api, clock: Clock
) -> None:
    deal = [["3S", "7H", "9D"], ["4S", "5C", "QH"]]
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], deal=deal, clock={"turn_seconds": 20})
    match_id, tokens = created["match_id"], tokens_of(created)
    service = service_of(app)
    clock.now += 19
    assert service.sweep() == 0, "not yet"
    clock.now += 2
    assert service.sweep() == 1
    assert service.sweep() == 0, "a deadline fires once"
    found = events(api.client, match_id, created["match"]["last_seq"])
    assert found[0] == {
        "type": "timed_out",
        "seat": 0,
        "action": {"type": "play", "cards": ["3S"]},
        "seq": found[0]["seq"],
    }, "a lead may not pass: the lowest play, which must include the start card"
    assert found[1]["type"] == "played" and found[1]["cards"] == ["3S"]
    assert len(found) == 2
    clock.now += 21
    assert service.sweep() == 1
    answered = events(api.client, match_id, found[-1]["seq"])
    assert answered[0]["action"] == {"type": "pass", "cards": []} and answered[1] == {
        "type": "passed",
        "seat": 1,
        "seq": answered[1]["seq"],
    }
    assert api.view(match_id, tokens[1])["seats"][1]["taken_over"] is False


def test_takeover_after_the_clock_s_timeouts_in_a_row_and_acting_resets_the_count(
    app: Flask, api: Api, clock: Clock
) -> None:
    created = api.create(
        seats=[{"name": "A"}, {"name": "B"}, {"name": "C"}],
        clock={"turn_seconds": 10, "timeouts_before_takeover": 2},
        takeover="easy",
        seed=21,
    )
    match_id, tokens = created["match_id"], tokens_of(created)
    service = service_of(app)

    def time_out() -> int:
        seat: int = api.public(match_id)["turn"]
        clock.now += 11
        assert service.sweep() == 1
        return seat

    first = time_out()
    while api.public(match_id)["turn"] != first:  # the others act on their turns
        play_turn(api, match_id, tokens)
    play_turn(api, match_id, tokens)  # the seat acts itself: its count starts again
    while api.public(match_id)["turn"] != first:
        play_turn(api, match_id, tokens)
    assert time_out() == first
    public = api.public(match_id)
    assert public["seats"][first]["taken_over"] is False, "one timeout since it acted"
    while public["turn"] != first and public["status"] == "playing":
        seat = time_out()
        assert seat != first
        public = api.public(match_id)
    if public["status"] != "playing":
        pytest.fail("the match ended before the seat's turn came back")
    assert time_out() == first
    public = api.public(match_id)
    assert public["seats"][first]["taken_over"] is True and public["seats"][first]["bot"] == "easy"
    assert any(
        e["type"] == "seat_taken_over" and e["seat"] == first and e["bot"] == "easy"
        for e in events(api.client, match_id)
    )
    assert api.view(match_id, tokens[first])["seat"] == first, "a seat taken over can still watch with its token"


def test_when_every_remote_seat_is_taken_over_the_match_is_abandoned(app: Flask, api: Api, clock: Clock) -> None:
    created = api.create(
        seats=[{"name": "A"}, {"name": "B", "bot": "easy"}],
        clock={"turn_seconds": 5, "timeouts_before_takeover": 1},
        seed=4,
    )
    match_id = created["match_id"]
    clock.now += 6
    assert service_of(app).sweep() == 1
    public = api.public(match_id)
    assert (public["status"], public["winner"], public["winners"]) == ("finished", None, [])
    assert [e["type"] for e in events(api.client, match_id)][-2:] == ["seat_taken_over", "match_abandoned"]
    assert public["turn_deadline"] is None


@pytest.fixture
def servers(redis_server: LocalRedis, server_starter: ServerStarter, tmp_path: Path) -> Iterator[list[str]]:
    """Two real servers (each with its sweeper) on the same Redis."""
    started = []
    bases = []
    for index in range(2):
        port = free_port()
        started.append(server_starter(redis_server.url, port, tmp_path / f"server{index}.log"))
        bases.append(f"http://127.0.0.1:{port}")
    yield bases
    for process in started:
        stop_server(process)


MATCHES = 6
TIMEOUTS_BEFORE_TAKEOVER = 2
LATE_EACH_S = 2.0  # generous: a loaded 2-core machine can stall any process for a while
LATE_MEDIAN_S = 0.5  # on a quiet machine; scaled by its load (tests/support/pace.py), never past a second


def _watch_deadlines(base: str, match_id: str, deadlines: dict[int, float], stop: threading.Event) -> None:
    """Note the turn deadline the match shows after each of its events (by last_seq) until it is over."""
    while not stop.is_set():
        public = _ok(base, "GET", f"/v1/matches/{match_id}")
        if public["turn_deadline"] is not None:
            deadlines.setdefault(public["last_seq"], rfc3339(public["turn_deadline"]))
        if public["status"] == "finished":
            return
        stop.wait(0.15)


def _follow(base: str, match_id: str, arrived: list[tuple[float, dict[str, Any]]], failures: list[str]) -> None:
    """Every event of the match from its stream, with when it arrived, until the stream ends."""
    try:
        reader = SseReader(base, f"/v1/matches/{match_id}/stream", timeout=30)
        assert reader.status == 200
        while (frame := reader.next()) is not None:
            if frame.comment is None:
                arrived.append((time.time(), frame.payload))
        reader.close()
    except Exception as error:  # reported by the test: a thread's assertion must fail it
        failures.append(f"{match_id}: {error!r}")


@pytest.mark.xdist_group("live_server")
def test_two_servers_fire_each_deadline_once_with_no_client_within_a_second(servers: list[str]) -> None:
    """Matches of two remote seats with 1 s turns and nobody acting, created on and followed from both servers.

    Each remote turn has one deadline. After its second timeout in a row a
    seat is taken over, and when both are the match is abandoned, so each
    match has exactly 2 x 2 deadlines however late the sweepers are: exactly
    four timeouts, two a seat, one a turn, each one action, then
    ``match_abandoned``. Every timeout reaches the stream within
    :data:`LATE_EACH_S` of its deadline (half of them within
    :data:`LATE_MEDIAN_S`), and never before it.
    """
    seats = [{"name": "A"}, {"name": "B"}]
    clock = {"turn_seconds": 1, "timeouts_before_takeover": TIMEOUTS_BEFORE_TAKEOVER}
    body = {"seats": seats, "clock": clock, "takeover": "easy", "rules": {"hands": 1}}
    created = [_ok(servers[i % 2], "POST", "/v1/matches", body | {"seed": i})["match"] for i in range(MATCHES)]
    ids = [m["match_id"] for m in created]
    arrived: dict[str, list[tuple[float, dict[str, Any]]]] = {m: [] for m in ids}
    deadlines: dict[str, dict[int, float]] = {
        m["match_id"]: {m["last_seq"]: rfc3339(m["turn_deadline"])} for m in created
    }
    failures: list[str] = []
    stop = threading.Event()
    followers = [  # each followed from the server that did not create it
        threading.Thread(target=_follow, args=(servers[(i + 1) % 2], m, arrived[m], failures))
        for i, m in enumerate(ids)
    ]
    watchers = [
        threading.Thread(target=_watch_deadlines, args=(servers[i % 2], m, deadlines[m], stop))
        for i, m in enumerate(ids)
    ]
    for thread in followers + watchers:
        thread.start()
    for thread in followers:
        thread.join(timeout=40)
    stop.set()
    for thread in watchers:
        thread.join(timeout=10)
    assert not failures, failures
    lateness: list[float] = []
    for match_id in ids:
        got = [event for _, event in arrived[match_id]]
        assert got == _ok(servers[0], "GET", f"/v1/matches/{match_id}/events")["events"], "the stream saw every event"
        assert got[-1]["type"] == "match_abandoned", (match_id, [e["type"] for e in got][-6:])
        timeouts = [(at, event) for at, event in arrived[match_id] if event["type"] == "timed_out"]
        seats_timed_out = [event["seat"] for _, event in timeouts]
        assert sorted(seats_timed_out) == [0] * TIMEOUTS_BEFORE_TAKEOVER + [1] * TIMEOUTS_BEFORE_TAKEOVER, (
            f"{match_id}: each deadline fires exactly once: {seats_timed_out}"
        )
        # one timeout a turn: a turn is the hand and the actions played in it before
        turns, hand, actions = [], 0, 0
        for index, event in enumerate(got):
            if event["type"] == "hand_started":
                hand, actions = event["hand_number"], 0
            elif event["type"] == "timed_out":
                turns.append((hand, actions))
                assert got[index + 1]["type"] in ("played", "passed"), "each timeout is one action"
                assert got[index + 1]["seat"] == event["seat"]
            elif event["type"] in ("played", "passed"):
                actions += 1
        assert len(set(turns)) == len(turns), f"{match_id}: two timeouts of one turn {turns}"
        for at, event in timeouts:
            deadline = deadlines[match_id].get(event["seq"] - 1)
            if deadline is None:
                continue  # the watcher did not see that state (a slow request): not measured
            assert at - deadline > -0.05, f"{match_id}: fired {deadline - at:.3f} s before its deadline"
            lateness.append(at - deadline)
        public = _ok(servers[1], "GET", f"/v1/matches/{match_id}")
        assert (public["status"], public["winner"], public["turn_deadline"]) == ("finished", None, None)
        assert all(seat["taken_over"] for seat in public["seats"])
    assert len(lateness) >= MATCHES * 2, f"too few timeouts measured: {len(lateness)}"
    assert max(lateness) < LATE_EACH_S, f"a timeout came {max(lateness):.2f} s after its deadline: {lateness}"
    median_s = paced(LATE_MEDIAN_S, cap_s=1.0)
    assert statistics.median(lateness) < median_s, f"timeouts came late (median over {median_s:.2f} s): {lateness}"


@pytest.mark.xdist_group("live_server")
def test_the_clock_fires_at_most_a_second_after_the_deadline(servers: list[str]) -> None:
    base = servers[0]
    created = _ok(
        base,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "A"}, {"name": "B", "bot": "easy"}], "clock": {"turn_seconds": 1}},
    )
    match_id = created["match_id"]
    deadline = rfc3339(created["match"]["turn_deadline"])
    page = _ok(base, "GET", f"/v1/matches/{match_id}/events?after={created['match']['last_seq']}&wait=5")
    arrived = time.time()
    assert page["events"][0]["type"] == "timed_out"
    assert arrived - deadline < 1.0, f"fired {arrived - deadline:.2f} s after the deadline"


def test_the_sweeper_keeps_its_pace_and_applies_timeouts_side_by_side() -> None:
    """A slow round is followed by the next at once (not by a whole pause); one slow timeout holds up no other."""
    calls: list[float] = []
    finished: list[tuple[str, float]] = []
    stopped = threading.Event()

    def slow(name: str, seconds: float) -> Callable[[], object]:
        def work() -> None:
            time.sleep(seconds)
            finished.append((name, time.monotonic()))

        return work

    def failing() -> None:
        raise RuntimeError("Redis went away")

    def sweep(*, dispatch: Callable[[Callable[[], object]], object]) -> int:
        calls.append(time.monotonic())
        if len(calls) == 1:
            for task in (slow("slow", 1.0), failing, slow("quick", 0.05)):
                dispatch(task)
            return 3
        if len(calls) == 2:
            time.sleep(0.5)  # a slow round
        return 0

    began = time.monotonic()
    thread = runtime.run_sweeper(sweep, stopped)
    time.sleep(1.5)
    stopped.set()
    thread.join(timeout=5)
    assert not thread.is_alive()
    quick = dict(finished)["quick"] - began
    assert quick < 0.6, f"a quick timeout waited {quick:.2f} s for a slow one"
    assert dict(finished)["slow"] - began >= 1.0
    gaps = [b - a for a, b in itertools.pairwise(calls)]
    assert gaps[1] < runtime.SWEEP_EVERY_S + 0.5 + 0.3, f"the round after a slow one waited again: {gaps[:3]}"
    assert len(calls) >= 5, "the sweeper went on after a timeout failed"
