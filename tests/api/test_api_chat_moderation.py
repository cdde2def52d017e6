"""Mute, block and report; the moderators' acts (remove a message, mute an account, close one) and their audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.api.test_api_challenges import player, send
from tests.api.test_api_chat import Table
from tests.support.accounts import PASSWORD, auth, fresh_name, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import Clock, play_out, service_of
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis
from tienlen.store.redis_chat import AUDIT_KEPT, RedisChat

pytestmark = pytest.mark.xdist_group("chat")
MODERATOR = "m" * 40


@pytest.fixture
def moderated(redis_server: LocalRedis) -> Flask:
    """The app with a moderator token."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    return create_app({"REDIS_URL": redis_server.url, "TIENLEN_MODERATOR_TOKEN": MODERATOR, **settings})


@pytest.fixture
def mod_client(moderated: Flask) -> FlaskClient:
    """A test client of the moderated app."""
    return moderated.test_client()


def texts(table: Table, token: str | None) -> list[str]:
    """The texts of the chat_said events the reader reads."""
    return [e["text"] for e in table.read(token)]


@pytest.mark.parametrize("kind", ["muted", "blocked"])
def test_a_muted_or_blocked_account_is_left_out_of_what_i_read(client: FlaskClient, kind: str) -> None:
    """Rule: my muted and blocked accounts' messages are left out of my events and chat; a block hides both ways,
    a mute only mine; lifting it shows them again."""
    table = Table(client)
    table.say(table.watcher, "spectators", "from the watcher")
    table.say(table.host, "table", "from the host")
    me = auth(table.host)
    assert client.put(f"/v1/me/{kind}/{table.watcher_name.upper()}", headers=me).status_code == 204
    assert client.put(f"/v1/me/{kind}/{table.watcher_name}", headers=me).status_code == 204  # again: no change
    assert json_object(client.get(f"/v1/me/{kind}", headers=me))["names"] == [table.watcher_name]
    assert texts(table, table.host) == ["from the host"]
    chat = json_object(client.get(f"/v1/matches/{table.match_id}/chat", headers=me))["messages"]
    assert [m["text"] for m in chat] == ["from the host"]
    table.say(table.host, "table", "host again")
    # a watcher reads no table room; a block also hides the host's (spectators') words from the watcher
    table.say(table.watcher, "spectators", "watcher again")
    assert texts(table, table.seats[1]) == ["from the watcher", "from the host", "host again", "watcher again"]
    assert client.delete(f"/v1/me/{kind}/{table.watcher_name}", headers=me).status_code == 204
    assert json_object(client.get(f"/v1/me/{kind}", headers=me))["names"] == []
    assert texts(table, table.host) == ["from the watcher", "from the host", "host again", "watcher again"]


def test_a_block_hides_my_messages_from_the_blocked_account(client: FlaskClient) -> None:
    """Rule: neither of two accounts, one blocking the other, reads the other's chat."""
    blocker_name, other_name = fresh_name("b"), fresh_name("o")
    blocker, other = session_of(client, blocker_name), session_of(client, other_name)
    table = Table(client)
    assert client.put(f"/v1/me/blocked/{other_name}", headers=auth(blocker)).status_code == 204
    table.say(blocker, "spectators", "from the blocker")
    table.say(other, "spectators", "from the other")
    assert texts(table, other) == ["from the other"]
    assert texts(table, blocker) == ["from the blocker"]
    assert texts(table, None) == ["from the blocker", "from the other"]


LIST_REFUSALS = [
    ("PUT", "nobody-here", "player", 404, "player_not_found"),
    ("DELETE", "nobody-here", "player", 404, "player_not_found"),
    ("PUT", "self", "player", 422, "invalid_request"),
    ("PUT", "other", None, 401, "invalid_token"),
    ("GET", "", None, 401, "invalid_token"),
    ("PUT", "other", "account-scope", 403, "scope_missing"),
]


