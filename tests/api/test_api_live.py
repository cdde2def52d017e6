"""The live table (``GET /v1/live``) and featuring a match on it (``PUT``/``DELETE /v1/live/featured``).

The live index is one for the whole server, so these tests run on a Redis of their own, emptied before each.
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
from tienlen.service.watching import LIVE_SCAN
from tienlen.store.watching import LiveEntry

MODERATOR = "m0derator-token-for-the-live-table-tests"
VS_BOT = [{"name": "x"}, {"name": "b", "bot": "easy"}]


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRedis]:
    """A Redis of this module's own (the live index is the server's, shared by every match)."""
    with LocalRedis(tmp_path_factory.mktemp("live-redis"), appendonly=False) as server:
        yield server


@pytest.fixture
def live_app(own_redis: LocalRedis) -> Flask:
    """An app with a moderator token on the emptied Redis."""
    redis.Redis.from_url(own_redis.url).flushall()
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    settings |= {"TIENLEN_ANONYMOUS_HOSTING": "1", "TIENLEN_MODERATOR_TOKEN": MODERATOR}
    return create_app({"REDIS_URL": own_redis.url, **settings})


@pytest.fixture
def web(live_app: Flask) -> FlaskClient:
    """A test client of that app."""
    return live_app.test_client()


def rated_player(app: Flask, client: FlaskClient, shown: int) -> dict[str, Any]:
    """A new account with a 2-seat rating that shows ``shown`` (written as a rated result would)."""
    body = sign_up(client, fresh_name())
    store = services_of(app).game.core.store
    account = store.accounts().find(body["account"]["name"])
    assert account is not None
    base = Rating.new()
    rating = Rating(base.mu + (shown - 1500) / 40, base.sigma, 12)
    assert rating.shown == shown
    store.ratings().apply(account.account_id, "seeded-" + fresh_name(), 2, (0.0, 1.0), rating.to_dict())
    return body


def host(client: FlaskClient, player: dict[str, Any] | None, **more: Any) -> str:
    """A match of the player against a bot, dealt at once; its id."""
    headers = {} if player is None else auth(player["token"])
    answer = client.post("/v1/matches", json={"seats": VS_BOT, **more}, headers=headers)
    assert answer.status_code == 201, answer.json
    return str(answer.get_json()["match_id"])


def live(client: FlaskClient) -> dict[str, Any] | None:
    """The live table's match (asserting 200)."""
    found: dict[str, Any] | None = table(client)["match"]
    return found


def table(client: FlaskClient) -> dict[str, Any]:
    """The whole live table: ``match`` and ``others`` (asserting 200)."""
    answer = client.get("/v1/live")
    assert answer.status_code == 200
    return json_object(answer)


def others(client: FlaskClient) -> list[str]:
    """The ids of the live table's other matches, in order."""
    return [entry["match_id"] for entry in table(client)["others"]]


def test_the_live_table_is_empty_without_a_live_match(web: FlaskClient) -> None:
    """Rule: with no watchable match being played, the live table's match is null."""
    assert table(web) == {"match": None, "others": []}
    host(web, None, watchable=False)
    assert table(web) == {"match": None, "others": []}


def test_the_live_table_shows_the_highest_rated_watchable_match_with_its_players(
    live_app: Flask, web: FlaskClient
) -> None:
    """Rule: the live match is the one whose rated seats' mean rating is highest, among watchable matches being
    played; it answers its seats with their ratings, its spectators, hand and start."""
    low, high, hidden = (rated_player(live_app, web, r) for r in (1600, 1700, 1900))
    host(web, low)
    best = host(web, high)
    host(web, hidden, watchable=False)
    host(web, None)  # no rated seat: last
    web.get(f"/v1/matches/{best}/events", query_string={"watcher": "w"})
    shown = live(web)
    assert shown is not None and shown["match_id"] == best
    assert shown["seats"] == [
        {"seat": 0, "name": high["account"]["name"], "bot": None, "rating": 1700},
        {"seat": 1, "name": "b", "bot": "easy", "rating": None},
    ]
    assert shown["featured"] is False and shown["spectators"] == 1 and shown["hand_number"] == 1
    assert shown["rules"]["players"] == 2 and shown["rated"] is False and shown["started_at"].endswith("Z")


