"""What a failed write says (nothing changed, or outcome unknown), and the headers every answer carries."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from flask import Flask

from tests.support.api import Api, json_object
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis, free_port
from tienlen.store import OutcomeUnknownError, StoreUnavailableError
from tienlen.store.connect import RedisOptions, WriteScript, connect, read_replies, run_script

SCRIPT = WriteScript("return 1")
DEAL = [["3S", "4S"], ["5S", "6S"]]


@contextmanager
def swallowing_server() -> Iterator[int]:
    """A fake Redis on a free port: answers ``+OK`` to every command until an EVALSHA, which it never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        held: list[socket.socket] = []
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(connection)
            threading.Thread(target=answer, args=(connection,), daemon=True).start()
        for connection in held:
            connection.close()

    def answer(connection: socket.socket) -> None:
        try:
            while chunk := connection.recv(65536):
                if b"EVALSHA" in chunk:
                    return  # sent, and never confirmed
                commands = chunk.count(b"\r\n*") + chunk.startswith(b"*")
                connection.sendall(b"+OK\r\n" * commands)
        except OSError:
            return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield port
    finally:
        stop.set()
        thread.join()
        listener.close()


def test_a_write_sent_but_never_answered_is_outcome_unknown() -> None:
    with swallowing_server() as port:
        client = redis.Redis(port=port, socket_timeout=0.3, socket_connect_timeout=0.3, protocol=2)
        with pytest.raises(OutcomeUnknownError):
            run_script(client, SCRIPT, ["tl:{x}:state"], [])


def test_a_write_that_could_not_be_sent_is_store_unavailable_not_unknown() -> None:
    client = connect(RedisOptions(f"redis://127.0.0.1:{free_port()}", timeout_s=0.3))  # the server's own retries
    with pytest.raises(StoreUnavailableError) as raised:
        run_script(client, SCRIPT, ["tl:{x}:state"], [])
    assert not isinstance(raised.value, OutcomeUnknownError)


def test_reads_go_pipelined_and_answer_each_reply_in_order(redis_server: LocalRedis) -> None:
    client = redis.Redis.from_url(redis_server.url)
    client.hset("tl:{r1}:state", "doc", "the record")
    replies = read_replies(client, "tl:{r1}:state", [("HGET", "tl:{r1}:state", "doc"), ("GET", "tl:{r1}:idem:x")])
    assert replies == [b"the record", None]


def test_a_read_on_a_connection_redis_closed_is_sent_again_on_a_new_one(redis_server: LocalRedis) -> None:
    # a Redis that restarted closed every pooled connection: the read must not fail for that alone
    client = redis.Redis.from_url(redis_server.url)
    client.set("tl:{r2}:v", b"1")
    killer = redis.Redis.from_url(redis_server.url)
    assert killer.client_kill_filter(_id=str(client.client_id())) == 1
    assert read_replies(client, "tl:{r2}:v", [("GET", "tl:{r2}:v")]) == [b"1"]


def test_a_read_with_no_redis_is_store_unavailable() -> None:
    client = connect(RedisOptions(f"redis://127.0.0.1:{free_port()}", timeout_s=0.3))  # the server's own retries
    with pytest.raises(StoreUnavailableError):
        read_replies(client, "tl:{r3}:state", [("HGET", "tl:{r3}:state", "doc")])


def test_a_read_that_is_never_answered_is_store_unavailable_after_the_timeout() -> None:
    with swallowing_server() as port:
        client = redis.Redis(port=port, socket_timeout=0.3, socket_connect_timeout=0.3, protocol=2)
        with pytest.raises(StoreUnavailableError):
            read_replies(client, "tl:{x}:state", [("EVALSHA", "0", "0")])


