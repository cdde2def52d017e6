"""A scripted stub server for fault injection: it records what it receives and answers from a script.

Each request takes the next step of :attr:`StubServer.script` (a 200
``{"ok": true}`` once the script is used up):

- :data:`DROP`: read the request, then close the connection without a byte of answer;
- ``Slow(seconds, answer)``: wait, then answer (too late for a client with a shorter timeout);
- ``Answer(status, body, headers)``: answer that;
- ``Stream(events, hold_s)``: a Server-Sent Events answer with those events, then
  ``hold_s`` seconds of silence with the connection open (no end of the answer);
- ``Lines(documents, hold_s, end)``: a chunked ``application/x-ndjson`` answer, one
  JSON document a line; after the first line ``hold_s`` seconds of silence, then
  the other lines and the end of the answer (``end``), or a cut connection.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any, cast

__all__ = ["DROP", "Answer", "Lines", "Received", "Slow", "Stream", "StubServer", "refusal"]


@dataclass(frozen=True)
class Answer:
    """A status, a JSON body (None: none) and extra headers."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Slow:
    """Wait ``seconds``, then give ``answer``."""

    seconds: float
    answer: Answer


@dataclass(frozen=True)
class Stream:
    """A 200 ``text/event-stream`` of ``events`` (JSON objects with ``seq`` and ``type``), then silence."""

    events: list[dict[str, Any]]
    hold_s: float


@dataclass(frozen=True)
class Lines:
    """A 200 NDJSON answer: the first document, ``hold_s`` of silence, the others, then its end (or a cut)."""

    documents: list[dict[str, Any]]
    hold_s: float = 0.0
    end: bool = True


DROP = "drop"
"""Close the connection without answering."""

Step = Answer | Slow | Stream | Lines | str


def refusal(status: int, reason: str, retry_after: str | None = None) -> Answer:
    """An error answer in the server's shape."""
    headers = {"Retry-After": retry_after} if retry_after is not None else {}
    body = {"code": status, "status": "x", "reason": reason, "message": f"a scripted {reason}"}
    return Answer(status, body, headers)


@dataclass(frozen=True)
class Received:
    """One request as the stub received it (header names in lower case)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def key(self) -> str | None:
        """Its ``Idempotency-Key``."""
        return self.headers.get("idempotency-key")


class StubServer(http.server.ThreadingHTTPServer):
    """The stub; ``received`` lists every request in the order it arrived."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), StubHandler)
        self.script: list[Step] = []
        self.received: list[Received] = []
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def next_step(self, request: Received) -> Step:
        with self.lock:
            self.received.append(request)
            return self.script.pop(0) if self.script else Answer(200, {"ok": True})

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Quiet: a client that gave up on a slow answer is expected."""


class StubHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self) -> None:
        server = cast(StubServer, self.server)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {name.lower(): value for name, value in self.headers.items()}
        step = server.next_step(Received(self.command, self.path, headers, body))
        if step == DROP:
            self.close_connection = True
            return
        if isinstance(step, Stream):
            self.stream(step)
            return
        if isinstance(step, Lines):
            self.lines(step)
            return
        if isinstance(step, Slow):
            time.sleep(step.seconds)
            step = step.answer
        assert isinstance(step, Answer)
        data = b"" if step.body is None else json.dumps(step.body).encode()
        self.send_response(step.status)
        for name, value in step.headers.items():
            self.send_header(name, value)
        if step.status != 204:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def stream(self, step: Stream) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in step.events:
            frame = f"id: {event['seq']}\nevent: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(frame), frame))
        self.wfile.flush()
        time.sleep(step.hold_s)
        self.close_connection = True

    def lines(self, step: Lines) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for number, document in enumerate(step.documents):
            line = json.dumps(document).encode() + b"\n"
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
            if number == 0:
                time.sleep(step.hold_s)
        if step.end:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        self.close_connection = True

    do_GET = answer
    do_POST = answer
    do_DELETE = answer

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet."""