def test_ties_go_to_the_newest_and_an_ended_match_leaves_the_table(live_app: Flask, web: FlaskClient) -> None:
    """Rule: between equal scores the newest match is shown; a match that ended is dropped and the next shown."""
    first, second = (rated_player(live_app, web, 1650) for _ in range(2))
    older = host(web, first)
    newer = host(web, second)
    shown = live(web)
    assert shown is not None and shown["match_id"] == newer
    left = web.post(f"/v1/matches/{newer}/leave", headers=auth(second["token"]))
    assert left.status_code == 200, left.json
    shown = live(web)
    assert shown is not None and shown["match_id"] == older


def test_a_featured_match_is_shown_while_played_then_the_best_again(live_app: Flask, web: FlaskClient) -> None:
    """Rule: a moderator's featured match is shown (featured: true) over a higher-rated one while it is played;
    unfeaturing it, or its end, shows the best live match again."""
    low, high = rated_player(live_app, web, 1550), rated_player(live_app, web, 1750)
    featured = host(web, low)
    best = host(web, high)
    answer = web.put("/v1/live/featured", json={"match_id": featured}, headers=auth(MODERATOR))
    assert answer.status_code == 204
    shown = live(web)
    assert shown is not None and shown["match_id"] == featured and shown["featured"] is True
    assert web.delete("/v1/live/featured", headers=auth(MODERATOR)).status_code == 204
    shown = live(web)
    assert shown is not None and shown["match_id"] == best
    assert web.put("/v1/live/featured", json={"match_id": featured}, headers=auth(MODERATOR)).status_code == 204
    web.post(f"/v1/matches/{featured}/leave", headers=auth(low["token"]))
    shown = live(web)
    assert shown is not None and shown["match_id"] == best and shown["featured"] is False


def test_featuring_and_unfeaturing_are_moderators_acts_in_the_audit_list(live_app: Flask, web: FlaskClient) -> None:
    """Rule: every moderator's act is in the audit list: featuring a match and featuring none too, newest first;
    a refused feature records nothing."""
    match_id = host(web, rated_player(live_app, web, 1600))
    assert web.put("/v1/live/featured", json={"match_id": "nosuchmatch"}, headers=auth(MODERATOR)).status_code == 404
    assert web.put("/v1/live/featured", json={"match_id": match_id}, headers=auth(MODERATOR)).status_code == 204
    assert web.delete("/v1/live/featured", headers=auth(MODERATOR)).status_code == 204
    acts = web.get("/v1/moderation/audit", headers=auth(MODERATOR)).get_json()["acts"]
    assert [(a["act"], a["target"]) for a in acts[:2]] == [("match_unfeatured", "live"), ("match_featured", match_id)]
    assert "nosuchmatch" not in str(acts)


@pytest.mark.parametrize("token", [None, "m0derator-token-for-the-live-table-test", "a-players-token"])
def test_featuring_is_refused_without_the_moderator_token(web: FlaskClient, token: str | None) -> None:
    """Rule: featuring and unfeaturing take the moderator token: anyone else is refused 403 not_moderator."""
    match_id = host(web, None)
    if token == "a-players-token":
        token = sign_up(web, fresh_name())["token"]
    headers = {} if token is None else auth(token)
    for answer in (
        web.put("/v1/live/featured", json={"match_id": match_id}, headers=headers),
        web.delete("/v1/live/featured", headers=headers),
    ):
        assert answer.status_code == 403 and answer.get_json()["reason"] == "not_moderator"
    shown = live(web)
    assert shown is not None and shown["featured"] is False


def test_a_match_that_cannot_be_featured_is_refused(web: FlaskClient) -> None:
    """Rule: featuring an unknown match is 404 match_not_found, one waiting or over 409 match_not_playing, one
    not watchable 403 not_watchable; nothing is featured."""
    waiting = json_object(web.post("/v1/matches", json={"seats": [{"name": "a"}, {"open": True}]}))["match_id"]
    closed = host(web, None, watchable=False)
    over = json_object(web.post("/v1/matches", json={"seats": VS_BOT}))
    web.post(f"/v1/matches/{over['match_id']}/leave", headers=auth(over["tokens"][0]["token"]))
    cases = [("no-such-match", 404, "match_not_found"), (waiting, 409, "match_not_playing")]
    cases += [(over["match_id"], 409, "match_not_playing"), (closed, 403, "not_watchable")]
    for match_id, status, reason in cases:
        answer = web.put("/v1/live/featured", json={"match_id": match_id}, headers=auth(MODERATOR))
        assert (answer.status_code, answer.get_json()["reason"]) == (status, reason), match_id
    assert live(web) is None


