"""A small simulation of rated play: an account that plays at random against each house bot level.

Rule checked: rated 2-player matches sort the players by strength: after rounds of matches against each
level, the random player's rating is below every house bot's. It runs on a Redis
database of its own (the tests' server, another database number), so the house bots start fresh there.
"""

from __future__ import annotations

import os
import random
from types import SimpleNamespace
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.api import Api, json_object
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis

ROUNDS = 8  # matches against each level
SEED = int(os.environ.get("TIENLEN_SIM_SEED", "26"))
SIM_DB = 7  # a database no other test uses


def random_action(legal: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A legal action chosen uniformly at random (a pass counts as one choice when allowed)."""
    choices: list[dict[str, Any]] = [{"type": "play", "cards": p["cards"]} for p in legal["plays"]]
    if legal["can_pass"]:
        choices.append({"type": "pass"})
    return rng.choice(choices)


def play_at_random(api: Api, match_id: str, token: str, rng: random.Random) -> None:
    """Seat 0 plays random legal actions until the match is over."""
    while api.public(match_id)["status"] == "playing":
        answer = api.act(match_id, token, random_action(api.legal(match_id, token), rng))
        assert answer.status_code == 200, answer.json


def rating(client: FlaskClient, name: str) -> dict[str, Any]:
    """The player's 2-player rating."""
    found = json_object(client.get(f"/v1/players/{name}"))["ratings"]
    return next(entry for entry in found if entry["players"] == 2)


def test_a_random_player_ends_below_every_house_bot(redis_server: LocalRedis, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: rated results order players by strength: a random player ends below every house bot (seeded deals)."""
    deals = random.Random(SEED)
    monkeypatch.setattr("tienlen.service.challenges.secrets", SimpleNamespace(randbits=deals.getrandbits))
    url = redis_server.url.rsplit("/", 1)[0] + f"/{SIM_DB}"
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    app = create_app({"REDIS_URL": url, **settings})
    client = app.test_client()
    api = Api(client)
    made = client.post(
        "/v1/accounts", json={"name": "randomwalk", "password": "correct horse battery", "kind": "human"}
    )
    assert made.status_code == 201, made.json
    token = json_object(made)["token"]
    rng = random.Random(SEED)
    for _ in range(ROUNDS):
        for level in ("easy", "medium", "hard"):
            body = {"to": [level], "players": 2, "preset": "ladder", "rated": True}
            created = client.post("/v1/challenges", json=body, headers=api.auth(token))
            assert created.status_code == 201, created.json
            play_at_random(api, json_object(created)["match_id"], token, rng)
    walker = rating(client, "randomwalk")
    assert walker["games"] == 3 * ROUNDS
    for level in ("easy", "medium", "hard"):
        bot = rating(client, level)
        assert bot["games"] == ROUNDS and bot["rating"] > walker["rating"], (level, bot, walker)
    board = json_object(client.get("/v1/leaderboard", query_string={"players": 2, "kind": "bot"}))["entries"]
    assert sorted(e["name"] for e in board) == ["easy", "hard", "medium"]
