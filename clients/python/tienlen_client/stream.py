"""Following a Server-Sent Events stream of the API, read and reconnected with ``Last-Event-ID``.

:class:`ServerSentEvents` reads and reconnects any of them; :class:`EventStream`
follows a match (``GET /v1/matches/{id}/stream``) until it ends;
:class:`InboxStream` follows an account's inbox (``GET /v1/me/events/stream``),
which never ends by itself.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Self

from .transport import ApiError, Endpoint, Response, error_body, retry_after_s

__all__ = ["FINAL_EVENTS", "RETRYABLE_STATUSES", "EventStream", "InboxStream", "ServerSentEvents"]

FINAL_EVENTS = frozenset({"match_ended", "match_abandoned", "match_cancelled"})
"""The events after which a match has nothing more to tell: its stream ends."""

RETRYABLE_STATUSES = frozenset({429, 502, 503, 504})
"""Statuses after which a stream is asked for again (after ``Retry-After`` when the answer gives one)."""


class _Dropped(Exception):
    """The stream's connection failed or was refused; the stream connects again (after ``delay`` seconds)."""

    def __init__(self, cause: BaseException, delay: float | None = None) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.delay = delay


class ServerSentEvents(Iterator[dict[str, Any]]):
    """The events of one Server-Sent Events stream of the API (``path``), read on a connection of their own.

    Iterating yields each event's JSON (with its ``seq``), oldest first;
    comments (the heartbeats) are skipped. The first request asks for the
    events after ``after`` (``?after=``); ``token`` is sent as
    ``Authorization: Bearer``. When the connection drops, times out (no byte
    for ``read_timeout`` seconds) or the server ends the stream early (it does
    on shutdown), it connects again with ``Last-Event-ID`` set to the last
    event it yielded, so no event is skipped or repeated. An answer 429, 502,
    503 (e.g. ``too_many_waiters``) or 504 is asked again after its
    ``Retry-After``; a refused or failed connection after a growing pause
    (from the stream's ``retry:`` field, else 0.5 s, doubling up to 8 s, each
    drawn between half and all of it). After ``give_up_after`` seconds without
    a working connection (None: never) the last failure is raised. Another
    status (401, 404, 422) raises :class:`ApiError` at once; a certificate the
    client does not trust raises ``ssl.SSLCertVerificationError`` at once. An
    answer 204 (nothing is left to send) ends the iteration.

    ``last_event_id`` is the ``seq`` of the last event yielded, ``last_type``
    its type, ``connections`` how many times a stream was opened.
    :meth:`disconnect` drops the current connection (from any thread);
    :meth:`close` stops (from any thread too: a reader blocked on the
    connection then ends its iteration).

    Subclasses say which event is the last (:meth:`is_final`) and whether a
    stream that ended cleanly without one has more to come (:meth:`nothing_left`).
    """

    MAX_PAUSE_S = 8.0
    MAX_RETRY_AFTER_S = 300.0

    def __init__(
        self,
        endpoint: Endpoint | str,
        path: str,
        after: int = 0,
        *,
        token: str | None = None,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Follow the stream at the API path ``path`` after event ``after`` on ``endpoint`` (an
        :class:`Endpoint` or a base URL).

        Nothing is sent until the first event is asked for.
        """
        self.endpoint = endpoint if isinstance(endpoint, Endpoint) else Endpoint.parse(endpoint)
        self.path = path
        self.token = token
        self.last_event_id = after
        self.last_type: str | None = None
        self.connections = 0
        self.ended = False
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

    def is_final(self, event: dict[str, Any]) -> bool:
        """Whether nothing follows ``event`` (the stream then stops after yielding it); never, here."""
        return False

    def nothing_left(self) -> bool:
        """After a clean end without a final event: True when nothing more will come; never, here."""
        return False

    # ------------------------------------------------------------------ iteration

    def __iter__(self) -> Self:
        """The stream itself."""
        return self

    def __next__(self) -> dict[str, Any]:
        """The next event; reconnects as often as needed (see the class)."""
        while not self.ended:
            try:
                if self._response is None:
                    self._open()
                    if self.ended:  # 204: nothing after last_event_id, nor to come
                        break
                event = self._read_event()
            except _Dropped as dropped:
                self._reconnect_after(dropped)
                continue
            if event is None:  # a clean end of the answer, but no final event
                self._disconnected()
                if self.nothing_left():
                    self.close()
                    break
                if self._events_here == 0:
                    self._reconnect_after(_Dropped(ConnectionError("the stream ended without an event")))
                continue
            self._events_here += 1
            self._failures = 0
            self._down_since = None
            self.last_event_id = int(event["seq"])
            self.last_type = str(event.get("type"))
            if self.is_final(event):
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
        """Stop following and close the connection (safe from another thread: a reader blocked on it stops)."""
        with self._lock:
            self.ended = True
        self.disconnect()
        self._disconnected()

    def __enter__(self) -> Self:
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
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        path = self.path
        if self.connections == 0 and self._failures == 0:
            path += f"?after={self.last_event_id}"
        else:
            headers["Last-Event-ID"] = str(self.last_event_id)
        connection = self.endpoint.connect(self._read_timeout)
        with self._lock:
            if self.ended:  # closed from another thread meanwhile
                raise _Dropped(ConnectionError("the stream was closed"))
            self._connection = connection
        try:
            connection.request("GET", self.endpoint.target(path), headers=headers)
            response = connection.getresponse()
        except ssl.SSLCertVerificationError:
            self.ended = True
            self._disconnected()
            raise
        except (OSError, http.client.HTTPException) as error:
            self._disconnected()
            raise _Dropped(error) from error
        if response.status == 204:  # nothing after last_event_id, nor to come (a finished match)
            _read_quietly(response)
            self.connections += 1
            self.close()
            return
        if response.status != 200:
            refusal = Response(response.status, _read_quietly(response))
            retry_after = retry_after_s(response.getheader("Retry-After"))
            self._disconnected()
            refused = ApiError(refusal.status, error_body(refusal), f"GET {path}")
            if refusal.status in RETRYABLE_STATUSES:
                delay = None if retry_after is None else min(self.MAX_RETRY_AFTER_S, retry_after)
                raise _Dropped(refused, delay)
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

    # ------------------------------------------------------------------ Server-Sent Events

    def _read_event(self) -> dict[str, Any] | None:
        """The next event's JSON, skipping comments; None at a clean end of the answer.

        Raises:
            _Dropped: when the connection fails, times out or is cut in the middle of the answer.
            ValueError: when an event's data is not JSON.
        """
        response = self._response
        if response is None:  # closed from another thread meanwhile
            raise _Dropped(ConnectionError("the stream was closed"))
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


class EventStream(ServerSentEvents):
    """A match's events as they happen, from ``GET /v1/matches/{id}/stream`` (Server-Sent Events).

    Iterating yields each event's JSON (the same objects as ``GET …/events``,
    with ``seq`` and ``type``), oldest first, and stops after a final event
    (``match_ended``, ``match_abandoned``, ``match_cancelled``:
    :data:`FINAL_EVENTS`), or at once when the match is finished and nothing
    is left after ``after`` (the server answers 204). To read what may follow
    the end (a ``rematch``, a ``seat_left``), follow again after the final
    event. Reconnections, pauses and refusals: see :class:`ServerSentEvents`
    (404 ``match_not_found`` raises :class:`ApiError` at once).
    """

    def __init__(
        self,
        endpoint: Endpoint | str,
        match_id: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Follow ``match_id`` after event ``after`` on ``endpoint`` (an :class:`Endpoint` or a base URL).

        Nothing is sent until the first event is asked for.
        """
        path = f"/v1/matches/{match_id}/stream"
        super().__init__(endpoint, path, after, read_timeout=read_timeout, give_up_after=give_up_after, sleep=sleep)
        self.match_id = match_id

    def is_final(self, event: dict[str, Any]) -> bool:
        """Whether the event ends the match (:data:`FINAL_EVENTS`)."""
        return event.get("type") in FINAL_EVENTS

    def nothing_left(self) -> bool:
        """After a clean end without a final event: True when the match is finished and nothing follows."""
        connection = self.endpoint.connect(self._read_timeout)
        path = f"/v1/matches/{self.match_id}"
        try:
            connection.request("GET", self.endpoint.target(path), headers={"Accept": "application/json"})
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
            raise ApiError(answer.status, error_body(answer), f"GET {path}")
        match = answer.json()
        return bool(match["status"] == "finished" and int(match["last_seq"]) <= self.last_event_id)


