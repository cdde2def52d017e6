"""A small, dependency-free Python client for the Tiến Lên server's API v1.

    from tienlen_client import Client

    client = Client("http://127.0.0.1:8000")
    created = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], seed=7)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    print(seat.view()["cards"], seat.legal())

A :class:`Client` keeps one HTTP/1.1 connection alive and reuses it for every
call; after a failure it closes it and the next call opens a new one. It is
not thread-safe: give each thread its own. Every call but :meth:`Client.send`
checks the answer's status and raises :class:`ApiError` with the server's
``reason`` when it is not the expected one; :meth:`Client.send` answers any
status with its raw body. Errors of the connection itself (refused, reset,
timed out) are raised as they come (``OSError``, ``http.client.HTTPException``).

To learn what happens in a match as it happens, :meth:`Client.follow` reads
its Server-Sent Events stream (``GET /v1/matches/{id}/stream``) on a
connection of its own and yields each event; it reconnects by itself, without
a gap or a repeat, until the match ends::

    for event in client.follow(match_id):
        print(event["seq"], event["type"])

:meth:`Client.events` with ``wait`` (a long poll) does the same one page at a time.

Only the standard library is used, so this file can be copied next to a bot
script and run anywhere (``lowest_bot.py`` is such a script).
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import random
import socket
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any

__all__ = ["ApiError", "Client", "EventStream", "Response", "Seat"]

FINAL_EVENT = "match_ended"
"""The event after which a match's stream ends."""

RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})
"""Statuses after which a stream is asked for again (after ``Retry-After`` when the answer gives one)."""


class ApiError(Exception):
    """An answer with an unexpected status: ``status``, the machine-readable ``reason``, the ``body``.

    ``request`` names the call (e.g. ``"POST /v1/matches/…/actions"``) when known.
    """

    def __init__(self, status: int, body: Any, request: str | None = None) -> None:
        """Keep the status and the (decoded) error body; ``reason`` is ``"None"`` when the body has none."""
        details: dict[str, Any] = body if isinstance(body, dict) else {"message": body}
        message = f"{status} {details.get('reason')}: {details.get('message')}"
        super().__init__(f"{message} ({request})" if request else message)
        self.status = status
        self.reason = str(details.get("reason"))
        self.body = body
        self.request = request


@dataclass(frozen=True)
class Response:
    """One answer as it came: its status and raw body."""

    status: int
    data: bytes

    def json(self) -> Any:
        """The body decoded from JSON (None when it is empty).

        Raises:
            ValueError: when the body is not JSON.
        """
        return json.loads(self.data) if self.data else None


def _error_body(response: Response) -> Any:
    """The body of a refusal: its JSON, else its text (e.g. a proxy's HTML page)."""
    try:
        return response.json()
    except ValueError:
        return response.data[:300].decode("utf-8", errors="replace")


