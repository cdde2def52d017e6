"""Players' histories (``/v1/players/{name}``, ``.../matches``, ``.../matches/export``) and what deletion leaves.

Rules checked: a finished match an account sat in is kept in each of its accounts' histories with the right
seats, places and points, and its replay answers (and verifies) after the live match is gone; the match list
pages newest first by a cursor that does not shift when matches end meanwhile; the export is NDJSON whose every
line is a replay that verifies; a match the request did not keep is kept by the sweeper, and a due entry whose
match did not finish is dropped; deleting an account leaves no credential, token, digest, account id or name of
it in Redis; bad queries and unknown players are refused with their reasons.
"""

from __future__ import annotations

import secrets
import time
import zlib
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth, fresh_name, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import play_out, service_of, tokens_of
from tienlen import wire
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.replay import referee
from tienlen.service.accounts import LOGIN_THROTTLE
from tienlen.store import token_digest
from tienlen.store.accounts import name_digest
from tienlen.store.redis_accounts import fails_key, name_key
from tienlen.store.redis_history import DUE_KEY, kept_key


def four_seat_match(api: Api, host: str, guest: str) -> tuple[str, dict[int, str]]:
    """A one-hand match: the host's account at seat 0, the guest's at 1 (joined), anonymous Carol at 2, a bot at 3.

    A seat is open, so its deal is a fair one (no seed)."""
    body = {
        "seats": [{"name": "Host"}, {"open": True}, {"name": "Carol"}, {"name": "Dan", "bot": "easy"}],
        "rules": {"hands": 1},
    }
    created = api.client.post("/v1/matches", json=body, headers=auth(host))
    assert created.status_code == 201, created.json
    match_id = json_object(created)["match_id"]
    tokens = tokens_of(json_object(created))
    joined = api.client.post(f"/v1/matches/{match_id}/join", json={}, headers=auth(guest))
    assert joined.status_code == 201, joined.json
    tokens[1] = json_object(joined)["token"]
    return match_id, tokens


def solo_match(api: Api, token: str, seed: int) -> str:
    """A one-hand two-seat match of the account's seat against an Easy bot, played out."""
    body = {"seats": [{"name": "Me"}, {"name": "Bot", "bot": "easy"}], "rules": {"hands": 1}, "seed": seed}
    created = api.client.post("/v1/matches", json=body, headers=auth(token))
    assert created.status_code == 201, created.json
    match_id: str = json_object(created)["match_id"]
    play_out(api, match_id, tokens_of(json_object(created)))
    return match_id


def history_of(client: FlaskClient, name: str, **query: Any) -> dict[str, Any]:
    """A page of the player's matches; assert 200."""
    answer = client.get(f"/v1/players/{name}/matches", query_string=query)
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def test_a_match_of_two_accounts_and_two_anonymous_seats_is_in_both_histories_with_its_places(
    api: Api, client: FlaskClient
) -> None:
    """Rule: a finished match is kept for every account that sat in it: seats, places, points, hands, times."""
    host_name, guest_name = fresh_name("h"), fresh_name("h")
    host, guest = session_of(client, host_name), session_of(client, guest_name)
    match_id, tokens = four_seat_match(api, host, guest)
    play_out(api, match_id, tokens)
    final = api.public(match_id)
    assert final["status"] == "finished"
    for name, seat in ((host_name, 0), (guest_name, 1)):
        page = history_of(client, name.upper())
        assert page["next_cursor"] is None and len(page["matches"]) == 1
        kept = page["matches"][0]
        assert kept["match_id"] == match_id and kept["seat"] == seat
        assert kept["hands"] == 1 and kept["abandoned"] is False and kept["rules"] == final["rules"]
        assert kept["created_at"] <= kept["ended_at"]
        names = [s["name"] for s in kept["seats"]]
        assert names == [host_name, guest_name, "Carol", "Dan"]
        assert [s["account"] for s in kept["seats"]] == [True, True, False, False]
        assert [s["bot"] for s in kept["seats"]] == [None, None, None, "easy"]
        assert [s["place"] for s in kept["seats"]] == [s["place"] for s in final["seats"]]
        assert sorted(s["place"] for s in kept["seats"]) == [1, 2, 3, 4]
        assert [s["points"] for s in kept["seats"]] == [s["score"] for s in final["seats"]]
        profile = json_object(client.get(f"/v1/players/{name}"))
        assert profile["name"] == name and profile["kind"] == "human" and profile["games"] == 1
        assert profile["wins"] == (1 if kept["seats"][seat]["place"] == 1 else 0)


