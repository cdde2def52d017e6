"""Reviews: ``GET /v1/matches/{id}/review`` queues a review (202 with progress), a sweep computes it, then 200.

Rules checked: a review is for a finished match (409 ``match_not_finished`` before, 404 for no match); the first
ask answers 202 ``pending``; after the sweeper's run the answer is 200 with every action of the match as a
decision, per seat; a decision never names a card another seat held hidden at that moment; a job whose worker
died (its lease ran out) is taken again; the Python client waits for it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import redis
from flask import Flask
from tienlen_client.botkit import lowest_play

from tests.support.api import Api, json_object
from tienlen.api.services import services_of
from tienlen.engine import cards_mask, format_mask
from tienlen.local_redis import LocalRedis
from tienlen.service.reviews import LEASE_S, UNKEPT_TTL_S
from tienlen.store.redis_reviews import review_key

CARD = re.compile(r"\b(?:10|[2-9JQKA])[SCDH]\b")


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[LocalRedis]:
    """A Redis of this test's own: the session's is shared with real servers (tests/web's, the live server) whose
    sweepers take pending reviews, and these tests count what this app's own sweep takes."""
    with LocalRedis(tmp_path / "redis") as server:
        yield server


def _finished(api: Api, seed: int) -> str:
    """A one-hand 4-seat match (seat 0 remote playing its lowest play, house bots elsewhere) played out."""
    seats = [{"name": "Remote"}, *({"name": f"Bot {n}", "bot": "medium"} for n in range(1, 4))]
    created = api.create(seats=seats, rules={"hands": 1}, seed=seed)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    for _ in range(200):
        view = api.view(match_id, token)
        if view["status"] == "finished":
            return str(match_id)
        cards = lowest_play(view)
        body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        assert api.act(match_id, token, body).status_code == 200
    raise AssertionError("the match did not end")


def _get(api: Api, match_id: str) -> tuple[int, dict[str, Any]]:
    response = api.client.get(f"/v1/matches/{match_id}/review")
    return response.status_code, json_object(response)


def test_a_review_is_queued_then_computed_by_the_sweep(api: Api, app: Flask, redis_server: Any) -> None:
    match_id = _finished(api, seed=31)
    status, body = _get(api, match_id)
    assert (status, body["status"]) == (202, "pending")
    ttl = int(cast(int, redis.Redis.from_url(redis_server.url).ttl(review_key(match_id))))
    assert UNKEPT_TTL_S - 5 <= ttl <= UNKEPT_TTL_S, "a match nobody with an account sat in: kept a day"
    assert set(body) == {"status", "progress"}
    assert _get(api, match_id)[0] == 202, "asking again queues nothing new"
    assert services_of(app).game.reviews.sweep() is True
    status, review = _get(api, match_id)
    assert status == 200, review
    replay = json_object(api.client.get(f"/v1/matches/{match_id}/replay"))
    actions = [a for hand in replay["hands"] for a in hand["actions"]]
    decisions = [d for seat in review["seats"] for d in seat["decisions"]]
    assert len(decisions) == len(actions) == review["progress"]["total"]
    assert {d["grade"] for d in decisions} <= {"forced", "good", "inaccuracy", "mistake", "blunder"}
    graded = [d for d in decisions if d["grade"] != "forced"]
    assert graded and all(d["explanation"] and d["taken"]["first"] is not None for d in graded)
    assert services_of(app).game.reviews.sweep() is False, "nothing left to do"


def _hidden_from(replay: dict[str, Any]) -> dict[tuple[int, int], int]:
    """For each (hand number, action index): the cards the acting seat could not see (others' unplayed cards)."""
    out = {}
    for hand in replay["hands"]:
        held = [cards_mask(cards) for cards in hand["deal"]]
        for index, action in enumerate(hand["actions"], start=1):
            seat = action["seat"]
            out[(hand["hand_number"], index)] = sum(h for s, h in enumerate(held) if s != seat)
            if action["cards"]:
                held[seat] &= ~cards_mask(action["cards"])
    return out


def test_a_review_never_names_a_card_hidden_from_the_deciding_seat(api: Api, app: Flask) -> None:
    match_id = _finished(api, seed=32)
    _get(api, match_id)
    services_of(app).game.reviews.sweep()
    status, review = _get(api, match_id)
    assert status == 200
    hidden = _hidden_from(json_object(api.client.get(f"/v1/matches/{match_id}/replay")))
    checked = 0
    for seat in review["seats"]:
        for d in seat["decisions"]:
            text = " ".join(
                [*d["taken"]["cards"], *d["best"]["cards"], d["explanation"] or "", d["taken_explanation"] or ""]
            )
            named = cards_mask(set(CARD.findall(text)))
            secret = hidden[(d["hand_number"], d["index"])]
            assert not named & secret, f"decision {d['hand_number']}/{d['index']} names {format_mask(named & secret)}"
            checked += 1
    assert checked > 20


def test_no_review_before_the_end_and_none_of_an_unknown_match(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B", "bot": "easy"}], seed=1)
    status, body = _get(api, created["match_id"])
    assert (status, body["reason"]) == (409, "match_not_finished")
    status, body = _get(api, "0123456789abcdef0123")
    assert (status, body["reason"]) == (404, "match_not_found")


def test_a_job_whose_worker_died_is_taken_again(api: Api, app: Flask) -> None:
    match_id = _finished(api, seed=33)
    _get(api, match_id)
    reviews = services_of(app).game.reviews
    assert reviews.store.claim(time.time() - 2 * LEASE_S, LEASE_S, "a-dead-worker") == match_id
    status, body = _get(api, match_id)
    assert (status, body["status"]) == (202, "running")
    assert reviews.sweep() is True, "its lease ran out: taken again"
    assert _get(api, match_id)[0] == 200


def test_the_review_of_a_match_closed_to_watchers_is_read_by_its_seats_only(api: Api) -> None:
    """Rule: a review is read by whoever may read the replay: a match whose host turned watching off (as a
    duplicate tournament's tables are: another table may still play the same cards) answers its seats only, 403
    `not_watchable` for anyone else, before anything is queued."""
    seats = [{"name": "Remote"}, {"name": "Bot", "bot": "easy"}]
    created = api.create(seats=seats, rules={"hands": 1}, seed=5, watchable=False)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    for _ in range(200):
        view = api.view(match_id, token)
        if view["status"] == "finished":
            break
        cards = lowest_play(view)
        api.act(match_id, token, {"type": "pass"} if cards is None else {"type": "play", "cards": cards})
    status, body = _get(api, match_id)
    assert (status, body["reason"]) == (403, "not_watchable")
    seat = api.client.get(f"/v1/matches/{match_id}/review", headers={"Authorization": f"Bearer {token}"})
    assert seat.status_code == 202
