"""The gevent workers' answers: the same bytes as gunicorn's own writer, in one write where it takes two or more.

Each case drives gunicorn's ``Response`` and :class:`OneWriteResponse` the way a
worker does (``start_response``, ``write`` per body item, ``close``) on a socket
that records every ``sendall``, and compares.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import pytest
from gunicorn.config import Config
from gunicorn.http import wsgi
from gunicorn.workers.ggevent import GeventWorker

from tests.support.processes import output_of_python
from tienlen.http_workers import OneWriteGeventWorker, OneWriteResponse
from tienlen.serving import ServeConfig, TienLenApplication, gunicorn_options


@dataclass
class RecordingSocket:
    """Keeps every ``sendall``."""

    writes: list[bytes] = field(default_factory=list)

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))


@dataclass
class StubRequest:
    """What gunicorn's writer asks of a request."""

    method: str = "GET"
    version: tuple[int, int] = (1, 1)

    def should_close(self) -> bool:
        return False


def answer(kind: type[Any], method: str, status: str, headers: list[tuple[str, str]], body: list[bytes]) -> list[bytes]:
    """The writes of one answer, as a gunicorn worker makes them."""
    sock = RecordingSocket()
    response = kind(StubRequest(method), sock, Config())
    response.start_response(status, headers)
    for item in body:
        response.write(item)
    response.close()
    return sock.writes


def without_date(data: bytes) -> bytes:
    """The bytes with the Date header's value blanked (the two answers may be a second apart)."""
    head, sep, rest = data.partition(b"Date: ")
    return head + sep + rest[rest.index(b"\r\n") :] if sep else data


JSON = [("Content-Type", "application/json"), ("Content-Length", "11")]
CASES = {
    "a JSON answer": ("GET", "200 OK", JSON, [b'{"ok":true}']),
    "a JSON answer written in two items": ("GET", "200 OK", JSON, [b'{"ok":', b"true}"]),
    "an event stream (chunked)": ("GET", "200 OK", [("Content-Type", "text/event-stream")], [b": x\n\n", b"id: 1\n\n"]),
    "a stream that ends before its first item": ("GET", "200 OK", [("Content-Type", "text/event-stream")], []),
    "204 No Content": ("GET", "204 No Content", [("Cache-Control", "no-cache")], []),
    "an answer to HEAD": ("HEAD", "200 OK", JSON, [b'{"ok":true}']),
}


@pytest.mark.parametrize("case", CASES)
def test_an_answer_is_the_same_bytes_as_gunicorns(case: str) -> None:
    method, status, headers, body = CASES[case]
    ours = answer(OneWriteResponse, method, status, headers, body)
    theirs = answer(wsgi.Response, method, status, headers, body)
    assert without_date(b"".join(ours)) == without_date(b"".join(theirs))


@pytest.mark.parametrize(
    ("case", "writes", "gunicorns"),
    [
        ("a JSON answer", 1, 2),
        ("a JSON answer written in two items", 2, 3),
        ("an event stream (chunked)", 3, 4),  # head + first chunk, the second chunk, the last chunk
        ("a stream that ends before its first item", 1, 2),
        ("204 No Content", 1, 1),
        ("an answer to HEAD", 1, 1),
    ],
)
def test_the_head_leaves_with_the_first_body_bytes(case: str, writes: int, gunicorns: int) -> None:
    method, status, headers, body = CASES[case]
    ours = answer(OneWriteResponse, method, status, headers, body)
    assert (len(ours), len(answer(wsgi.Response, method, status, headers, body))) == (writes, gunicorns)
    assert ours[0].startswith(b"HTTP/1.1 " + status.encode())
    if body and method != "HEAD":
        assert ours[0].endswith(b"%X\r\n%s\r\n" % (len(body[0]), body[0]) if writes == 3 else body[0])


def test_a_gevent_worker_patches_without_a_warning_after_what_the_master_loads() -> None:
    """Rule: gunicorn's master (``tienlen serve``: the CLI and the serving module) loads nothing that gevent's
    patching in a worker it forks would warn about (``MonkeyPatchWarning``: a module holding ssl's unpatched names,
    such as redis-py's); in JSON logs that warning was a line of plain text, and its modules were left unpatched."""
    script = (
        "import warnings\n"
        "import tienlen.cli, tienlen.serving\n"
        "from gevent import monkey\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    monkey.patch_all()\n"
        "print([str(w.message)[:300] for w in caught if w.category.__name__ == 'MonkeyPatchWarning'])\n"
    )
    assert output_of_python(script)[-1] == "[]"


def test_serve_runs_the_one_write_gevent_worker() -> None:
    options = gunicorn_options(ServeConfig("127.0.0.1", 8123, 2), max_waiters=10)
    app = TienLenApplication(options, app_factory=lambda: None)  # type: ignore[arg-type,return-value]
    assert app.cfg.worker_class is OneWriteGeventWorker
    assert issubclass(OneWriteGeventWorker, GeventWorker)


@pytest.mark.parametrize(
    ("path", "headers", "status", "reason"),
    [
        ("/v1/matches?cursor=" + "a" * 5000, {}, 414, "uri_too_long"),
        ("/healthz", {"X-Big": "a" * 9000}, 431, "headers_too_large"),
    ],
)
def test_what_gunicorn_refuses_before_the_app_is_answered_in_the_error_shape(
    live_server: str, path: str, headers: dict[str, str], status: int, reason: str
) -> None:
    """Rule: every refusal is JSON with a reason, also those the server refuses before any view runs."""
    request = urllib.request.Request(live_server + path, headers=headers)
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    answer = refused.value
    assert answer.code == status and answer.headers.get_content_type() == "application/json"
    body = json.loads(answer.read())
    assert body["reason"] == reason and body["code"] == status and body["message"]