def test_the_replay_answers_from_the_kept_record_once_the_live_match_is_gone(
    api: Api, client: FlaskClient, db: Any
) -> None:
    """Rule: GET .../replay keeps answering, the same document, for a kept match whose live state expired."""
    token = session_of(client, fresh_name("h"))
    match_id = solo_match(api, token, seed=5)
    live = json_object(client.get(f"/v1/matches/{match_id}/replay"))
    db.delete(f"tl:{{{match_id}}}:state", f"tl:{{{match_id}}}:events")  # what expiry does
    assert client.get(f"/v1/matches/{match_id}").status_code == 404
    kept = client.get(f"/v1/matches/{match_id}/replay")
    assert kept.status_code == 200 and json_object(kept) == live
    assert referee(json_object(kept)).hands == 1
    gone = client.get(f"/v1/matches/{secrets.token_hex(10)}/replay")
    assert gone.status_code == 404 and json_object(gone)["reason"] == "match_not_found"


def test_a_kept_4_player_one_hand_match_takes_at_most_2_kb(api: Api, client: FlaskClient, db: Any) -> None:
    """Rule: the kept record of a 4-player one-hand match is at most 2 KB of Redis memory."""
    match_id, tokens = four_seat_match(api, session_of(client, fresh_name("h")), session_of(client, fresh_name("h")))
    play_out(api, match_id, tokens)
    assert 0 < int(db.memory_usage(kept_key(match_id), samples=0)) <= 2048


def test_the_list_pages_newest_first_and_its_cursor_does_not_shift_as_matches_end(
    api: Api, client: FlaskClient
) -> None:
    """Rule: pages are newest first; a match ending between two pages neither repeats nor skips one."""
    name = fresh_name("h")
    token = session_of(client, name)
    made = [solo_match(api, token, seed=20 + i) for i in range(3)]
    first = history_of(client, name, limit=2)
    assert [m["match_id"] for m in first["matches"]] == made[:0:-1]
    assert first["next_cursor"] is not None
    newer = solo_match(api, token, seed=30)
    second = history_of(client, name, limit=2, cursor=first["next_cursor"])
    assert [m["match_id"] for m in second["matches"]] == [made[0]] and second["next_cursor"] is None
    assert [m["match_id"] for m in history_of(client, name, limit=100)["matches"]] == [newer, *made[::-1]]
    assert json_object(client.get(f"/v1/players/{name}"))["games"] == 4


def test_the_export_is_ndjson_of_replays_that_verify_within_since_and_until(api: Api, client: FlaskClient) -> None:
    """Rule: the export streams one replay a line, newest first, each verifying; since/until bound ended_at."""
    name = fresh_name("h")
    token = session_of(client, name)
    made = [solo_match(api, token, seed=40 + i) for i in range(3)]
    answer = client.get(f"/v1/players/{name}/matches/export")
    assert answer.status_code == 200 and answer.mimetype == "application/x-ndjson"
    assert answer.is_streamed
    lines = [wire.loads(line) for line in answer.get_data().splitlines()]
    assert [line["match_id"] for line in lines] == made[::-1]
    for line in lines:
        assert referee(line).hands == 1
        replay = json_object(client.get(f"/v1/matches/{line['match_id']}/replay"))
        assert {k: v for k, v in line.items() if k not in ("match_id", "ended_at")} == replay
    middle = lines[1]["ended_at"]
    since = client.get(f"/v1/players/{name}/matches/export", query_string={"since": middle})
    assert [wire.loads(x)["match_id"] for x in since.get_data().splitlines()] == made[:0:-1]
    until = client.get(f"/v1/players/{name}/matches/export", query_string={"until": middle})
    assert [wire.loads(x)["match_id"] for x in until.get_data().splitlines()] == [made[0]]


