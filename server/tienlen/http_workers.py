"""gunicorn workers whose answers leave in one write: the head and the first body bytes together.

gunicorn sends an answer's status line and headers in one ``send`` and its
body in another. Every ``send`` on a socket costs a system call, and on a
busy server these are the largest single cost of an answer (loopback or not,
the kernel does the whole TCP work of each). :class:`OneWriteResponse` keeps
the head until the first body bytes (or the end of an answer without a body)
and sends both at once; a stream's first chunk goes out with its head too.
Nothing else changes: gunicorn still builds the head and frames the body.

``tienlen serve`` runs :class:`OneWriteGeventWorker` as its default gevent
workers; its threaded workers stay gunicorn's own.

A request gunicorn refuses before the app sees it (a request line or headers
too long, a malformed request line) is answered in the API's one error shape
(:func:`write_refusal`), not gunicorn's HTML page.
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.http import wsgi
from gunicorn.workers.ggevent import GeventWorker

__all__ = ["OneWriteGeventWorker", "OneWriteResponse", "answer_refusals_as_json", "write_refusal"]

LAST_CHUNK = b"0\r\n\r\n"


class _Kept:
    """Stands in for the socket while gunicorn writes a head: keeps the bytes instead of sending them."""

    __slots__ = ("data",)

    def __init__(self) -> None:
        self.data = b""

    def sendall(self, data: bytes) -> None:
        self.data += data


class OneWriteResponse(wsgi.Response):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's answer writer, sending the head with the first body bytes instead of on its own."""

    sock: Any  # the client's socket (set by gunicorn's writer)
    chunked: bool
    headers_sent: bool

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._head = b""

    def send_headers(self) -> None:
        """Build the head as gunicorn does, but keep it for the first write."""
        if self.headers_sent:
            return
        sock, kept = self.sock, _Kept()
        self.sock = kept
        try:
            super().send_headers()
        finally:
            self.sock = sock
        self._head = kept.data

    def _emit_body(self, data: bytes) -> None:
        head, self._head = self._head, b""
        if not head:
            super()._emit_body(data)
            return
        if self.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        self.sock.sendall(head + data)

    def can_sendfile(self) -> bool:
        """Files are written like any body (gunicorn's sendfile would send the head on its own)."""
        return False

    def close(self) -> None:
        """End the answer: a head still kept goes out now, with the last chunk of a chunked answer."""
        if not self.headers_sent:
            self.send_headers()
        head, self._head = self._head, b""
        if head:
            self.sock.sendall(head + LAST_CHUNK if self.chunked else head)
        elif self.chunked:
            self.sock.sendall(LAST_CHUNK)


class OneWriteGeventWorker(GeventWorker):  # type: ignore[misc]
    """gunicorn's gevent worker, answering with :class:`OneWriteResponse`."""

    def init_process(self) -> None:
        """Make gunicorn build every answer of this worker process with :class:`OneWriteResponse`, then run."""
        wsgi.Response = OneWriteResponse  # the class gunicorn's ``wsgi.create`` instantiates
        super().init_process()


def write_refusal(sock: Any, status: int, phrase: str, message: str) -> None:
    """gunicorn's ``util.write_error`` in the API's error shape: ``{code, status, message, reason}`` as JSON."""
    # imported here: gunicorn loads this module in its master, before the workers set up gevent and metrics
    from .api.errors import refusal_body

    data = json.dumps(refusal_body(status, message or phrase)).encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\nConnection: close\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + data)


def answer_refusals_as_json() -> None:
    """Make this worker answer the requests gunicorn refuses itself with :func:`write_refusal`."""
    util.write_error = write_refusal
