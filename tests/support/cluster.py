"""A client that sends each request to any of two servers, for the tests on a real Redis Cluster
(:class:`~tienlen.local_redis.cluster.LocalCluster`, re-exported here).

A :class:`Balancer` hands
each connection to one of several real servers at random, and
:func:`http_client` makes a werkzeug test client that sends every request over
HTTP (to the balancer), so tests written for Flask's test client run
unchanged against servers that share only the cluster.
"""

from __future__ import annotations

import http.client
import random
import socket
import threading
from collections.abc import Iterable, Sequence
from contextlib import suppress
from typing import Any
from urllib.parse import urlsplit

from werkzeug.test import Client, TestResponse

from tienlen.local_redis.cluster import SLOTS, LocalCluster

__all__ = ["SLOTS", "Balancer", "LocalCluster", "http_client"]


class Balancer:
    """A TCP balancer on a free port that hands each new connection to one of ``backends`` at random.

    Tests open a connection per request (urllib, http.client, the SSE reader),
    so each request, stream or long poll lands on either server; :attr:`sent`
    counts the connections given to each.
    """

    def __init__(self, backends: Sequence[str], seed: int | None = None) -> None:
        """Balance over the ``http://host:port`` URLs of ``backends``."""
        self._targets = [(urlsplit(b).hostname or "127.0.0.1", urlsplit(b).port or 80) for b in backends]
        self._random = random.Random(seed)
        self.sent = [0] * len(backends)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._closing = False
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, name="balancer", daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._closing:
            try:
                incoming, _ = self._listener.accept()
            except OSError:
                return
            index = self._random.randrange(len(self._targets))
            self.sent[index] += 1
            try:
                outgoing = socket.create_connection(self._targets[index], timeout=10)
            except OSError:
                incoming.close()
                continue
            outgoing.settimeout(None)
            with self._lock:
                self._open |= {incoming, outgoing}
            for source, sink in ((incoming, outgoing), (outgoing, incoming)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        """Copy bytes one way until either side closes, then close both."""
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()
            with self._lock:
                self._open -= {source, sink}

    def close(self) -> None:
        """Stop accepting and cut every open connection."""
        self._closing = True
        with suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accept (closing alone does not)
        self._listener.close()
        with self._lock:
            connections = list(self._open)
        for connection in connections:
            with suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)


def http_client(base: str) -> Client:
    """A werkzeug test client whose every request goes over HTTP to ``base`` (a real server or a balancer).

    Its answers are :class:`~werkzeug.test.TestResponse`, like Flask's test
    client's, so API tests written for the app in process run against real servers.
    """
    target = urlsplit(base)

    def forward(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else None
        path = environ.get("PATH_INFO", "/")
        if environ.get("QUERY_STRING"):
            path += "?" + environ["QUERY_STRING"]
        headers = {
            key[5:].replace("_", "-").title(): value for key, value in environ.items() if key.startswith("HTTP_")
        }
        if environ.get("CONTENT_TYPE"):
            headers["Content-Type"] = environ["CONTENT_TYPE"]
        headers.pop("Host", None)
        connection = http.client.HTTPConnection(target.hostname or "127.0.0.1", target.port, timeout=30)
        try:
            connection.request(environ["REQUEST_METHOD"], path, body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
            passed = [(k, v) for k, v in response.getheaders() if k.lower() not in ("transfer-encoding", "connection")]
            start_response(f"{response.status} {response.reason}", passed)
        finally:
            connection.close()
        return [data]

    return Client(forward, response_wrapper=TestResponse)