def test_a_match_its_request_did_not_keep_is_kept_by_the_sweeper_and_a_lost_race_is_dropped(
    api: Api, app: Flask, client: FlaskClient, db: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: a finished match is registered as due before its commit; the sweeper keeps what is still due."""
    name = fresh_name("h")
    token = session_of(client, name)
    history = service_of(app).core.history
    monkeypatch.setattr(history, "finished", lambda record, events: None)  # the process died after the commit
    match_id = solo_match(api, token, seed=50)
    assert db.zscore(DUE_KEY, match_id) is not None and db.get(kept_key(match_id)) is None
    assert history_of(client, name)["matches"] == []
    monkeypatch.setattr(history, "now", lambda: time.time() + 60)
    history.kept.mark_due("0" * 20, time.time())  # a write that lost its race: no such finished match
    history.sweep(limit=1000)
    assert db.get(kept_key(match_id)) is not None
    assert db.zscore(DUE_KEY, match_id) is None and db.zscore(DUE_KEY, "0" * 20) is None
    assert [m["match_id"] for m in history_of(client, name)["matches"]] == [match_id]
    assert history.keep(match_id) and json_object(client.get(f"/v1/players/{name}"))["games"] == 1  # once


def test_history_days_gives_kept_matches_a_lifetime(redis_server: LocalRedis, db: Any) -> None:
    """Rule: with TIENLEN_HISTORY_DAYS a kept match expires after that many days; by default it never does."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    bounded = create_client(redis_server, settings | {"TIENLEN_HISTORY_DAYS": "2"})
    match_id = solo_match(Api(bounded), session_of(bounded, fresh_name("h")), seed=60)
    assert 86400 < db.ttl(kept_key(match_id)) <= 2 * 86400
    forever = create_client(redis_server, settings)
    match_id = solo_match(Api(forever), session_of(forever, fresh_name("h")), seed=61)
    assert db.ttl(kept_key(match_id)) == -1


def create_client(redis_server: LocalRedis, settings: dict[str, str]) -> FlaskClient:
    """A test client of an app with ``settings``."""
    return create_app({"REDIS_URL": redis_server.url, **settings}).test_client()


def everything(db: Any) -> list[bytes]:
    """Every key of the server's in the tests' Redis and every value, field, member and stream entry in it."""
    found: list[bytes] = []
    for key in db.scan_iter(match="tl:*", count=1000):
        kind = db.type(key)
        parts: list[bytes] = [key]
        if kind == b"string":
            parts.append(db.get(key) or b"")
        elif kind == b"hash":
            parts += [part for pair in db.hgetall(key).items() for part in pair]
        elif kind == b"set":
            parts += list(db.smembers(key))
        elif kind == b"zset":
            parts += list(db.zrange(key, 0, -1))
        elif kind == b"list":
            parts += list(db.lrange(key, 0, -1))
        elif kind == b"stream":
            parts += [v for _id, fields in db.xrange(key) for pair in fields.items() for v in pair]
        for part in parts:
            try:
                found.append(zlib.decompress(part))  # a kept record is compressed: look inside it
            except zlib.error:
                found.append(part)
    return found


def test_deleting_an_account_leaves_no_personal_data_in_redis(api: Api, client: FlaskClient, db: Any) -> None:
    """Rule: after DELETE /v1/me no key or value holds the account's name, id, password hash, token or digest.

    Kept matches (compressed) and the live records and event streams of the matches it sat in included;
    its seats are named ``(deleted)``.
    """
    name, guest_name = fresh_name("h"), fresh_name("h")
    session, guest = session_of(client, name), session_of(client, guest_name)
    account_id = db.get(name_key(name)).decode()
    password_hash = db.hget(f"tl:{{acct:{account_id}}}:account", "password")
    personal = json_object(
        client.post("/v1/me/tokens", json={"label": "bot", "scopes": ["play"]}, headers=auth(session))
    )
    finished, tokens = four_seat_match(api, guest, session)  # the account joins: seat_joined names it
    play_out(api, finished, tokens)
    waiting = api.client.post(
        "/v1/matches", json={"seats": [{"name": "x"}, {"open": True}]}, headers=auth(session)
    )  # a live match it hosts
    live_id = json_object(waiting)["match_id"]
    seat_token = tokens_of(json_object(waiting))[0]
    wrong = client.delete("/v1/me", json={"password": "not the password"}, headers=auth(session))
    assert wrong.status_code == 401 and db.exists(fails_key(LOGIN_THROTTLE, f"name:{name_digest(name)}"))
    before = [part for part in everything(db) if name.encode() in part]
    assert before, "the account's name is stored somewhere before it is deleted"
    deleted = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(session))
    assert deleted.status_code == 204
    secrets_of = [name.lower().encode(), name.encode(), account_id.encode(), password_hash]
    secrets_of += [t.encode() for t in (session, personal["token"])]
    secrets_of += [token_digest(t).encode() for t in (session, personal["token"])]
    assert db.get(name_key(name)) == b"-"  # the name stays closed, spelt nowhere
    for part in everything(db):
        for secret in secrets_of:
            assert secret not in part, (secret, part[:200])
        assert name.encode() not in part.lower(), part[:200]
    for path in (f"/v1/players/{name}", f"/v1/players/{name}/matches", f"/v1/players/{name}/matches/export"):
        answer = client.get(path)
        assert answer.status_code == 404 and json_object(answer)["reason"] == "player_not_found", path
    kept = history_of(client, guest_name)["matches"][0]
    assert kept["seats"][1] == kept["seats"][1] | {"name": "(deleted)", "account": False}
    assert json_object(client.get(f"/v1/matches/{finished}/replay"))["seats"][1]["name"] == "(deleted)"
    assert api.view(live_id, seat_token)["seats"][0]["name"] == "(deleted)"  # the seat still plays


