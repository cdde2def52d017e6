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

    monkeypatch.setattr(app.extensions["tienlen"].store, "commit", unconfirmed)
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