class InboxStream(ServerSentEvents):
    """An account's inbox as it comes, from ``GET /v1/me/events/stream`` (Server-Sent Events, scope ``play``).

    Iterating yields each inbox event (``seq``, ``type``, ``at`` and the
    type's fields: the same objects as ``GET /v1/me/events``), oldest first,
    for as long as it is followed: the stream never ends by itself, and a
    reconnection resumes after :attr:`last_event_id`, so none is missed or
    repeated. While it is open the account is *online*. By default it never
    gives up (``give_up_after``); a token the server refuses raises
    :class:`ApiError` (401 ``invalid_token``, 403 ``scope_missing``) at once.
    """

    PATH = "/v1/me/events/stream"

    def __init__(
        self,
        endpoint: Endpoint | str,
        token: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Follow the inbox of ``token``'s account after event ``after`` on ``endpoint``.

        Nothing is sent until the first event is asked for.
        """
        super().__init__(
            endpoint,
            self.PATH,
            after,
            token=token,
            read_timeout=read_timeout,
            give_up_after=give_up_after,
            sleep=sleep,
        )


def _read_quietly(response: http.client.HTTPResponse) -> bytes:
    """The body of a refusal, or what could be read of it."""
    try:
        return response.read()
    except (OSError, http.client.HTTPException):
        return b""
