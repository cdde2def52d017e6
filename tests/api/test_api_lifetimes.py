"""How long Redis keeps a match: by its status, from the settings, read from the keys' TTLs.

Defaults: a match waiting for seats 1 h after its last change
(``TIENLEN_WAITING_TTL``), in play 7 days (``TIENLEN_MATCH_TTL``), finished
24 h (``TIENLEN_FINISHED_TTL``); answers kept for an ``Idempotency-Key`` 24 h.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from tests.support.api import json_object
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.settings import DEFAULT_FINISHED_TTL_S, DEFAULT_TTL_S, DEFAULT_WAITING_TTL_S

SLACK_S = 60  # a loaded machine may take a while between the write and the read of its TTL
TWO_SEATS_ONE_HAND = {"seats": [{"name": "A"}, {"name": "B"}], "rules": {"hands": 1}, "deal": [["3S"], ["2H"]]}


@pytest.fixture
def direct(redis_server: LocalRedis) -> Iterator[Any]:
    """A plain Redis client on the tests' Redis, to read TTLs (never to change anything)."""
    client: Any = redis.Redis.from_url(redis_server.url)  # redis-py's answers are loosely typed
    yield client
    client.close()


def app_client(redis_server: LocalRedis, **settings: str) -> FlaskClient:
    """A test client of an app on the tests' Redis with these settings (rate limits off, open hosting)."""
    config = {"REDIS_URL": redis_server.url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    config |= {"TIENLEN_ANONYMOUS_HOSTING": "1"}
    return create_app(config | settings).test_client()


def ttls(direct: Any, match_id: str) -> dict[str, int]:
    """Seconds left of each of the match's keys that exist (state, events, kept answers)."""
    found = {"state": int(direct.ttl(f"tl:{{{match_id}}}:state"))}
    if direct.exists(f"tl:{{{match_id}}}:events"):
        found["events"] = int(direct.ttl(f"tl:{{{match_id}}}:events"))
    for number, key in enumerate(sorted(direct.scan_iter(f"tl:{{{match_id}}}:idem:*"))):
        found[f"kept{number}"] = int(direct.ttl(key))
    return found


def about(seconds: int) -> range:
    """The TTLs a key written with ``seconds`` may show a moment later."""
    return range(seconds - SLACK_S, seconds + 1)


def finish(client: FlaskClient, created: dict[str, Any]) -> None:
    """Seat 0 plays its one card: it is out, and the one-hand match is over."""
    token = created["tokens"][0]["token"]
    answer = client.post(
        f"/v1/matches/{created['match_id']}/actions",
        json={"type": "play", "cards": ["3S"]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200 and json_object(answer)["status"] == "finished", answer.json


def test_default_lifetimes_waiting_one_hour_playing_seven_days_finished_one_day(
    redis_server: LocalRedis, direct: Any
) -> None:
    client = app_client(redis_server)
    assert (DEFAULT_WAITING_TTL_S, DEFAULT_TTL_S, DEFAULT_FINISHED_TTL_S) == (3600, 7 * 24 * 3600, 24 * 3600)

    waiting = json_object(client.post("/v1/matches", json={"seats": [{"name": "A"}, {"open": True}]}))
    assert ttls(direct, waiting["match_id"])["state"] in about(3600), "a never-filled match goes after 1 h"
    joined = client.post(f"/v1/matches/{waiting['match_id']}/join", json={"name": "B"})
    assert joined.status_code == 201
    dealt = ttls(direct, waiting["match_id"])
    assert dealt["state"] in about(DEFAULT_TTL_S) and dealt["events"] in about(DEFAULT_TTL_S), dealt

    created = json_object(client.post("/v1/matches", json=TWO_SEATS_ONE_HAND))
    assert ttls(direct, created["match_id"])["state"] in about(DEFAULT_TTL_S)
    finish(client, created)
    done = ttls(direct, created["match_id"])
    assert done["state"] in about(24 * 3600) and done["events"] in about(24 * 3600), done


def test_lifetimes_follow_their_settings(redis_server: LocalRedis, direct: Any) -> None:
    client = app_client(redis_server, TIENLEN_WAITING_TTL="120", TIENLEN_MATCH_TTL="900", TIENLEN_FINISHED_TTL="300")
    waiting = json_object(client.post("/v1/matches", json={"seats": [{"name": "A"}, {"open": True}]}))
    assert ttls(direct, waiting["match_id"])["state"] in about(120)

    created = json_object(client.post("/v1/matches", json=TWO_SEATS_ONE_HAND))
    playing = ttls(direct, created["match_id"])
    assert playing["state"] in about(900) and playing["events"] in about(900), playing
    finish(client, created)
    done = ttls(direct, created["match_id"])
    assert done["state"] in about(300) and done["events"] in about(300), done


def test_a_waiting_match_lives_an_hour_after_its_last_change_and_a_kept_create_answer_a_day(
    redis_server: LocalRedis, direct: Any
) -> None:
    client = app_client(redis_server, TIENLEN_WAITING_TTL="200")
    body = {"seats": [{"name": "A"}, {"open": True}, {"open": True}]}
    created = json_object(client.post("/v1/matches", json=body, headers={"Idempotency-Key": str(uuid.uuid4())}))
    match_id = created["match_id"]
    first = ttls(direct, match_id)
    assert first["state"] in about(200) and first["kept0"] in about(24 * 3600), first
    assert client.post(f"/v1/matches/{match_id}/join", json={"name": "B"}).status_code == 201
    assert ttls(direct, match_id)["state"] in about(200), "still waiting: the waiting lifetime again"


@pytest.mark.parametrize("name", ["TIENLEN_WAITING_TTL", "TIENLEN_FINISHED_TTL", "TIENLEN_MATCH_TTL"])
def test_a_lifetime_setting_must_be_a_positive_number_of_seconds(name: str) -> None:
    for bad in ("0", "-5", "soon"):
        with pytest.raises(ValueError, match=name):
            create_app({"REDIS_URL": "redis://127.0.0.1:1/0", name: bad})