@pytest.mark.parametrize(("method", "name", "token", "status", "reason"), LIST_REFUSALS)
@pytest.mark.parametrize("kind", ["muted", "blocked"])
def test_list_refusals(
    client: FlaskClient, kind: str, method: str, name: str, token: str | None, status: int, reason: str
) -> None:
    """Rule: unknown names 404, yourself 422, no token 401, a token without `play` 403; nothing is listed then."""
    me_name, other_name = fresh_name("l"), fresh_name("x")
    me = session_of(client, me_name)
    session_of(client, other_name)
    sent = None
    if token == "player":
        sent = me
    elif token == "account-scope":
        made = client.post("/v1/me/tokens", json={"label": "acct", "scopes": ["account"]}, headers=auth(me))
        sent = json_object(made)["token"]
    target = {"self": me_name, "other": other_name}.get(name, name)
    path = f"/v1/me/{kind}" + (f"/{target}" if target else "")
    answer = client.open(path, method=method, headers={} if sent is None else auth(sent))
    assert answer.status_code == status and json_object(answer)["reason"] == reason
    assert json_object(client.get(f"/v1/me/{kind}", headers=auth(me)))["names"] == []


@pytest.mark.parametrize("who_blocks", ["challenged", "challenger"])
def test_a_block_refuses_a_challenge_either_way(client: FlaskClient, who_blocks: str) -> None:
    """Rule: a challenge between two accounts one of which blocks the other is refused 403 blocked."""
    challenger_name, challenger = player(client)
    challenged_name, challenged = player(client)
    assert send(client, challenger, [challenged_name]).status_code == 201  # before the block: sent
    blocker, blocked = (challenged, challenger_name) if who_blocks == "challenged" else (challenger, challenged_name)
    assert client.put(f"/v1/me/blocked/{blocked}", headers=auth(blocker)).status_code == 204
    refused = send(client, challenger, [challenged_name])
    assert refused.status_code == 403 and json_object(refused)["reason"] == "blocked"


def test_a_report_is_kept_once_and_listed_for_the_moderators(mod_client: FlaskClient) -> None:
    """Rule: an account reports a message it may read once (201, again 409 already_reported); a table message
    is not reportable by a spectator (404); the moderators list open reports with the message."""
    table = Table(mod_client)
    said = json_object(table.say(table.host, "table", "rude words"))
    url = f"/v1/matches/{table.match_id}/chat/{said['seq']}/report"
    spectator = mod_client.post(url, json={}, headers=auth(table.watcher))
    assert spectator.status_code == 404 and json_object(spectator)["reason"] == "message_not_found"
    reporter_name = fresh_name("r")
    reporter = session_of(mod_client, reporter_name)
    watched = json_object(table.say(table.watcher, "spectators", "more rude words"))
    wurl = f"/v1/matches/{table.match_id}/chat/{watched['seq']}/report"
    first = mod_client.post(wurl, json={"why": "  insults "}, headers=auth(reporter))
    assert first.status_code == 201, first.json
    assert json_object(first)["why"] == "insults" and json_object(first)["reporter"] == reporter_name
    again = mod_client.post(wurl, json={}, headers=auth(reporter))
    assert again.status_code == 409 and json_object(again)["reason"] == "already_reported"
    for bad_seq in (1, 9999, 2**64):  # hand_started, nothing, past any event number
        bad_url = f"/v1/matches/{table.match_id}/chat/{bad_seq}/report"
        missing = mod_client.post(bad_url, json={}, headers=auth(reporter))
        assert missing.status_code == 404 and json_object(missing)["reason"] == "message_not_found"
    reports = json_object(mod_client.get("/v1/moderation/reports?limit=100", headers=auth(MODERATOR)))["reports"]
    mine = [r for r in reports if r["match_id"] == table.match_id]
    assert [(r["message"]["text"], r["reporter"]) for r in mine] == [("more rude words", reporter_name)]


