"""Turn clocks and takeover: what a match shows of its life, clocks that run out, and the sweepers of real servers.

The Flask test client on the session's private Redis, with the service's
clock moved by hand, for the rules; real ``tienlen serve`` processes for the
sweepers that fire clocks with no client at all.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask

from tests.support.api import Api
from tests.support.lifecycle import Clock, events, play_turn, rfc3339, service_of, tokens_of
from tests.support.servers import ServerStarter, stop_server
from tienlen.api import schemas
from tienlen.local_redis import LocalRedis, free_port
from tienlen.service import MatchService

from .test_api_stream import _ok


@pytest.fixture
def clock(app: Flask, redis_server: LocalRedis) -> Clock:
    """The service's clock, moved by the test (earlier tests' turn clocks are forgotten, not fired)."""
    redis.Redis.from_url(redis_server.url).delete("tl:{clock}:deadlines")
    moved = Clock()
    service: MatchService = app.extensions["tienlen"]
    service.now = moved
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


@pytest.mark.xdist_group("live_server")
def test_two_servers_fire_each_deadline_once_with_no_client_within_a_second(servers: list[str]) -> None:
    seats = [{"name": n} for n in "ABCD"]
    clock = {"turn_seconds": 1, "timeouts_before_takeover": 10}
    created = time.monotonic()
    matches = [
        _ok(servers[i % 2], "POST", "/v1/matches", {"seats": seats, "clock": clock, "seed": i})["match_id"]
        for i in range(4)
    ]
    # (page number, arrival, event): events that came in one page arrived together, whenever they were made
    seen: dict[str, list[tuple[int, float, dict[str, Any]]]] = {m: [] for m in matches}
    stop = time.monotonic() + 4.5

    def follow(index: int, match_id: str) -> None:
        after, page_number = 0, 0
        while time.monotonic() < stop:
            page = _ok(servers[index % 2], "GET", f"/v1/matches/{match_id}/events?after={after}&wait=1")
            now, page_number = time.time(), page_number + 1
            for event in page["events"]:
                seen[match_id].append((page_number, now, event))
            after = page["last_seq"]

    threads = [threading.Thread(target=follow, args=(i, m)) for i, m in enumerate(matches)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ended = time.monotonic()
    for match_id, arrived in seen.items():
        timeouts = [(page, at) for page, at, event in arrived if event["type"] == "timed_out"]
        # each turn lasts a second from the match's creation: no more deadlines pass than whole seconds
        # (a doubled one would make more), and the sweeper acts within a second of each, so 3 are seen
        assert 3 <= len(timeouts) <= int(ended - created), (match_id, len(timeouts), ended - created)
        # a deadline fired twice shows as two timeouts at once; compare arrivals in different pages only
        # (a late page carries two real ones together) and allow a few hundred ms of lateness
        gaps = [b[1] - a[1] for a, b in itertools.pairwise(timeouts) if a[0] != b[0]]
        assert all(gap > 0.3 for gap in gaps), f"a deadline fired twice in {match_id}: gaps {gaps}"
        kinds = [event["type"] for _, _, event in arrived]
        for index, kind in enumerate(kinds):
            if kind == "timed_out":
                assert kinds[index + 1] in ("played", "passed"), "each timeout is one action"
    final = _ok(servers[0], "GET", f"/v1/matches/{matches[0]}")
    deadline = rfc3339(final["turn_deadline"])
    assert -0.2 < deadline - time.time() <= 1.0


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