def test_others_list_up_to_six_more_live_matches_best_first_after_the_match(live_app: Flask, web: FlaskClient) -> None:
    """Rule: ``others`` lists the live matches after ``match`` by score, best first (ties: the newest), at most
    6, never ``match`` itself, each in the LiveMatch shape with its spectators counted."""
    ratings = [1510, 1620, 1580, 1900, 1740, 1550, 1800, 1660]
    matches = {shown: host(web, rated_player(live_app, web, shown)) for shown in ratings}
    unrated = host(web, None)  # score 0: after every rated one, so past the six
    web.get(f"/v1/matches/{matches[1800]}/events", query_string={"watcher": "w1"})
    web.get(f"/v1/matches/{matches[1800]}/events", query_string={"watcher": "w2"})
    found = table(web)
    assert found["match"]["match_id"] == matches[1900]
    assert others(web) == [matches[r] for r in (1800, 1740, 1660, 1620, 1580, 1550)]
    assert unrated not in others(web) and matches[1510] not in others(web)
    first = found["others"][0]
    assert set(first) == set(found["match"]) and first["featured"] is False
    assert first["spectators"] == 2 and first["hand_number"] == 1 and first["seats"][0]["rating"] == 1800
    assert [entry["spectators"] for entry in found["others"][1:]] == [0] * 5


def test_others_hold_neither_closed_nor_ended_matches(live_app: Flask, web: FlaskClient) -> None:
    """Rule: a match whose host turned watching off is never in ``others``, and one that ended (its last remote
    seat left) leaves it; the next live one takes its place."""
    best = host(web, rated_player(live_app, web, 1800))
    closed = host(web, rated_player(live_app, web, 1750), watchable=False)
    ending_player = rated_player(live_app, web, 1700)
    ending = host(web, ending_player)
    low = host(web, rated_player(live_app, web, 1600))
    assert live(web) is not None and live(web)["match_id"] == best  # type: ignore[index]
    assert others(web) == [ending, low] and closed not in others(web)
    left = web.post(f"/v1/matches/{ending}/leave", headers=auth(ending_player["token"]))
    assert left.status_code == 200 and left.get_json()["status"] == "finished"
    assert others(web) == [low]


def test_others_never_hold_the_featured_match_and_keep_the_best(live_app: Flask, web: FlaskClient) -> None:
    """Rule: with a featured match on the table, ``others`` are the best live matches but that one (the best
    first); unfeatured, the best is ``match`` again and the featured one goes back among ``others``."""
    low, high, middle = (rated_player(live_app, web, r) for r in (1550, 1750, 1650))
    featured, best, second = host(web, low), host(web, high), host(web, middle)
    assert web.put("/v1/live/featured", json={"match_id": featured}, headers=auth(MODERATOR)).status_code == 204
    found = table(web)
    assert found["match"]["match_id"] == featured and found["match"]["featured"] is True
    assert others(web) == [best, second]
    assert web.delete("/v1/live/featured", headers=auth(MODERATOR)).status_code == 204
    assert live(web)["match_id"] == best  # type: ignore[index]
    assert others(web) == [second, featured]


def test_others_skip_many_stale_entries_to_find_live_ones(live_app: Flask, web: FlaskClient) -> None:
    """Rule: entries of matches no longer played are dropped from the live index as the table is read, and the
    table reads on past them to fill ``others`` (here more stale entries than one read looks at)."""
    store = services_of(live_app).game.core.store.watching()
    live_ids = [host(web, rated_player(live_app, web, shown)) for shown in (1700, 1600, 1500)]
    for n in range(LIVE_SCAN + 5):  # better scored than every live match, and none is a match
        store.live_add(LiveEntry(f"gone{n:03d}", 3000.0 + n, 1.0e9))
    found = table(web)
    assert found["match"]["match_id"] == live_ids[0]
    assert others(web) == live_ids[1:]
    assert all(not e.match_id.startswith("gone") for e in store.live_best(LIVE_SCAN))
