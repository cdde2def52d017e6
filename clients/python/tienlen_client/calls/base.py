"""A client's one kept-alive HTTP connection and how a call goes over it: sent once (:meth:`~BaseClient.send`),
or retried as the transport's policy says with its status checked (:meth:`~BaseClient.request`)."""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

from ..transport import NO_RETRY, ApiError, Endpoint, Response, RetryPolicy, Transport, error_body

__all__ = ["BaseClient"]


class BaseClient:
    """The connection the calls of :class:`~tienlen_client.Client` share (see it for the arguments)."""

    def __init__(
        self,
        base_url: str,
        timeout: float = 40.0,
        *,
        retry: RetryPolicy | None = None,
        ssl_context: ssl.SSLContext | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Remember the server's address; the connection opens on the first call.

        Raises:
            ValueError: when ``base_url`` is not an ``http``/``https`` URL.
        """
        self.endpoint = Endpoint.parse(base_url, ssl_context)
        self.transport = Transport(self.endpoint, timeout, retry, sleep)

    @property
    def base_url(self) -> str:
        """The server's base URL, written out in full (scheme, host, port, prefix)."""
        return self.endpoint.url

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """Send one request once and answer its status, raw body and headers, whatever the status.

        ``path`` is the API path (``/v1/...``; the base URL's prefix is put in
        front); ``body`` is sent as JSON; ``token`` as ``Authorization: Bearer``.
        A write gets an ``Idempotency-Key`` unless ``headers`` has one. Nothing
        is retried (but a kept-alive connection the server closed meanwhile).

        Raises:
            ConnectionFailed: when the connection fails.
        """
        response, _ = self.transport.send(method, path, body, token=token, headers=headers, retry=NO_RETRY)
        return response

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        expect: int | None = None,
        once: bool = False,
    ) -> Any:
        """Send one call (retried as the transport's policy says, or ``once``: never) and answer its JSON body.

        Raises:
            ApiError: when the status is not ``expect`` (or, without ``expect``, is 400 or more).
            ValueError: when an expected answer is not JSON.
            ConnectionFailed: when no attempt got an answer.
        """
        retry = NO_RETRY if once else None
        response, attempts = self.transport.send(method, path, body, token=token, headers=headers, retry=retry)
        refused = response.status >= 400 if expect is None else response.status != expect
        if refused:
            raise ApiError(response.status, error_body(response), f"{method} {path}", attempts)
        return response.json()

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        self.transport.close()

    def interrupt(self) -> None:
        """Cut the connection a call of another thread is blocked on (e.g. a long poll): that call raises
        :class:`ConnectionFailed` at once, without a retry (safe from any thread)."""
        self.transport.interrupt()

    def __enter__(self) -> Self:
        """The client itself; the connection is closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the connection."""
        self.close()