def test_an_unconfirmed_commit_answers_503_outcome_unknown(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B"}], rules={"preset": "ladder"}, deal=DEAL)
    token = created["tokens"][0]["token"]

    def unconfirmed(*args: Any, **kwargs: Any) -> bool:
        raise OutcomeUnknownError("sent, not confirmed")

    monkeypatch.setattr(services_of(app).game.core.store, "commit", unconfirmed)
    answer = api.act(created["match_id"], token, {"type": "play", "cards": ["3S"]})
    body = json_object(answer)
    assert answer.status_code == 503 and body["reason"] == "outcome_unknown"
    assert "Idempotency-Key" in body["message"]


def test_private_answers_are_not_stored_and_no_answer_is_sniffed(api: Api) -> None:
    client = api.client
    created = client.post("/v1/matches", json={"seats": [{"name": "A"}, {"open": True}]})
    assert created.headers["Cache-Control"] == "no-store", "an answer with tokens"
    match_id = json_object(created)["match_id"]
    token = json_object(created)["tokens"][0]["token"]
    joined = client.post(f"/v1/matches/{match_id}/join", json={"name": "B"})
    assert joined.headers["Cache-Control"] == "no-store", "an answer with a token"
    view = client.get(f"/v1/matches/{match_id}/view", headers=api.auth(token))
    assert view.status_code == 200 and view.headers["Cache-Control"] == "no-store", "a seat's cards"
    refused = client.get(f"/v1/matches/{match_id}/view", headers=api.auth("wrong"))
    assert refused.status_code == 401 and refused.headers["Cache-Control"] == "no-store"
    for answer in (created, joined, view, refused, client.get("/v1/rules"), client.get(f"/v1/matches/{match_id}")):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "no-store" not in client.get("/v1/rules").headers.get("Cache-Control", "")


# ----- no-store on every answer that may hold a token or a seat's cards ---------------------------------

SEAT_CARDS = {"SeatView", "ActionAnswer", "Legal", "Hint"}  # component schemas that hold a seat's own cards


def _secrets_in(schema: Any, components: dict[str, Any], seen: frozenset[str] = frozenset()) -> set[str]:
    """What secret an answer's schema may hold: `token` fields, and the schemas of a seat's cards (by name)."""
    found: set[str] = set()
    if isinstance(schema, dict):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if name in seen:
                return found
            found |= {name} & SEAT_CARDS
            return found | _secrets_in(components[name], components, seen | {name})
        found |= {key for key in schema.get("properties", {}) if key in ("token", "tokens")}
        for value in schema.values():
            found |= _secrets_in(value, components, seen)
    elif isinstance(schema, list):
        for value in schema:
            found |= _secrets_in(value, components, seen)
    return found


def test_every_operation_that_can_answer_a_token_or_a_seats_cards_answers_no_store(app: Flask) -> None:
    """Rule: walk the OpenAPI document; each operation whose success answer may hold a token or a seat's cards
    is private (``Cache-Control: no-store``) as the least-credentialled caller it takes sends it: without an
    ``Authorization`` header unless the operation requires one."""
    from tienlen.api import openapi_document
    from tienlen.api.headers import private_request

    document = openapi_document()
    components = document["components"]["schemas"]
    checked = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = [a for status, a in operation["responses"].items() if str(status).startswith("2")]
            if not _secrets_in(answers, components):
                continue
            security = operation.get("security", document.get("security", []))
            required = bool(security) and {} not in security
            headers = {"Authorization": "Bearer some-token"} if required else {}
            url = path.replace("{", "").replace("}", "")
            with app.test_request_context(url, method=method.upper(), headers=headers):
                assert private_request(), f"{method.upper()} {path} may answer a secret but is not no-store"
            checked.append(f"{method.upper()} {path}")
    for named in (
        "POST /v1/sessions",
        "POST /v1/accounts",
        "POST /v1/rooms/{code}/join",
        "POST /v1/matches",
        "POST /v1/matches/{match_id}/join",
        "POST /v1/matches/{match_id}/rematch",
        "POST /v1/me/tokens",
        "GET /v1/matches/{match_id}/view",
        "GET /v1/matches/{match_id}/legal",
        "GET /v1/matches/{match_id}/hint",
        "POST /v1/matches/{match_id}/actions",
        "POST /v1/challenges",
    ):
        assert named in checked, f"the walk must find {named}"


def test_sessions_accounts_and_room_joins_answer_no_store(api: Api) -> None:
    """Rule: the token answers the issue named (a login, a new account, a join by room code) are not kept."""
    from tests.support.accounts import PASSWORD, fresh_name

    client = api.client
    name = fresh_name()
    made = client.post("/v1/accounts", json={"name": name, "password": PASSWORD, "kind": "human"})
    login = client.post("/v1/sessions", json={"name": name, "password": PASSWORD})
    created = api.create(seats=[{"name": "A"}, {"open": True}, {"open": True}])
    joined = client.post(f"/v1/rooms/{created['match']['room_code']}/join", json={"name": "B"})
    for answer in (made, login, joined):
        assert answer.status_code in (200, 201), answer.json
        assert answer.headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get(f"/v1/matches/{created['match_id']}").headers.get("Cache-Control", "")
