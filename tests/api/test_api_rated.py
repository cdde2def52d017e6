"""Rated play over the API: challenges to the house bots, ratings moved once at a match's end, the leaderboards.

Rules checked: the house bots are accounts (kind bot) that nobody can log in as; a rated challenge played out
moves the challenger's and the house bot's ratings once each and the history shows both before and after; an
unrated one moves nothing; the end of a rated match kept by two workers at once (its request having died) moves
each rating once; a challenger who leaves is scored last; leaderboards page best first without repeats; deleting
an account takes it off the boards; bad challenges and queries are refused with their reasons.
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.api.test_api_history import everything
from tests.support.accounts import PASSWORD, auth, fresh_name, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import play_out, service_of, tokens_of
from tienlen.api import create_app
from tienlen.bots import LEVELS
from tienlen.local_redis import LocalRedis
from tienlen.service.history import KEEP_AFTER_S
from tienlen.store.accounts import AccountRecord
from tienlen.store.redis_accounts import name_key


def ratings_of(client: FlaskClient, name: str) -> dict[int, dict[str, Any]]:
    """The player's ratings by table size (its profile)."""
    answer = client.get(f"/v1/players/{name}")
    assert answer.status_code == 200, answer.json
    return {entry["players"]: entry for entry in json_object(answer)["ratings"]}


def games_of(client: FlaskClient, name: str, players: int = 2) -> int:
    """The player's rated games at ``players`` seats."""
    return int(ratings_of(client, name).get(players, {"games": 0})["games"])


def challenge(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    """A challenge to the house bots (one-hand `ladder` rules unless given); assert 201."""
    answer = client.post("/v1/challenges", json={"preset": "ladder", **body}, headers=auth(token))
    assert answer.status_code == 201, answer.json
    return json_object(answer)


def test_the_house_bots_are_bot_accounts_nobody_logs_in_as(client: FlaskClient) -> None:
    """Rule: every bot level (easy, medium, hard, expert) is an account of kind bot, shown like any account; no
    password opens them."""
    assert "expert" in LEVELS
    for level in LEVELS:
        profile = client.get(f"/v1/players/{level.upper()}")
        assert profile.status_code == 200 and json_object(profile)["kind"] == "bot"
        refused = client.post("/v1/sessions", json={"name": level, "password": ""})
        assert refused.status_code in (401, 422)
        refused = client.post("/v1/sessions", json={"name": level, "password": PASSWORD})
        assert refused.status_code == 401


@pytest.mark.parametrize("level", ["easy", "expert", "master"])
def test_a_rated_challenge_played_out_moves_both_ratings_once_and_history_shows_them(
    api: Api, client: FlaskClient, level: str
) -> None:
    """Rule: a rated 2-player match against a house bot (easy; expert and master, the levels above hard) moves the
    challenger's and the bot's ratings once each, and the history of both shows each seat's rating before and
    after."""
    name = fresh_name("r")
    token = session_of(client, name)
    bot_games = games_of(client, level)
    created = challenge(client, token, to=[level], players=2, rated=True)
    match = created["match"]
    assert match["rated"] is True and match["status"] == "playing"
    assert [s["name"] for s in match["seats"]] == [name, level] and [s["account"] for s in match["seats"]] == [
        True,
        True,
    ]
    assert match["seats"][1]["bot"] == level
    play_out(api, created["match_id"], tokens_of(created))
    assert api.public(created["match_id"])["status"] == "finished"
    mine = ratings_of(client, name)[2]
    assert mine["games"] == 1 and mine["provisional"] is True and mine["rating"] != 1500
    assert games_of(client, level) == bot_games + 1
    kept = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]
    assert kept["match_id"] == created["match_id"] and kept["rated"] is True
    human, bot = kept["seats"]
    assert human["rating_before"] == 1500 and human["rating_after"] == mine["rating"]
    assert bot["rating_before"] is not None and bot["rating_after"] is not None
    winner_first = sorted(kept["seats"], key=lambda s: s["place"])
    assert winner_first[0]["rating_after"] > winner_first[0]["rating_before"]
    assert winner_first[1]["rating_after"] < winner_first[1]["rating_before"]
    in_bot_history = json_object(client.get(f"/v1/players/{level}/matches", query_string={"limit": 100}))["matches"]
    assert created["match_id"] in [m["match_id"] for m in in_bot_history]


