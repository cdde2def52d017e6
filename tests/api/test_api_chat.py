"""The chat at the table: who writes in which room, who reads which message, quick phrases, the chat kept."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import Clock, play_out, play_turn, service_of, tokens_of
from tienlen.api.services import services_of
from tienlen.service.phrases import CHAT_PHRASES

pytestmark = pytest.mark.xdist_group("chat")


class Table:
    """A two-seat match in play: seat 0 held by account ``host``, seat 1 anonymous; ``watcher`` sits nowhere."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.host_name, self.watcher_name = fresh_name("h"), fresh_name("w")
        self.host, self.watcher = session_of(client, self.host_name), session_of(client, self.watcher_name)
        created = client.post("/v1/matches", json={"seats": [{"name": "A"}, {"name": "B"}]}, headers=auth(self.host))
        assert created.status_code == 201, created.json
        body = json_object(created)
        self.match_id = body["match_id"]
        self.seats = tokens_of(body)

    def say(self, token: str | None, room: str, text: str | None = "hello", **body: Any) -> Any:
        """POST a message; the answer."""
        headers = {} if token is None else auth(token)
        sent = {k: v for k, v in ({"room": room, "text": text} | body).items() if v is not None}
        return self.client.post(f"/v1/matches/{self.match_id}/chat", json=sent, headers=headers)

    def read(self, token: str | None = None) -> list[dict[str, Any]]:
        """The chat_said events this reader reads on GET …/events."""
        headers = {} if token is None else auth(token)
        page = json_object(self.client.get(f"/v1/matches/{self.match_id}/events", headers=headers))
        return [e for e in page["events"] if e["type"] == "chat_said"]


@pytest.fixture
def table(client: FlaskClient) -> Table:
    """A fresh table."""
    return Table(client)


WRITES = [
    # who, room, status, reason
    ("seat token", "table", 201, None),
    ("seat token", "spectators", 403, "not_spectator"),
    ("seated account", "table", 201, None),
    ("seated account", "spectators", 403, "not_spectator"),
    ("anonymous seat", "table", 201, None),
    ("spectator account", "spectators", 201, None),
    ("spectator account", "table", 403, "not_seated"),
    ("no token", "table", 401, "invalid_token"),
    ("no token", "spectators", 401, "invalid_token"),
    ("unknown token", "spectators", 401, "invalid_token"),
]


def token_of(table: Table, who: str) -> str | None:
    """The token of a kind of writer or reader at ``table``."""
    return {
        "seat token": table.seats[0],
        "seated account": table.host,
        "anonymous seat": table.seats[1],
        "spectator account": table.watcher,
        "no token": None,
        "unknown token": "x" * 43,
    }[who]


@pytest.mark.parametrize(("who", "room", "status", "reason"), WRITES)
def test_who_writes_in_which_room(table: Table, who: str, room: str, status: int, reason: str | None) -> None:
    """Rule: a seat writes in `table`, a spectator account in `spectators`, nobody without a token; a refusal
    writes nothing."""
    before = json_object(table.client.get(f"/v1/matches/{table.match_id}"))["version"]
    answer = table.say(token_of(table, who), room)
    assert answer.status_code == status, answer.json
    if reason is not None:
        assert json_object(answer)["reason"] == reason
        assert json_object(table.client.get(f"/v1/matches/{table.match_id}"))["version"] == before
    else:
        message = json_object(answer)
        assert message["room"] == room and message["text"] == "hello" and message["seq"] > 0
        seat = {"seat token": 0, "seated account": 0, "anonymous seat": 1}.get(who)
        assert message["from"]["seat"] == seat


READS = [
    # reader, reads the table room
    ("seat token", True),
    ("seated account", True),
    ("anonymous seat", True),
    ("spectator account", False),
    ("no token", False),
    ("unknown token", False),
]


@pytest.mark.parametrize(("who", "reads_table"), READS)
def test_who_reads_which_room(table: Table, who: str, reads_table: bool) -> None:
    """Rule: the table room's messages go only to the seats' readers; the spectators' room to everyone."""
    assert table.say(table.seats[1], "table", "at the table").status_code == 201
    assert table.say(table.watcher, "spectators", "watching").status_code == 201
    rooms = [e["room"] for e in table.read(token_of(table, who))]
    assert rooms == (["table", "spectators"] if reads_table else ["spectators"])
    chat = json_object(table.client.get(f"/v1/matches/{table.match_id}/chat", headers=_headers(table, who)))
    assert [m["room"] for m in chat["messages"]] == rooms


def _headers(table: Table, who: str) -> dict[str, str]:
    token = token_of(table, who)
    return {} if token is None else auth(token)


def test_a_page_skips_what_its_reader_may_not_read_and_moves_on(table: Table) -> None:
    """Rule: `seq` rises but skips a table message for a spectator; `last_seq` still moves past it."""
    said = json_object(table.say(table.seats[0], "table", "secret plan"))
    page = json_object(table.client.get(f"/v1/matches/{table.match_id}/events?after={said['seq'] - 1}"))
    assert page["events"] == [] and page["last_seq"] == said["seq"]
    seated = json_object(
        table.client.get(f"/v1/matches/{table.match_id}/events?after={said['seq'] - 1}", headers=auth(table.host))
    )
    assert [e["text"] for e in seated["events"]] == ["secret plan"]


