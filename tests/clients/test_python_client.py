"""The Python client and the example bot script: against a real server process, and against a
small fake server for what a real one rarely does (dropping a kept-alive connection)."""

from __future__ import annotations

import http.client
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import lowest_from_legal, lowest_from_view, play_match
from tienlen_client import ApiError, Client

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"


def test_four_bot_scripts_play_a_match_to_the_end_by_long_polling(live_server: str) -> None:
    host = Client(live_server)
    created = host.create_match([{"open": True}] * 4, rules={"hands": 1}, seed=99)
    match_id = created["match_id"]
    finals: list[dict[str, Any]] = []
    errors: list[BaseException] = []

    def run(name: str, from_view: bool) -> None:
        try:
            client = Client(live_server)
            token = client.join(match_id, name)["token"]
            choose = lowest_from_view if from_view else lowest_from_legal
            finals.append(play_match(client.seat(match_id, token), wait=5, choose=choose))
        except BaseException as error:
            errors.append(error)

    # two bots ask GET .../legal, two work their plays out from their views
    threads = [threading.Thread(target=run, args=(f"bot{i}", i >= 2)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert len(finals) == 4 and all(f["status"] == "finished" for f in finals)
    assert sorted(f["seat"] for f in finals) == [0, 1, 2, 3]
    assert host.match(match_id)["winner"] is not None


def test_client_raises_api_errors_with_reason(live_server: str) -> None:
    client = Client(live_server)
    assert client.health() == {"status": "ok"}
    with pytest.raises(ApiError) as caught:
        client.match("0123456789abcdef0123")
    assert caught.value.status == 404 and caught.value.reason == "match_not_found"
    assert caught.value.request == "GET /v1/matches/0123456789abcdef0123"
    answer = client.send("GET", "/v1/matches/0123456789abcdef0123")
    assert answer.status == 404 and answer.json()["reason"] == "match_not_found"
    created = client.create_match([{"name": "A"}, {"name": "B", "bot": "easy"}], seed=1)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    hint = seat.hint()
    assert hint["explanation"]
    with pytest.raises(ApiError) as refused:
        seat.play(["3S", "3S"])
    assert refused.value.reason in {"duplicate_cards", "not_your_turn"}


def _without_tienlen() -> dict[str, str]:
    """An environment for ``python -S``: no site-packages, so no ``tienlen`` (nor anything installed)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}


def test_the_bot_script_plays_with_the_standard_library_only(live_server: str) -> None:
    env = _without_tienlen()
    bare = subprocess.run([sys.executable, "-S", "-c", "import tienlen"], env=env, capture_output=True, check=False)
    assert bare.returncode != 0, "python -S still finds the tienlen package: this test would prove nothing"
    created = Client(live_server).create_match(
        [{"open": True}, {"name": "Bo", "bot": "easy"}, {"name": "Cy", "bot": "easy"}], rules={"hands": 1}, seed=3
    )
    script = [sys.executable, "-S", str(CLIENTS / "lowest_bot.py"), live_server, created["match_id"]]
    result = subprocess.run([*script, "--join", "Robo"], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith("match over: winner seat ")
    refused = subprocess.run(
        [*script, "--join", "Ann", "--from-view"], env=env, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 2 and "--from-view needs the tienlen package" in refused.stderr


# ---------------------------------------------------------------------------- a fake server


class FakeServer(http.server.ThreadingHTTPServer):
    """Answers ``answers[path]`` (default 200 ``{"ok": true}``) and counts the connections it accepts.

    ``close_after_each`` closes every connection after its answer without saying so
    (a keep-alive timeout); ``drops`` closes that many connections without answering.
    """

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), FakeHandler)
        self.answers: dict[str, tuple[int, bytes]] = {}
        self.close_after_each = False
        self.drops = 0
        self.connections = 0
        self.requests = 0

    def finish_request(self, request: Any, client_address: Any) -> None:
        self.connections += 1
        super().finish_request(request, client_address)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class FakeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        server = cast(FakeServer, self.server)
        if server.drops > 0:
            server.drops -= 1
            self.close_connection = True
            return
        server.requests += 1
        status, body = server.answers.get(self.path, (200, b'{"ok": true}'))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        if server.close_after_each:
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""


@pytest.fixture
def fake() -> Iterator[FakeServer]:
    server = FakeServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_one_connection_is_kept_alive_for_every_call(fake: FakeServer) -> None:
    with Client(fake.url) as client:
        for _ in range(5):
            assert client.request("GET", "/x") == {"ok": True}
    assert (fake.requests, fake.connections) == (5, 1)


def test_a_connection_the_server_closed_is_reopened_and_the_call_sent_again(fake: FakeServer) -> None:
    fake.close_after_each = True
    with Client(fake.url) as client:
        for _ in range(3):
            assert client.request("GET", "/x") == {"ok": True}
    assert (fake.requests, fake.connections) == (3, 3)


def test_a_failure_on_a_new_connection_is_raised_and_the_next_call_reconnects(fake: FakeServer) -> None:
    with Client(fake.url) as client:
        assert client.request("GET", "/x") == {"ok": True}
        fake.drops = 2  # the kept-alive connection, then the one opened to send the call again
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            client.request("GET", "/x")
        assert client.request("GET", "/x") == {"ok": True}
    assert (fake.requests, fake.connections) == (2, 3)


def test_statuses_are_checked_against_the_expected_one(fake: FakeServer) -> None:
    fake.answers["/missing"] = (404, b'{"reason": "not_found", "message": "no such thing"}')
    fake.answers["/proxy"] = (502, b"<html>bad gateway</html>")
    with Client(fake.url) as client:
        answer = client.send("GET", "/missing")
        assert answer.status == 404 and answer.json() == {"reason": "not_found", "message": "no such thing"}
        with pytest.raises(ApiError) as missing:
            client.request("GET", "/missing")
        assert (missing.value.status, missing.value.reason) == (404, "not_found")
        assert str(missing.value) == "404 not_found: no such thing (GET /missing)"
        with pytest.raises(ApiError) as unexpected:
            client.request("GET", "/x", expect=201)
        assert unexpected.value.status == 200 and unexpected.value.body == {"ok": True}
        with pytest.raises(ApiError) as proxy:
            client.request("GET", "/proxy")
        assert proxy.value.status == 502 and proxy.value.body == "<html>bad gateway</html>"
        assert client.request("GET", "/x", expect=200) == {"ok": True}