def test_an_unrated_challenge_moves_no_rating(api: Api, client: FlaskClient) -> None:
    """Rule: only rated matches move ratings; an unrated one shows null before and after."""
    name = fresh_name("r")
    token = session_of(client, name)
    bot_games = games_of(client, "medium", players=3)
    created = challenge(client, token, to=["medium"], players=3, rated=False)
    assert created["match"]["rated"] is False
    assert [s["name"] for s in created["match"]["seats"]] == [name, "medium", "medium"]
    play_out(api, created["match_id"], tokens_of(created))
    assert ratings_of(client, name) == {} and games_of(client, "medium", players=3) == bot_games
    kept = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]
    assert kept["rated"] is False
    assert all(s["rating_before"] is None and s["rating_after"] is None for s in kept["seats"])


def test_the_end_kept_by_two_workers_at_once_moves_each_rating_once(
    app: Flask, api: Api, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: when the request that finished a rated match died before keeping it, two workers keeping it at
    once (a sweeper and a retry) move each rating exactly once."""
    service = service_of(app)
    monkeypatch.setattr(service.core.history, "finished", lambda record, events: None)  # the request dies here
    name = fresh_name("r")
    token = session_of(client, name)
    bot_games = games_of(client, "hard")
    created = challenge(client, token, to=["hard"], players=2, rated=True)
    play_out(api, created["match_id"], tokens_of(created))
    assert ratings_of(client, name) == {}  # not kept yet: nothing moved
    start = threading.Barrier(4)
    kept: list[bool] = []

    def keep() -> None:
        start.wait()
        kept.append(service.core.history.keep(created["match_id"]))

    threads = [threading.Thread(target=keep) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert kept == [True] * 4
    assert games_of(client, name) == 1 and games_of(client, "hard") == bot_games + 1
    service.core.history.keep(created["match_id"])  # and once more, later
    assert games_of(client, name) == 1 and games_of(client, "hard") == bot_games + 1
    seats = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]["seats"]
    assert seats[0]["rating_after"] == ratings_of(client, name)[2]["rating"]


def test_a_house_bot_in_several_seats_is_rated_once(api: Api, client: FlaskClient) -> None:
    """Rule: a name repeated over the seats left is one account: a rated match moves its rating once, and each
    of its seats shows the same before and after."""
    name = fresh_name("r")
    token = session_of(client, name)
    bot_games = games_of(client, "easy", players=4)
    created = challenge(client, token, to=["easy"], players=4, rated=True)
    assert [s["name"] for s in created["match"]["seats"]] == [name, "easy", "easy", "easy"]
    play_out(api, created["match_id"], tokens_of(created))
    assert games_of(client, name, players=4) == 1 and games_of(client, "easy", players=4) == bot_games + 1
    seats = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]["seats"]
    assert len({(s["rating_before"], s["rating_after"]) for s in seats[1:]}) == 1
    assert seats[0]["rating_before"] == 1500 and seats[0]["rating_after"] == ratings_of(client, name)[4]["rating"]


def test_a_rated_end_whose_request_died_is_settled_by_the_sweeper(
    app: Flask, api: Api, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: a rated match whose finishing request died before keeping it is settled by the sweeper later."""
    service = service_of(app)
    monkeypatch.setattr(service.core.history, "finished", lambda record, events: None)  # the request dies here
    name = fresh_name("r")
    token = session_of(client, name)
    created = challenge(client, token, to=["medium"], players=2, rated=True)
    play_out(api, created["match_id"], tokens_of(created))
    service.core.history.sweep()  # not due yet: nothing moves
    assert ratings_of(client, name) == {}
    monkeypatch.setattr(service.core.history, "now", lambda: time.time() + 2 * KEEP_AFTER_S)
    for _ in range(50):  # other tests' due matches may come first
        if not service.core.history.sweep():
            break
    assert games_of(client, name) == 1
    kept = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]
    assert kept["rated"] is True and kept["seats"][0]["rating_before"] == 1500


