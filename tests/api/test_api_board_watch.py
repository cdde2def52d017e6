"""Watch links on the leaderboard: each entry's ``watch`` (``GET /v1/leaderboard``).

Rules checked: a leader playing a watchable match has ``watch``, its id; one playing only a match whose host
turned watching off, or playing none, has null; after the match ends it is null again; with several live
matches it is the newest watchable one; a house bot (seated without a token of its own) never has one; a page of
leaders reads every listed match's record in one store read.

The leaderboards are one for the whole server, so these tests run on a Redis of their own, emptied before each.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import json_object
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis
from tienlen.service.rating_model import Rating
from tienlen.store.base import MatchStore

VS_BOT = [{"name": "x"}, {"name": "b", "bot": "easy"}]


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRedis]:
    """A Redis of this module's own (the leaderboards are the server's, shared by every account)."""
    with LocalRedis(tmp_path_factory.mktemp("board-redis"), appendonly=False) as server:
        yield server


@pytest.fixture
def board_app(own_redis: LocalRedis) -> Flask:
    """An app on the emptied Redis."""
    redis.Redis.from_url(own_redis.url).flushall()
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    return create_app({"REDIS_URL": own_redis.url, **settings})


@pytest.fixture
def web(board_app: Flask) -> FlaskClient:
    """A test client of that app."""
    return board_app.test_client()


def store_of(app: Flask) -> MatchStore:
    """The app's store."""
    return services_of(app).game.core.store


def rank_account(app: Flask, name: str, shown: int, players: int = 2) -> None:
    """Give the account named ``name`` a rating that shows ``shown`` at ``players`` seats, on its board (as a
    rated result would)."""
    store = store_of(app)
    account = store.accounts().find(name)
    assert account is not None
    base = Rating.new()
    rating = Rating(base.mu + (shown - 1500) / 40, base.sigma, 12)
    assert rating.shown == shown
    store.ratings().apply(account.account_id, "seeded-" + fresh_name(), players, (0.0, 1.0), rating.to_dict())
    store.ratings().rank(players, account.kind, account.account_id, shown)


def leader(app: Flask, client: FlaskClient, shown: int) -> dict[str, Any]:
    """A new human account on the 2-seat board at ``shown``: its name and token."""
    body = sign_up(client, fresh_name())
    name = body["account"]["name"]
    rank_account(app, name, shown)
    return {"name": name, "token": body["token"]}


def host(client: FlaskClient, player: dict[str, Any], **more: Any) -> str:
    """A match of the player (by its account's token) against a bot, dealt at once; its id."""
    answer = client.post("/v1/matches", json={"seats": VS_BOT, **more}, headers=auth(player["token"]))
    assert answer.status_code == 201, answer.json
    return str(json_object(answer)["match_id"])


def watch_links(client: FlaskClient, kind: str = "human", **query: Any) -> dict[str, str | None]:
    """Each leaderboard entry's ``watch`` by name (the 2-seat board of ``kind``)."""
    answer = client.get("/v1/leaderboard", query_string={"players": 2, "kind": kind, **query})
    assert answer.status_code == 200, answer.json
    return {entry["name"]: entry["watch"] for entry in json_object(answer)["entries"]}


def test_a_leader_playing_a_watchable_match_has_a_watch_link_until_it_ends(board_app: Flask, web: FlaskClient) -> None:
    """Rule: an entry whose account plays a watchable match has ``watch``, that match's id; one playing only a
    match whose host turned watching off, or none, has null; once the match ends, null."""
    playing, closed, idle = (leader(board_app, web, r) for r in (1700, 1650, 1600))
    watched = host(web, playing)
    host(web, closed, watchable=False)
    assert watch_links(web) == {playing["name"]: watched, closed["name"]: None, idle["name"]: None}
    left = web.post(f"/v1/matches/{watched}/leave", headers=auth(playing["token"]))
    assert left.status_code == 200 and json_object(left)["status"] == "finished"
    assert watch_links(web)[playing["name"]] is None


@pytest.mark.parametrize(
    ("watchable", "expected"),
    [
        ((True, True), 1),  # two watchable: the newest
        ((True, False), 0),  # the newest cannot be watched: the older one
        ((False, True), 1),
        ((False, False), None),
    ],
)
def test_the_watch_link_is_the_newest_watchable_live_match(
    board_app: Flask, web: FlaskClient, watchable: tuple[bool, bool], expected: int | None
) -> None:
    """Rule: an account that plays several live matches links the newest of those that may be watched."""
    player = leader(board_app, web, 1700)
    matches = [host(web, player, watchable=w) for w in watchable]
    assert watch_links(web)[player["name"]] == (None if expected is None else matches[expected])


def test_a_house_bot_never_has_a_watch_link(board_app: Flask, web: FlaskClient) -> None:
    """Rule: a house bot plays at server seats, not as an account at a seat of its own: on the bots' board it has
    no ``watch`` even while it plays a watchable match, whose challenger has it."""
    challenger = leader(board_app, web, 1700)
    answer = web.post(
        "/v1/challenges", json={"to": ["easy"], "players": 2, "preset": "ladder"}, headers=auth(challenger["token"])
    )
    assert answer.status_code == 201, answer.json
    match_id = json_object(answer)["match_id"]
    assert json_object(web.get(f"/v1/matches/{match_id}"))["status"] == "playing"
    rank_account(board_app, "easy", 1600)
    assert watch_links(web, kind="bot") == {"easy": None}
    assert watch_links(web)[challenger["name"]] == match_id


def test_a_page_reads_its_leaders_matches_in_one_store_read(
    board_app: Flask, web: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: a page of leaders costs one read of the live-seats index a leader, and one read of all their listed
    matches' records (not one a match); pages keep their links."""
    players = [leader(board_app, web, 1600 + 10 * n) for n in range(5)]
    matches = {p["name"]: host(web, p) for p in players}
    store = services_of(board_app).history.store
    loads: list[int] = []
    load_many = store.load_many

    def counted(match_ids: list[str]) -> Any:
        loads.append(len(match_ids))
        return load_many(match_ids)

    monkeypatch.setattr(store, "load_many", counted)
    assert watch_links(web) == matches
    assert loads == [5]
    first, second = watch_links(web, limit=3), watch_links(web, limit=3, cursor=_cursor(web, 3))
    assert first | second == matches and len(first) == 3


def _cursor(client: FlaskClient, limit: int) -> str:
    """The next cursor after the first page of ``limit`` of the 2-seat human board."""
    page = json_object(client.get("/v1/leaderboard", query_string={"players": 2, "limit": limit}))
    return str(page["next_cursor"])