def test_an_abandoned_match_is_kept_without_places(api: Api, client: FlaskClient) -> None:
    """Rule: a match that ends abandoned (its last remote seat left) is kept too: abandoned, no places."""
    name = fresh_name("h")
    token = session_of(client, name)
    body = {"seats": [{"name": "Me"}, {"name": "Bot", "bot": "easy"}], "seed": 80}
    created = json_object(api.client.post("/v1/matches", json=body, headers=auth(token)))
    left = api.client.post(f"/v1/matches/{created['match_id']}/leave", headers=auth(token))
    assert left.status_code == 200, left.json
    (kept,) = history_of(client, name)["matches"]
    assert kept["match_id"] == created["match_id"] and kept["abandoned"] is True
    assert [s["place"] for s in kept["seats"]] == [None, None] and kept["hands"] == 1
    replay = json_object(client.get(f"/v1/matches/{created['match_id']}/replay"))
    assert replay["result"]["abandoned"] is True and referee(replay).abandoned
    assert json_object(client.get(f"/v1/players/{name}"))["wins"] == 0


def test_an_unknown_player_is_404_and_bad_queries_are_422(client: FlaskClient) -> None:
    """Rule: unknown players answer 404 player_not_found; limit out of 1..100, a bad cursor or date, 422."""
    unknown = fresh_name("h")
    for path in (f"/v1/players/{unknown}", f"/v1/players/{unknown}/matches", f"/v1/players/{unknown}/matches/export"):
        answer = client.get(path)
        assert answer.status_code == 404 and json_object(answer)["reason"] == "player_not_found", path
    name = fresh_name("h")
    session_of(client, name)
    assert history_of(client, name) == {"matches": [], "next_cursor": None}
    assert client.get(f"/v1/players/{name}/matches/export").get_data() == b""
    for query in ({"limit": 101}, {"limit": 0}, {"cursor": "nope"}, {"limit": "x"}):
        answer = client.get(f"/v1/players/{name}/matches", query_string=query)
        assert answer.status_code == 422 and json_object(answer)["reason"] == "invalid_request", query
    for query in ({"since": "yesterday"}, {"until": "2026-13-01T00:00:00Z"}):
        answer = client.get(f"/v1/players/{name}/matches/export", query_string=query)
        assert answer.status_code == 422 and json_object(answer)["reason"] == "invalid_request", query