def test_a_challenger_who_leaves_is_scored_last_and_the_rating_moves(api: Api, client: FlaskClient) -> None:
    """Rule: a rated match whose player leaves is scored with the leaver last: its rating falls, the bot's rises."""
    name = fresh_name("r")
    token = session_of(client, name)
    created = challenge(client, token, to=["easy", "hard"], players=3, rated=True)
    assert [s["name"] for s in created["match"]["seats"]] == [name, "easy", "hard"]
    left = api.client.post(f"/v1/matches/{created['match_id']}/leave", headers=auth(token))
    assert left.status_code == 200, left.json
    assert api.public(created["match_id"])["status"] == "finished"
    mine = ratings_of(client, name)[3]
    assert mine["games"] == 1 and mine["rating"] < 1500
    seats = json_object(client.get(f"/v1/players/{name}/matches"))["matches"][0]["seats"]
    assert seats[0]["rating_after"] < seats[0]["rating_before"]
    assert all(s["rating_after"] > s["rating_before"] for s in seats[1:])


def test_the_leaderboard_pages_best_first_and_forgets_a_deleted_account(api: Api, client: FlaskClient) -> None:
    """Rule: GET /v1/leaderboard lists every rated account of a kind at a table size, best first, paged by a
    cursor with no repeats; ranks count from 1; a deleted account leaves it and its ratings go."""
    names = [fresh_name("r") for _ in range(3)]
    for name in names:
        token = session_of(client, name)
        created = challenge(client, token, to=["easy"], players=2, rated=True)
        play_out(api, created["match_id"], tokens_of(created))
    seen: list[dict[str, Any]] = []
    cursor = None
    while True:
        query: dict[str, Any] = {"players": 2, "kind": "human", "limit": 2}
        if cursor is not None:
            query["cursor"] = cursor
        page = json_object(client.get("/v1/leaderboard", query_string=query))
        assert len(page["entries"]) <= 2
        seen += page["entries"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    listed = [entry["name"] for entry in seen]
    assert len(listed) == len(set(listed)) and set(names) <= set(listed)
    assert [e["rating"] for e in seen] == sorted((e["rating"] for e in seen), reverse=True)
    assert [e["rank"] for e in seen] == list(range(1, len(seen) + 1))
    assert all(e["kind"] == "human" and e["games"] >= 1 and e["provisional"] for e in seen)
    bots = json_object(client.get("/v1/leaderboard", query_string={"players": 2, "kind": "bot"}))["entries"]
    assert "easy" in [e["name"] for e in bots] and all(e["kind"] == "bot" for e in bots)
    gone = client.post("/v1/sessions", json={"name": names[0], "password": PASSWORD})
    deleted = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(json_object(gone)["token"]))
    assert deleted.status_code == 204, deleted.json
    after = json_object(client.get("/v1/leaderboard", query_string={"players": 2, "limit": 100}))
    assert names[0] not in [e["name"] for e in after["entries"]]


@pytest.mark.parametrize(
    ("body", "status", "reason"),
    [
        ({"to": ["nobody-" + secrets.token_hex(4)], "players": 2}, 404, "player_not_found"),
        ({"to": ["easy"], "players": 5}, 422, "invalid_request"),
        ({"to": ["easy"], "players": 1}, 422, "invalid_request"),
        ({"to": ["easy", "hard"], "players": 2}, 422, "invalid_request"),
        ({"to": [], "players": 2}, 422, "invalid_request"),
        ({"to": ["easy"], "players": 2, "rated": "yes"}, 422, "invalid_request"),
        ({"to": ["easy"], "players": 2, "preset": "nope"}, 422, "invalid_request"),
    ],
)
def test_bad_challenges_are_refused_with_their_reasons(
    client: FlaskClient, body: dict[str, Any], status: int, reason: str
) -> None:
    """Rule: an unknown name is 404 player_not_found; a bad body is 422 invalid_request; nothing is made."""
    token = session_of(client, fresh_name("r"))
    answer = client.post("/v1/challenges", json=body, headers=auth(token))
    assert answer.status_code == status and json_object(answer)["reason"] == reason