MODERATOR_ROUTES = [
    ("GET", "/v1/moderation/reports", None),
    ("GET", "/v1/moderation/audit", None),
    ("PUT", "/v1/moderation/muted/{name}", {"minutes": 5}),
    ("DELETE", "/v1/moderation/muted/{name}", None),
    ("POST", "/v1/moderation/closed/{name}", None),
    ("DELETE", "/v1/matches/{match}/chat/{seq}", None),
    ("DELETE", "/v1/moderation/reports/{match}:{seq}:nobody", None),
]


@pytest.mark.parametrize(("method", "path", "body"), MODERATOR_ROUTES)
@pytest.mark.parametrize("token", [None, "player", "wrong"])
def test_every_moderator_route_refuses_without_the_moderator_token(
    mod_client: FlaskClient, method: str, path: str, body: dict[str, Any] | None, token: str | None
) -> None:
    """Rule: every moderator's route answers 403 not_moderator without the moderator token, changing nothing."""
    table = Table(mod_client)
    said = json_object(table.say(table.host, "table", "still here"))
    sent = {"player": table.host, "wrong": "m" * 39 + "n", None: None}[token]
    url = path.format(name=table.watcher_name, match=table.match_id, seq=said["seq"])
    answer = mod_client.open(url, method=method, json=body, headers={} if sent is None else auth(sent))
    assert answer.status_code == 403 and json_object(answer)["reason"] == "not_moderator"
    assert texts(table, table.host) == ["still here"]
    assert table.say(table.watcher, "spectators", "not muted").status_code == 201


def test_a_moderator_removes_a_message_from_events_store_and_kept_record(moderated: Flask, db: Any) -> None:
    """Rule: a removed message's text is gone from the match's events, the store and the kept chat; a
    chat_removed follows; its reports close; the act is in the audit list without the text."""
    client = moderated.test_client()
    table = Table(client)
    said = json_object(table.say(table.host, "table", "zqxj-secret-insult"))
    reporter = session_of(client, fresh_name("r"))
    client.post(f"/v1/matches/{table.match_id}/chat/{said['seq']}/report", json={}, headers=auth(table.seats[1]))
    client.post(f"/v1/matches/{table.match_id}/chat/{said['seq']}/report", json={}, headers=auth(reporter))
    play_out(Api(client), table.match_id, table.seats)
    gone = client.delete(f"/v1/matches/{table.match_id}/chat/{said['seq']}", headers=auth(MODERATOR))
    assert gone.status_code == 204, gone.json
    events = json_object(client.get(f"/v1/matches/{table.match_id}/events", headers=auth(table.host)))["events"]
    chat = [e for e in events if e["type"] in ("chat_said", "chat_removed")]
    assert [e["type"] for e in chat] == ["chat_said", "chat_removed"]
    assert chat[0]["text"] == "" and chat[1]["message_seq"] == said["seq"]
    kept = services_of(moderated).game.core.store.chat().kept_chat(table.match_id)
    assert [m["text"] for m in kept] == [""]
    assert not any(b"zqxj-secret-insult" in value for value in _every_value(db))
    reports = json_object(client.get("/v1/moderation/reports?limit=100", headers=auth(MODERATOR)))["reports"]
    assert not [r for r in reports if r["match_id"] == table.match_id]
    again = client.delete(f"/v1/matches/{table.match_id}/chat/{said['seq']}", headers=auth(MODERATOR))
    assert again.status_code == 404 and json_object(again)["reason"] == "message_not_found"
    acts = json_object(client.get("/v1/moderation/audit", headers=auth(MODERATOR)))["acts"]
    assert acts[0]["act"] == "message_removed" and acts[0]["target"] == f"{table.match_id}/{said['seq']}"