def test_the_stream_leaves_out_the_table_room_for_a_spectator(table: Table) -> None:
    """Rule: the SSE stream sends a spectator the spectators' room and never the table's."""
    table.say(table.seats[0], "table", "for the seats")
    table.say(table.watcher, "spectators", "for all")
    play_out(Api(table.client), table.match_id, table.seats)  # the stream of a finished match ends
    body = table.client.get(f"/v1/matches/{table.match_id}/stream").get_data(as_text=True)
    assert "for all" in body and "for the seats" not in body
    seated = table.client.get(f"/v1/matches/{table.match_id}/stream", headers=auth(table.seats[1]))
    assert "for the seats" in seated.get_data(as_text=True)


TEXTS = [
    ("", 422),
    ("   ", 422),
    ("x" * 201, 422),
    ("  " + "x" * 200 + "  ", 201),
    ("line\nbreak", 422),
    ("bell\x07", 422),
    ("rtl \u202e override", 422),
    ("chào các bạn 🃏👨‍👩‍👧", 201),
]


@pytest.mark.parametrize(("text", "status"), TEXTS)
def test_a_message_is_1_to_200_visible_characters_once_trimmed(table: Table, text: str, status: int) -> None:
    """Rule: a message's text is trimmed, 1-200 characters, without control or bidi override characters."""
    answer = table.say(table.seats[0], "table", text)
    assert answer.status_code == status, answer.json
    if status == 201:
        assert json_object(answer)["text"] == text.strip()
    else:
        assert json_object(answer)["reason"] == "invalid_request"


@pytest.mark.parametrize(
    "body",
    [{"room": "table"}, {"room": "table", "text": "hi", "phrase": "good_game"}, {"room": "table", "phrase": "nope"}],
)
def test_exactly_one_of_text_and_a_known_phrase(table: Table, body: dict[str, Any]) -> None:
    """Rule: a message has a text or a known quick phrase, not both, not neither (422)."""
    answer = table.client.post(f"/v1/matches/{table.match_id}/chat", json=body, headers=auth(table.seats[0]))
    assert answer.status_code == 422 and json_object(answer)["reason"] == "invalid_request"


def test_quick_phrases_in_both_languages_are_served_and_said(table: Table) -> None:
    """Rule: GET /v1/rules lists every quick phrase with its en and vi words; a phrase is said by its id."""
    phrases = json_object(table.client.get("/v1/rules"))["chat_phrases"]
    assert [p["id"] for p in phrases] == [p.id for p in CHAT_PHRASES]
    assert all(set(p["text"]) == {"en", "vi"} and all(p["text"].values()) for p in phrases)
    ids = {p["id"] for p in phrases}
    assert {"good_game", "well_played", "hurry_up", "good_luck", "thanks", "oops", "nice_bomb"} <= ids
    said = json_object(table.say(table.seats[0], "table", phrase="good_game", text=None))
    assert said["phrase"] == "good_game" and said["text"] == "Good game"


def test_a_cancelled_or_unknown_match_has_no_chat(client: FlaskClient, table: Table) -> None:
    """Rule: no match (never made, or cancelled) answers 404 match_not_found to a message and to reading."""
    created = json_object(client.post("/v1/matches", json={"seats": [{"name": "A"}, {"open": True}]}))
    token = created["tokens"][0]["token"]
    assert client.delete(f"/v1/matches/{created['match_id']}", headers=auth(token)).status_code == 204
    for match_id in (created["match_id"], "nomatch"):
        said = client.post(f"/v1/matches/{match_id}/chat", json={"room": "table", "text": "hi"}, headers=auth(token))
        assert said.status_code == 404 and json_object(said)["reason"] == "match_not_found"
        assert client.get(f"/v1/matches/{match_id}/chat").status_code == 404


def test_a_finished_match_takes_chat_for_ten_minutes_and_keeps_it(app: Flask, client: FlaskClient) -> None:
    """Rule: after the end a match takes messages for 10 minutes (then 409 match_not_playing); its chat is kept
    with its kept record and read back once the live match is gone."""
    clock = Clock()
    service_of(app).core.now = clock
    table = Table(client)
    assert table.say(table.seats[0], "table", "before the end").status_code == 201
    play_out(Api(client), table.match_id, table.seats)
    assert table.say(table.watcher, "spectators", "gg all").status_code == 201
    clock.now += 601
    late = table.say(table.seats[0], "table", "too late")
    assert late.status_code == 409 and json_object(late)["reason"] == "match_not_playing"
    store = services_of(app).game.core.store
    kept = store.chat().kept_chat(table.match_id)
    assert [m["text"] for m in kept] == ["before the end", "gg all"]
    record = store.load(table.match_id).record
    assert record is not None
    assert store.delete(record, record.version, [])  # the live match gone: its kept chat is read
    seen = json_object(client.get(f"/v1/matches/{table.match_id}/chat", headers=auth(table.host)))["messages"]
    assert [m["text"] for m in seen] == ["before the end", "gg all"]
    anyone = json_object(client.get(f"/v1/matches/{table.match_id}/chat"))["messages"]
    assert [m["text"] for m in anyone] == ["gg all"]


def test_chat_moves_no_inbox(client: FlaskClient, table: Table) -> None:
    """Rule: a message tells no account's inbox (it is nobody's turn again)."""
    api = Api(client)
    if api.public(table.match_id)["turn"] != 0:
        play_turn(api, table.match_id, table.seats)  # the account's seat on turn: a write would tell it so
    before = json_object(client.get("/v1/me/events", headers=auth(table.host)))
    table.say(table.seats[1], "table", "hi")
    after = json_object(client.get("/v1/me/events", headers=auth(table.host)))
    assert after["last_seq"] == before["last_seq"]
