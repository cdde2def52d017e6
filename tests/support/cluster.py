"""A real Redis Cluster of three masters for the tests, and a client that sends each request to any of two servers.

:class:`LocalCluster` starts three ``redis-server --cluster-enabled yes`` on
free ports in a temp dir (each a :class:`~tienlen.local_redis.LocalRedis`),
gives each a third of the 16,384 slots, introduces them to one another and
waits until every node says ``cluster_state:ok``. A :class:`Balancer` hands
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
import time
from collections.abc import Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

import redis
from werkzeug.test import Client, TestResponse

from tienlen.local_redis import LocalRedis, free_port

__all__ = ["SLOTS", "Balancer", "LocalCluster", "http_client"]

SLOTS = 16384
_READY_TIMEOUT_S = 20.0


class LocalCluster:
    """Three Redis masters with every slot assigned; :attr:`url` names the first (any node would do)."""

    def __init__(self, data_dir: Path, masters: int = 3) -> None:
        """Configure ``masters`` nodes under ``data_dir``; nothing starts until :meth:`start`."""
        # the bus port named, or Redis takes the data port + 10,000, which a free port may not allow
        self.bus_ports = [free_port() for _ in range(masters)]
        self.nodes = [
            LocalRedis(
                data_dir / f"node{i}",
                appendonly=False,
                extra_args=("--cluster-enabled", "yes", "--cluster-port", str(bus)),
            )
            for i, bus in enumerate(self.bus_ports)
        ]

    @property
    def url(self) -> str:
        """``redis://host:port/0`` of the first node."""
        return self.nodes[0].url

    def start(self) -> Self:
        """Start the nodes, assign the slots in equal ranges, meet, and wait until the cluster is ok."""
        try:
            for node in self.nodes:
                node.start()
            clients: list[Any] = [redis.Redis(host=n.host_for_clients, port=n.port) for n in self.nodes]  # untyped
            share = SLOTS // len(clients)
            for i, client in enumerate(clients):
                last = SLOTS - 1 if i == len(clients) - 1 else (i + 1) * share - 1
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", i * share, last)
            for node, bus in zip(self.nodes[1:], self.bus_ports[1:], strict=True):
                clients[0].execute_command("CLUSTER", "MEET", node.host_for_clients, node.port, bus)
            self._wait_ok(clients)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ok(self, clients: Sequence[Any]) -> None:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        while True:
            states = [_info(c) for c in clients]
            if all(
                s.get("cluster_state") == "ok" and s.get("cluster_known_nodes") == str(len(clients)) for s in states
            ):
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"the cluster did not become ok within {_READY_TIMEOUT_S} s: {states}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop every node (safe to call more than once)."""
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


def _info(client: Any) -> dict[str, str]:
    raw = client.execute_command("CLUSTER", "INFO")
    text = raw.decode() if isinstance(raw, bytes) else str(raw)
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


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
