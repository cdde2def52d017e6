"""The client's kept-alive connection and status checks, against a small fake server that closes
connections and answers what it is told."""

from __future__ import annotations

import http.client
import http.server
import io
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, ConnectionFailed, Endpoint, RetryPolicy

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
    with Client(fake.url, retry=RetryPolicy(attempts=1)) as client:
        assert client.request("GET", "/x") == {"ok": True}
        fake.drops = 2  # the kept-alive connection, then the one opened to send the call again
        with pytest.raises(ConnectionFailed) as failed:
            client.request("GET", "/x")
        assert isinstance(failed.value.cause, (ConnectionError, http.client.HTTPException))
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


# ---------------------------------------------------------------------------- one write per request


class RecordingSocket:
    """Stands in for a connected socket and keeps every write."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def sendall(self, data: Any) -> None:
        self.writes.append(bytes(data))


def test_a_request_head_and_body_leave_in_one_write() -> None:
    # http.client writes a POST's head and body apart: two TCP segments, two wake-ups of the server
    connection = Endpoint.parse("http://127.0.0.1:9").connect(5)
    recording = RecordingSocket()
    connection.sock = recording
    connection.request("POST", "/v1/x", body=b'{"type": "pass"}', headers={"Content-Type": "application/json"})
    assert len(recording.writes) == 1
    head, body = recording.writes[0].split(b"\r\n\r\n")
    assert head.startswith(b"POST /v1/x HTTP/1.1\r\n") and b"Content-Length: 16" in head
    assert body == b'{"type": "pass"}'


def test_a_body_read_from_a_file_still_follows_its_head() -> None:
    connection = Endpoint.parse("http://127.0.0.1:9").connect(5)
    recording = RecordingSocket()
    connection.sock = recording
    connection.request("POST", "/v1/x", body=io.BytesIO(b"abc"), headers={"Content-Length": "3"})
    sent = b"".join(recording.writes)
    assert sent.startswith(b"POST /v1/x HTTP/1.1\r\n") and sent.endswith(b"\r\n\r\nabc")