def test_a_challenge_takes_an_account_and_a_challenged_account_must_be_online(client: FlaskClient) -> None:
    """Rule: no token is 401 invalid_token; challenging an account that is not listening to its events is 409
    player_offline (tests/api/test_api_challenges.py has the rest of challenges between accounts)."""
    anonymous = client.post("/v1/challenges", json={"to": ["easy"], "players": 2})
    assert anonymous.status_code == 401 and json_object(anonymous)["reason"] == "invalid_token"
    other = fresh_name("r")
    session_of(client, other)
    token = session_of(client, fresh_name("r"))
    refused = client.post("/v1/challenges", json={"to": [other], "players": 2}, headers=auth(token))
    assert refused.status_code == 409 and json_object(refused)["reason"] == "player_offline"


@pytest.mark.parametrize(
    "query",
    [{"players": 5}, {"players": 1}, {"kind": "robot"}, {"limit": 0}, {"limit": 101}, {"cursor": "not-ours"}],
)
def test_bad_leaderboard_queries_are_refused(client: FlaskClient, query: dict[str, Any]) -> None:
    """Rule: a leaderboard query out of range, or a cursor this server did not give, is 422 invalid_request."""
    answer = client.get("/v1/leaderboard", query_string=query)
    assert answer.status_code == 422 and json_object(answer)["reason"] == "invalid_request"


def test_a_deleted_accounts_id_leaves_its_ratings_and_rated_results(
    api: Api, client: FlaskClient, redis_server: LocalRedis
) -> None:
    """Rule: after DELETE /v1/me no rating, board entry or settled rated result holds the account's id, and the
    house bot it played keeps its rating."""
    db: Any = redis.Redis.from_url(redis_server.url)
    name = fresh_name("r")
    token = session_of(client, name)
    account_id = db.get(name_key(name)).decode()
    created = challenge(client, token, to=["easy"], players=2, rated=True)
    play_out(api, created["match_id"], tokens_of(created))
    bot_games = games_of(client, "easy")
    assert any(account_id.encode() in part for part in everything(db))
    deleted = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(token))
    assert deleted.status_code == 204, deleted.json
    assert not any(account_id.encode() in part for part in everything(db))
    assert games_of(client, "easy") == bot_games
    db.close()


def test_house_bots_are_made_when_first_asked_for(redis_server: LocalRedis) -> None:
    """Rule: the app touches no store as it starts; a house bot's profile (or a challenge) makes the accounts."""
    url = redis_server.url.rsplit("/", 1)[0] + "/8"  # a database no other test uses: no house bot there yet
    client = create_app({"REDIS_URL": url, "TIENLEN_LOG_LEVEL": "WARNING"}).test_client()
    profile = client.get("/v1/players/Hard")
    assert profile.status_code == 200 and json_object(profile)["name"] == "hard"
    assert json_object(profile)["kind"] == "bot" and json_object(profile)["ratings"] == []


def test_a_level_whose_name_a_person_took_before_it_existed_stays_theirs(redis_server: LocalRedis) -> None:
    """Rule: on a server where a person holds a level's name (taken before the level existed; sign-ups refuse it
    now), that account never plays as the house bot: a challenge to the name challenges the person (offline
    here, so refused as for any person), their profile stays theirs, and the other levels are house bots as
    before."""
    url = redis_server.url.rsplit("/", 1)[0] + "/9"  # a database no other test uses: no house bot there yet
    app = create_app({"REDIS_URL": url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"})
    client = app.test_client()
    person = AccountRecord(secrets.token_hex(10), "Expert", "human", time.time(), "")
    service_of(app).core.accounts.create(person)  # as an older server let them
    assert "expert" not in service_of(app).core.history.rated.house_bots()
    token = session_of(client, fresh_name("c"))
    asked = client.post("/v1/challenges", json={"to": ["expert"], "players": 2, "rated": True}, headers=auth(token))
    assert asked.status_code == 409 and json_object(asked)["reason"] == "player_offline"  # the person, not a bot
    assert json_object(client.get("/v1/players/expert"))["kind"] == "human"
    started = challenge(client, token, to=["hard"], players=2, rated=True)
    assert started["match"]["status"] == "playing" and started["match"]["seats"][1]["bot"] == "hard"