def test_a_moderator_dismisses_one_report_and_the_message_stays(mod_client: FlaskClient) -> None:
    """Rule: a moderator dismisses one report by its id (204): it leaves the open reports, the message and its
    other reports stay, its reporter cannot report it again (409), a second dismissal or an unknown id is 404
    report_not_found, and the act is audited as report_dismissed with the message and the reporter."""
    table = Table(mod_client)
    said = json_object(table.say(table.watcher, "spectators", "borderline words"))
    url = f"/v1/matches/{table.match_id}/chat/{said['seq']}/report"
    names = [fresh_name("r"), fresh_name("r")]
    reporters = [session_of(mod_client, name) for name in names]
    for reporter in reporters:
        assert mod_client.post(url, json={}, headers=auth(reporter)).status_code == 201

    def open_reports() -> list[dict[str, Any]]:
        listed = json_object(mod_client.get("/v1/moderation/reports?limit=100", headers=auth(MODERATOR)))["reports"]
        return [r for r in listed if r["match_id"] == table.match_id]

    first, second = open_reports()  # oldest first: two reports of the same millisecond come in either order
    assert sorted([first["reporter"], second["reporter"]]) == sorted(names) and first["id"] != second["id"]
    dismissed = mod_client.delete(f"/v1/moderation/reports/{first['id']}", headers=auth(MODERATOR))
    assert dismissed.status_code == 204, dismissed.json
    assert open_reports() == [second]
    assert texts(table, None) == ["borderline words"]
    again = mod_client.post(url, json={}, headers=auth(reporters[names.index(first["reporter"])]))
    assert again.status_code == 409 and json_object(again)["reason"] == "already_reported"
    for gone in (first["id"], f"{table.match_id}:{said['seq']}:nobody", "x"):
        refused = mod_client.delete(f"/v1/moderation/reports/{gone}", headers=auth(MODERATOR))
        assert refused.status_code == 404 and json_object(refused)["reason"] == "report_not_found"
    (act,) = json_object(mod_client.get("/v1/moderation/audit?limit=1", headers=auth(MODERATOR)))["acts"]
    assert (act["act"], act["target"]) == ("report_dismissed", f"{table.match_id}/{said['seq']}")
    assert act["detail"] == f"reported by {first['reporter']}"


