"""The client's transport: where the server is, one kept-alive connection, retries, errors.

:class:`Endpoint` reads a base URL (``http://`` or ``https://``, an optional
port and an optional path prefix) and opens connections to it;
:class:`Transport` sends requests over one kept-alive connection and retries
what is safe to retry under a :class:`RetryPolicy`; :class:`ApiError` is an
answer the server refused, :class:`ConnectionFailed` a server that could not
be reached in all the attempts.
"""

from __future__ import annotations

import contextlib
import email.utils
import http.client
import json
import random
import socket
import ssl
import time
import urllib.parse
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "RETRYABLE_WRITE_REASONS",
    "ApiError",
    "ConnectionFailed",
    "Endpoint",
    "Response",
    "RetryPolicy",
    "Transport",
    "error_body",
    "new_idempotency_key",
    "retry_after_s",
    "should_retry",
]

RETRYABLE_WRITE_REASONS = frozenset({"store_unavailable", "outcome_unknown"})
"""503 reasons after which a write is sent again with the same ``Idempotency-Key``.

``store_unavailable``: nothing changed; ``outcome_unknown``: the commit was sent but
not confirmed, and the key makes the server answer the kept answer if it was applied.
"""

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""Methods that change something: they always carry an ``Idempotency-Key``."""

CONNECTION_ERRORS: tuple[type[BaseException], ...] = (OSError, http.client.HTTPException)
"""What a failed connection raises: refused, reset, dropped, timed out, cut mid-answer (``ssl.SSLError`` included)."""


class ApiError(Exception):
    """An answer with an unexpected status.

    ``status``; the machine-readable ``reason`` (``"None"`` when the body has
    none); the server's ``message``; the decoded ``body`` (JSON, else the
    start of its text); ``request`` names the call (e.g. ``"POST /v1/matches/…/actions"``)
    when known; ``attempts`` is how many times the call was sent (more than 1
    when it was retried: a retried ``leave`` answering 401 ``invalid_token``,
    or a retried cancel answering 404, then most likely means an earlier
    attempt was applied).
    """

    def __init__(self, status: int, body: Any, request: str | None = None, attempts: int = 1) -> None:
        """Keep the status and the (decoded) error body."""
        details: dict[str, Any] = body if isinstance(body, dict) else {"message": body}
        self.status = status
        self.reason = str(details.get("reason"))
        self.message = str(details.get("message"))
        self.body = body
        self.request = request
        self.attempts = attempts
        text = f"{status} {self.reason}: {self.message}"
        super().__init__(f"{text} ({request})" if request else text)


class ConnectionFailed(ConnectionError):
    """No answer from the server in any of a call's attempts; ``cause`` is the last failure.

    A :class:`ConnectionError` (so an ``OSError``): code that catches those catches it.
    """

    def __init__(self, message: str, cause: BaseException, attempts: int) -> None:
        """Keep the message, the last failure and the number of attempts."""
        super().__init__(message)
        self.cause = cause
        self.attempts = attempts


@dataclass(frozen=True)
class Response:
    """One answer as it came: its status, raw body and headers (names in lower case)."""

    status: int
    data: bytes
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        """The body decoded from JSON (None when it is empty).

        Raises:
            ValueError: when the body is not JSON.
        """
        return json.loads(self.data) if self.data else None

    @property
    def reason(self) -> str | None:
        """The error's ``reason`` when the body is a JSON object that has one."""
        try:
            body = self.json()
        except ValueError:
            return None
        reason = body.get("reason") if isinstance(body, dict) else None
        return str(reason) if reason is not None else None


def error_body(response: Response) -> Any:
    """The body of a refusal: its JSON, else its text (e.g. a proxy's HTML page)."""
    try:
        return response.json()
    except ValueError:
        return response.data[:300].decode("utf-8", errors="replace")