class Client:
    """Calls that need no seat token, over one kept-alive HTTP connection."""

    def __init__(self, base_url: str, timeout: float = 40.0) -> None:
        """Remember the server's address (``http://host:port``); the connection opens on the first call."""
        parsed = urllib.parse.urlsplit(base_url)
        self._host = parsed.hostname or "127.0.0.1"
        self._port = parsed.port or 80
        self._timeout = timeout
        self._connection: http.client.HTTPConnection | None = None

    # ------------------------------------------------------------------ transport

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """Send one request and answer its status and raw body, whatever the status.

        ``body`` is sent as JSON; ``token`` as ``Authorization: Bearer``. A
        request on a kept-alive connection that the server has meanwhile
        closed is sent once more on a new connection; any other failure
        closes the connection (the next call opens a new one) and is raised.

        Raises:
            OSError, http.client.HTTPException: when the connection fails.
        """
        sent = {"Accept": "application/json", **(headers or {})}
        payload = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode()
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        while True:
            reused = self._connection is not None
            if self._connection is None:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            connection = self._connection
            try:
                connection.request(method, path, body=payload, headers=sent)
                response = connection.getresponse()
                data = response.read()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                if reused and isinstance(error, (ConnectionError, http.client.HTTPException)):
                    continue  # the server closed the idle connection: once more on a new one
                raise
            if response.will_close:
                self.close()
            return Response(response.status, data)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        expect: int | None = None,
    ) -> Any:
        """Send one request and answer its JSON body.

        Raises:
            ApiError: when the status is not ``expect`` (or, without ``expect``, is 400 or more).
            ValueError: when an expected answer is not JSON.
            OSError, http.client.HTTPException: when the connection fails.
        """
        response = self.send(method, path, body, token=token, headers=headers)
        refused = response.status >= 400 if expect is None else response.status != expect
        if refused:
            raise ApiError(response.status, _error_body(response), f"{method} {path}")
        return response.json()

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Client:
        """The client itself; the connection is closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the connection."""
        self.close()

    # ------------------------------------------------------------------ calls

    def create_match(
        self,
        seats: list[dict[str, Any]],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: list[list[str]] | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/matches`` → 201 ``{match_id, tokens, match}``."""
        body: dict[str, Any] = {"seats": seats}
        if rules is not None:
            body["rules"] = rules
        if seed is not None:
            body["seed"] = seed
        if deal is not None:
            body["deal"] = deal
        return dict(self.request("POST", "/v1/matches", body, expect=201))

    def join(self, match_id: str, name: str) -> dict[str, Any]:
        """``POST /v1/matches/{id}/join`` → 201 ``{seat, token}``."""
        return dict(self.request("POST", f"/v1/matches/{match_id}/join", {"name": name}, expect=201))

    def match(self, match_id: str) -> dict[str, Any]:
        """The public state."""
        return dict(self.request("GET", f"/v1/matches/{match_id}", expect=200))

    def events(self, match_id: str, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """Events after ``after``, waiting up to ``wait`` seconds for one (a long poll, at most 30)."""
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return dict(self.request("GET", f"/v1/matches/{match_id}/events?{query}", expect=200))

    def follow(
        self,
        match_id: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
    ) -> EventStream:
        """Every event after ``after`` as it happens, until ``match_ended``: see :class:`EventStream`.

        The stream has a connection of its own (this client's stays free for
        calls); ``read_timeout`` is how long it may stay silent (the server
        sends a heartbeat every 15 s by default) before it counts as dropped.
        """
        return EventStream(
            self._host, self._port, match_id, after, read_timeout=read_timeout, give_up_after=give_up_after
        )

    def rules(self) -> dict[str, Any]:
        """The presets."""
        return dict(self.request("GET", "/v1/rules", expect=200))

    def health(self) -> dict[str, Any]:
        """``GET /healthz`` → ``{"status": "ok"}`` (an :class:`ApiError` 503 when Redis does not answer)."""
        return dict(self.request("GET", "/healthz", expect=200))

    def seat(self, match_id: str, token: str) -> Seat:
        """Calls made with one seat's token."""
        return Seat(self, match_id, token)


class Seat:
    """One seat of one match, authenticated by its token."""

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        """A seat of ``match_id`` whose calls go through ``client`` with ``token``."""
        self.client = client
        self.match_id = match_id
        self.token = token

    def view(self) -> dict[str, Any]:
        """The seat's view (public state plus its own cards)."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/view", token=self.token, expect=200))

    def legal(self) -> dict[str, Any]:
        """``{can_pass, plays}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/legal", token=self.token, expect=200))

    def hint(self) -> dict[str, Any]:
        """``{action, explanation}``."""
        return dict(self.client.request("GET", f"/v1/matches/{self.match_id}/hint", token=self.token, expect=200))

    def play(self, cards: list[str], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Play cards; answers the view after every bot reply."""
        return self._act({"type": "play", "cards": cards}, version, key)

    def pass_turn(self, version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Pass."""
        return self._act({"type": "pass"}, version, key)

    def _act(self, body: dict[str, Any], version: int | None, key: str | None) -> dict[str, Any]:
        """``POST …/actions`` with an optional ``version`` and ``Idempotency-Key``."""
        if version is not None:
            body["version"] = version
        headers = {"Idempotency-Key": key} if key else None
        path = f"/v1/matches/{self.match_id}/actions"
        return dict(self.client.request("POST", path, body, token=self.token, headers=headers, expect=200))


class _Dropped(Exception):
    """The stream's connection failed or was refused; the stream connects again (after ``delay`` seconds)."""

    def __init__(self, cause: BaseException, delay: float | None = None) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.delay = delay


class EventStream(Iterator[dict[str, Any]]):
    """A match's events as they happen, from ``GET /v1/matches/{id}/stream`` (Server-Sent Events).

    Iterating yields each event's JSON (the same objects as
    ``GET …/events``, with ``seq`` and ``type``), oldest first, and stops
    after ``match_ended``, or at once when the match is finished and nothing
    is left after ``after``. Comments (the heartbeats) are skipped.

    The stream reads its own HTTP connection (chunked, decoded by
    ``http.client``). When that connection drops, times out (no byte for
    ``read_timeout`` seconds) or the server ends the stream early (it does on
    shutdown), it connects again with ``Last-Event-ID`` set to the last event
    it yielded, so no event is skipped or repeated. An answer 429, 502, 503
    (e.g. ``too_many_waiters``) or 504 is asked again after its
    ``Retry-After``; a refused or failed connection after a growing pause
    (from the stream's ``retry:`` field, else 0.5 s, up to 8 s, with jitter).
    After ``give_up_after`` seconds without a working connection (None:
    never) the last failure is raised. Another status (404 ``match_not_found``,
    422) raises :class:`ApiError` at once.

    ``last_event_id`` is the ``seq`` of the last event yielded,
    ``connections`` how many times a stream was opened. :meth:`disconnect`
    drops the current connection (from any thread); :meth:`close` stops.
    """

    MAX_PAUSE_S = 8.0
    MAX_RETRY_AFTER_S = 300.0

    def __init__(
        self,
        host: str,
        port: int,
        match_id: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Follow ``match_id`` after event ``after`` on ``host:port`` (connects when the first event is asked for)."""
        self.match_id = match_id
        self.last_event_id = after
        self.connections = 0
        self.ended = False
        self._host = host
        self._port = port
        self._read_timeout = read_timeout
        self._give_up_after = give_up_after
        self._sleep = sleep
        self._pause_s = 0.5
        self._lock = threading.Lock()
        self._connection: http.client.HTTPConnection | None = None
        self._response: http.client.HTTPResponse | None = None
        self._events_here = 0  # events read on the current connection
        self._failures = 0  # attempts in a row that gave no event
        self._down_since: float | None = None

    # ------------------------------------------------------------------ iteration

    def __iter__(self) -> EventStream:
        """The stream itself."""
        return self

    def __next__(self) -> dict[str, Any]:
        """The next event; reconnects as often as needed (see the class)."""
        while not self.ended:
            try:
                if self._response is None:
                    self._open()
                event = self._read_event()
            except _Dropped as dropped:
                self._reconnect_after(dropped)
                continue
            if event is None:  # a clean end of the answer, but no match_ended
                self._disconnected()
                if self._nothing_left():
                    self.close()
                    break
                if self._events_here == 0:
                    self._reconnect_after(_Dropped(ConnectionError("the stream ended without an event")))
                continue
            self._events_here += 1
            self._failures = 0
            self._down_since = None
            self.last_event_id = int(event["seq"])
            if event.get("type") == FINAL_EVENT:
                self.close()
            return event
        raise StopIteration

    def disconnect(self) -> None:
        """Drop the current connection; the next event comes over a new one (safe from another thread)."""
        with self._lock:
            connection = self._connection
            sock = connection.sock if connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes a reader blocked on it; it then sees the drop

    def close(self) -> None:
        """Stop following and close the connection."""
        self.ended = True
        self._disconnected()

    def __enter__(self) -> EventStream:
        """The stream itself; closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the stream."""
        self.close()

    # ------------------------------------------------------------------ connections

    def _open(self) -> None:
        """Ask for the stream after :attr:`last_event_id` (``?after=`` first, ``Last-Event-ID`` again after a drop)."""
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        path = f"/v1/matches/{self.match_id}/stream"
        if self.connections == 0 and self._failures == 0:
            path += f"?after={self.last_event_id}"
        else:
            headers["Last-Event-ID"] = str(self.last_event_id)
        connection = http.client.HTTPConnection(self._host, self._port, timeout=self._read_timeout)
        with self._lock:
            self._connection = connection
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            self._disconnected()
            raise _Dropped(error) from error
        if response.status != 200:
            refusal = Response(response.status, _read_quietly(response))
            retry_after = response.getheader("Retry-After")
            self._disconnected()
            refused = ApiError(refusal.status, _error_body(refusal), f"GET {path}")
            if refusal.status in RETRYABLE_STATUSES:
                raise _Dropped(refused, _retry_after_s(retry_after, self.MAX_RETRY_AFTER_S))
            self.ended = True
            raise refused
        self._response = response
        self._events_here = 0
        self._down_since = None
        self.connections += 1

    def _disconnected(self) -> None:
        """Forget the current connection."""
        with self._lock:
            connection, self._connection = self._connection, None
        self._response = None
        if connection is not None:
            connection.close()

    def _reconnect_after(self, dropped: _Dropped) -> None:
        """Close the connection, then pause before the next attempt (none after a drop that followed events)."""
        self._disconnected()
        if self.ended:
            return
        if self._events_here > 0 and dropped.delay is None:
            self._events_here = 0
            return  # it worked until now: once more at once
        self._events_here = 0
        now = time.monotonic()
        if self._down_since is None:
            self._down_since = now
        elif self._give_up_after is not None and now - self._down_since > self._give_up_after:
            self.ended = True
            raise dropped.cause
        self._failures += 1
        if dropped.delay is not None:
            pause = dropped.delay
        else:
            pause = min(self.MAX_PAUSE_S, self._pause_s * 2 ** (self._failures - 1)) * random.uniform(0.5, 1.0)
        self._sleep(pause)

    def _nothing_left(self) -> bool:
        """After a clean end without ``match_ended``: True when the match is finished and nothing follows."""
        connection = http.client.HTTPConnection(self._host, self._port, timeout=self._read_timeout)
        try:
            connection.request("GET", f"/v1/matches/{self.match_id}", headers={"Accept": "application/json"})
            response = connection.getresponse()
            answer = Response(response.status, response.read())
        except (OSError, http.client.HTTPException):
            return False  # the server is going away: connect again and see
        finally:
            connection.close()
        if answer.status != 200:
            if answer.status in RETRYABLE_STATUSES:
                return False
            self.ended = True
            raise ApiError(answer.status, _error_body(answer), f"GET /v1/matches/{self.match_id}")
        match = answer.json()
        return bool(match["status"] == "finished" and int(match["last_seq"]) <= self.last_event_id)

    # ------------------------------------------------------------------ Server-Sent Events

    def _read_event(self) -> dict[str, Any] | None:
        """The next event's JSON, skipping comments; None at a clean end of the answer.

        Raises:
            _Dropped: when the connection fails, times out or is cut in the middle of the answer.
            ValueError: when an event's data is not JSON.
        """
        response = self._response
        assert response is not None
        data: list[str] = []
        while True:
            try:
                raw = response.readline()
            except (OSError, http.client.HTTPException, ValueError, AttributeError) as error:
                # IncompleteRead: cut in the middle; ValueError/AttributeError: closed under us
                raise _Dropped(error) from error
            if not raw:
                return None
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if not line:
                if data:
                    event: dict[str, Any] = json.loads("\n".join(data))
                    return event
                continue
            if line.startswith(":"):
                continue  # a comment: ": following", ": heartbeat"
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            elif name == "retry" and value.isdigit():
                self._pause_s = max(0.05, int(value) / 1000)
            # "id" and "event" repeat the JSON's seq and type; anything else is ignored


def _read_quietly(response: http.client.HTTPResponse) -> bytes:
    """The body of a refusal, or what could be read of it."""
    try:
        return response.read()
    except (OSError, http.client.HTTPException):
        return b""


def _retry_after_s(value: str | None, most: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), or None without a usable one."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(most, float(value))
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return min(most, max(0.0, when.timestamp() - time.time()))