def test_the_audit_list_keeps_only_its_newest_acts(tmp_path: Path) -> None:
    """Rule: the audit list keeps the newest acts up to its bound (AUDIT_KEPT, small here): older ones are
    trimmed as new ones come, and a page reads only what is kept."""
    with LocalRedis(tmp_path) as own:
        settings = {"TIENLEN_MODERATOR_TOKEN": MODERATOR, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
        app = create_app({"REDIS_URL": own.url, **settings})
        store = services_of(app).game.core.store.chat()
        assert isinstance(store, RedisChat) and store.audit_kept == AUDIT_KEPT == 10_000
        store.audit_kept = 3
        client = app.test_client()
        names = [fresh_name("t") for _ in range(5)]
        for name in names:
            session_of(client, name)
            muted = client.put(f"/v1/moderation/muted/{name}", json={"minutes": 1}, headers=auth(MODERATOR))
            assert muted.status_code == 200
        page = json_object(client.get("/v1/moderation/audit?limit=100", headers=auth(MODERATOR)))
        assert [a["target"] for a in page["acts"]] == names[:1:-1] and page["next_cursor"] is None
        assert redis.Redis.from_url(own.url).llen("tl:{moderation}:audit") == 3


def _every_value(db: Any) -> list[bytes]:
    """Every value the server keeps in Redis (streams' entries included)."""
    out: list[bytes] = []
    for key in db.scan_iter(match="tl:*", count=1000):
        kind = db.type(key)
        if kind == b"string":
            out.append(db.get(key) or b"")
        elif kind == b"hash":
            out += [v for pair in db.hgetall(key).items() for v in pair]
        elif kind == b"stream":
            out += [v for _id, fields in db.xrange(key) for v in fields.values()]
        elif kind == b"list":
            out += db.lrange(key, 0, -1)
        elif kind == b"zset":
            out += db.zrange(key, 0, -1)
    return out


def test_a_moderators_mute_refuses_chat_until_it_ends_or_is_lifted(moderated: Flask) -> None:
    """Rule: a muted account's messages are 403 chat_muted with when the mute ends, until then or the lift."""
    clock = Clock()
    service_of(moderated).core.now = clock
    client = moderated.test_client()
    table = Table(client)
    for minutes, status in ((0, 422), (43201, 422), ("5", 422)):
        url = f"/v1/moderation/muted/{table.watcher_name}"
        bad = client.put(url, json={"minutes": minutes}, headers=auth(MODERATOR))
        assert bad.status_code == status
    unknown = client.put("/v1/moderation/muted/nobody-here", json={"minutes": 5}, headers=auth(MODERATOR))
    assert unknown.status_code == 404 and json_object(unknown)["reason"] == "player_not_found"
    muted = client.put(f"/v1/moderation/muted/{table.watcher_name}", json={"minutes": 5}, headers=auth(MODERATOR))
    assert muted.status_code == 200
    refused = table.say(table.watcher, "spectators", "let me speak")
    assert refused.status_code == 403 and json_object(refused)["reason"] == "chat_muted"
    assert json_object(refused)["errors"]["until"] == json_object(muted)["until"]
    clock.now += 5 * 60 + 1
    assert table.say(table.watcher, "spectators", "back").status_code == 201
    client.put(f"/v1/moderation/muted/{table.watcher_name}", json={"minutes": 60}, headers=auth(MODERATOR))
    assert table.say(table.watcher, "spectators", "again").status_code == 403
    assert client.delete(f"/v1/moderation/muted/{table.watcher_name}", headers=auth(MODERATOR)).status_code == 204
    assert table.say(table.watcher, "spectators", "free").status_code == 201
    acts = json_object(client.get("/v1/moderation/audit?limit=3", headers=auth(MODERATOR)))["acts"]
    assert [a["act"] for a in acts] == ["chat_unmuted", "chat_muted", "chat_muted"]
    assert acts[1]["target"] == table.watcher_name and acts[1]["detail"] == "60 minutes"


def test_a_closed_account_loses_its_tokens_and_cannot_log_in(mod_client: FlaskClient) -> None:
    """Rule: a moderator closes an account: its tokens answer 401, its login is refused, the act is audited."""
    name = fresh_name("c")
    token = session_of(mod_client, name)
    assert mod_client.get("/v1/me", headers=auth(token)).status_code == 200
    closed = mod_client.post(f"/v1/moderation/closed/{name}", headers=auth(MODERATOR))
    assert closed.status_code == 204
    assert mod_client.get("/v1/me", headers=auth(token)).status_code == 401
    login = mod_client.post("/v1/sessions", json={"name": name, "password": PASSWORD})
    assert login.status_code == 401
    again = mod_client.post(f"/v1/moderation/closed/{name}", headers=auth(MODERATOR))
    assert again.status_code == 404 and json_object(again)["reason"] == "player_not_found"
    acts = json_object(mod_client.get("/v1/moderation/audit?limit=1", headers=auth(MODERATOR)))["acts"]
    assert acts[0]["act"] == "account_closed" and acts[0]["target"] == name


def test_the_audit_list_pages_newest_first(mod_client: FlaskClient) -> None:
    """Rule: the audit list is newest first, paged by `next_cursor`, each act with its time."""
    names = [fresh_name("a") for _ in range(3)]
    for name in names:
        session_of(mod_client, name)
        mod_client.put(f"/v1/moderation/muted/{name}", json={"minutes": 1}, headers=auth(MODERATOR))
    first = json_object(mod_client.get("/v1/moderation/audit?limit=2", headers=auth(MODERATOR)))
    assert [a["target"] for a in first["acts"]] == names[::-1][:2] and first["next_cursor"]
    second = json_object(
        mod_client.get(f"/v1/moderation/audit?limit=2&cursor={first['next_cursor']}", headers=auth(MODERATOR))
    )
    assert second["acts"][0]["target"] == names[0] and all("at" in a for a in second["acts"])