def retry_after_s(value: str | None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), or None without a usable one."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def new_idempotency_key() -> str:
    """A fresh random ``Idempotency-Key`` (32 hex digits) for one logical call."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Endpoint:
    """Where the server is: ``scheme`` (``http``/``https``), ``host``, ``port`` and a path ``prefix``.

    ``https://cards.example/tienlen`` sends ``GET /v1/rules`` to
    ``https://cards.example:443/tienlen/v1/rules``. ``ssl_context`` checks the
    server's certificate (the system's trusted authorities by default, which
    ``SSL_CERT_FILE`` can point elsewhere).
    """

    scheme: str
    host: str
    port: int
    prefix: str = ""
    ssl_context: ssl.SSLContext | None = field(default=None, compare=False, repr=False)

    @classmethod
    def parse(cls, base_url: str, ssl_context: ssl.SSLContext | None = None) -> Endpoint:
        """Read ``http[s]://host[:port][/prefix]`` (``host:port`` alone means ``http://``).

        Raises:
            ValueError: for another scheme, no host, a bad port, or a query or fragment.
        """
        text = base_url.strip()
        if "://" not in text:
            text = "http://" + text
        parsed = urllib.parse.urlsplit(text)
        scheme = parsed.scheme.lower()
        if scheme not in ("http", "https"):
            raise ValueError(f"the server's URL must start with http:// or https://, not {base_url!r}")
        if not parsed.hostname:
            raise ValueError(f"the server's URL names no host: {base_url!r}")
        if parsed.query or parsed.fragment:
            raise ValueError(f"the server's URL may not have a query or a fragment: {base_url!r}")
        port = parsed.port  # ValueError for a port that is not a number in 0-65535
        if port is None:
            port = 443 if scheme == "https" else 80
        if scheme == "https" and ssl_context is None:
            ssl_context = ssl.create_default_context()
        return cls(scheme, parsed.hostname, port, parsed.path.rstrip("/"), ssl_context)

    @property
    def url(self) -> str:
        """The base URL, written out in full."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}{self.prefix}"

    def target(self, path: str) -> str:
        """The request target of an API path (``/v1/...``): the prefix in front of it."""
        return self.prefix + path

    def connect(self, timeout: float) -> http.client.HTTPConnection:
        """A new (not yet opened) connection that sends each request in one write (:class:`OneWriteConnection`)."""
        if self.scheme == "https":
            return OneWriteHTTPSConnection(self.host, self.port, timeout=timeout, context=self.ssl_context)
        return OneWriteConnection(self.host, self.port, timeout=timeout)


class OneWriteConnection(http.client.HTTPConnection):
    """Sends a request's head and body in one write.

    ``http.client`` writes the head and the body of a request separately: two
    TCP segments, so the server may wake up for a head whose body has not come
    yet, and both sides pay a second round of system calls for every POST.
    """

    _held: list[bytes] | None = None

    def request(
        self,
        method: str,
        url: str,
        body: Any = None,
        headers: Mapping[str, Any] = {},  # http.client's own signature
        *,
        encode_chunked: bool = False,
    ) -> None:
        """Send the request like ``http.client`` does, its pieces gathered into one write."""
        held: list[bytes] = []
        self._held = held
        try:
            super().request(method, url, body, headers, encode_chunked=encode_chunked)
        finally:
            self._held = None
        if held:
            super().send(b"".join(held))

    def send(self, data: Any) -> None:
        """Hold ``data`` while a request is being put together, else send it (after what was held)."""
        held = self._held
        if held is not None and isinstance(data, bytes | bytearray):
            held.append(bytes(data))
            return
        if held:  # a body read from a file: what was held goes first
            super().send(b"".join(held))
            held.clear()
        super().send(data)


class OneWriteHTTPSConnection(OneWriteConnection, http.client.HTTPSConnection):
    """:class:`OneWriteConnection` over TLS."""


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a call is sent again.

    ``attempts`` is the most a call is sent (1: never again). Between
    attempts the pause grows: ``backoff_s`` × 2 per attempt up to
    ``max_backoff_s``, each drawn at random between half and all of it
    (jitter, so clients that failed together do not come back together). A 429
    or 503 with ``Retry-After`` waits that long instead (plus up to 10 %),
    unless it is longer than ``max_retry_after_s``: then the refusal is raised.
    """

    attempts: int = 5
    backoff_s: float = 0.25
    max_backoff_s: float = 8.0
    max_retry_after_s: float = 60.0

    def __post_init__(self) -> None:
        """Check the values."""
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, got {self.attempts}")
        if self.backoff_s < 0 or self.max_backoff_s < 0 or self.max_retry_after_s < 0:
            raise ValueError("pauses cannot be negative")

    def pause_s(self, failures: int, retry_after: float | None = None) -> float:
        """The pause before the next attempt after ``failures`` failed ones (``Retry-After`` first)."""
        if retry_after is not None:
            return retry_after * random.uniform(1.0, 1.1)
        grown: float = self.backoff_s * 2.0 ** (failures - 1)
        return min(self.max_backoff_s, grown) * random.uniform(0.5, 1.0)


NO_RETRY = RetryPolicy(attempts=1)
"""A policy that sends each call once."""


def should_retry(method: str, response: Response) -> bool:
    """Whether an answer says "send it again": 429 ``rate_limited``; 503 ``store_unavailable`` or
    ``outcome_unknown`` for a write; any 503 for a read."""
    if response.status == 429:
        return response.reason == "rate_limited"
    if response.status == 503:
        return method not in WRITE_METHODS or response.reason in RETRYABLE_WRITE_REASONS
    return False


class Transport:
    """One kept-alive HTTP/1.1 connection to an :class:`Endpoint`, and the retries of each call.

    Not thread-safe: give each thread its own.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        timeout: float = 40.0,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Send to ``endpoint``; ``timeout`` seconds for any one read; ``retry`` (default :class:`RetryPolicy`);
        ``sleep`` pauses between attempts."""
        self.endpoint = endpoint
        self.timeout = timeout
        self.retry = retry if retry is not None else RetryPolicy()
        self.sleep = sleep
        self._connection: http.client.HTTPConnection | None = None
        self._interrupted = False  # by interrupt(), during the current call

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def interrupt(self) -> None:
        """Shut the current connection's socket down; safe from another thread, which is the point.

        A call blocked on it (a long poll, say) fails at once with
        :class:`ConnectionFailed`, without a retry. Nothing happens when no
        connection is open; the next call opens a new one.
        """
        self._interrupted = True
        connection = self._connection
        sock = connection.sock if connection is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def send_once(self, method: str, path: str, payload: bytes | None, headers: dict[str, str]) -> Response:
        """Send one request to the API path ``path`` and answer what came back, whatever the status.

        A request on a kept-alive connection that the server has meanwhile
        closed (the failure of a reused connection, not a timeout) is sent once
        more on a new connection at once; any other failure closes the
        connection (the next call opens a new one) and is raised.

        Raises:
            OSError, http.client.HTTPException: when the connection fails.
        """
        while True:
            reused = self._connection is not None
            if self._connection is None:
                self._connection = self.endpoint.connect(self.timeout)
            connection = self._connection
            try:
                connection.request(method, self.endpoint.target(path), body=payload, headers=headers)
                response = connection.getresponse()
                data = response.read()
            except CONNECTION_ERRORS as error:
                self.close()
                stale = isinstance(error, (ConnectionError, http.client.HTTPException))
                if reused and stale and not isinstance(error, TimeoutError) and not self._interrupted:
                    continue  # the server closed the idle connection: once more on a new one
                raise
            if response.will_close:
                self.close()
            return Response(response.status, data, {name.lower(): value for name, value in response.getheaders()})

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        retry: RetryPolicy | None = None,
    ) -> tuple[Response, int]:
        """Send one logical call, retrying under ``retry`` (default: the transport's); the last answer and the
        number of attempts.

        A write (POST, PUT, PATCH, DELETE) carries an ``Idempotency-Key``: the
        one in ``headers``, else a fresh random one, the same on every attempt
        of this call. What is sent again: a call whose connection failed
        (refused, reset, dropped, timed out; not a certificate the client does
        not trust); 429 ``rate_limited`` after its ``Retry-After``; 503
        ``store_unavailable`` or ``outcome_unknown`` (a write), any 503 (a
        read). Every other answer, 4xx included, is answered at once.

        Raises:
            ConnectionFailed: when no attempt got an answer.
        """
        policy = retry if retry is not None else self.retry
        sent = {"Accept": "application/json", **(headers or {})}
        if method in WRITE_METHODS and not any(name.lower() == "idempotency-key" for name in sent):
            sent["Idempotency-Key"] = new_idempotency_key()
        payload = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode()
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        attempt = 0
        self._interrupted = False
        while True:
            attempt += 1
            try:
                response = self.send_once(method, path, payload, sent)
            except CONNECTION_ERRORS as error:
                final = isinstance(error, ssl.SSLCertVerificationError) or self._interrupted
                if attempt >= policy.attempts or final:
                    tries = f"{attempt} attempt" + ("s" if attempt > 1 else "")
                    message = f"no answer from {self.endpoint.url} ({method} {path}) after {tries}: {error}"
                    raise ConnectionFailed(message, error, attempt) from error
                self.sleep(policy.pause_s(attempt))
                continue
            if attempt >= policy.attempts or not should_retry(method, response):
                return response, attempt
            wait = retry_after_s(response.headers.get("retry-after"))
            if wait is not None and wait > policy.max_retry_after_s:
                return response, attempt  # longer than we are willing to wait: the caller sees the refusal
            self.sleep(policy.pause_s(attempt, wait))
