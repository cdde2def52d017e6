"""Rate limits: how often one client may create, join, act, ask for hints and wait, kept in the match Redis.

flask-limiter counts requests in fixed windows in the same Redis as the
matches (a Redis Cluster through its ``redis+cluster`` storage). Creating,
joining and waiting (long polls and streams) are counted per client address;
actions and hints per seat token (its digest; an address when no token is
sent). The limits are :data:`~tienlen.settings.DEFAULT_RATE_LIMITS`,
overridden by ``TIENLEN_RATE_LIMITS`` (``off`` turns them off: benchmarks and
load tests do).

A request over a limit answers 429 ``rate_limited`` in the error shape with
``Retry-After``; every limited answer carries ``RateLimit-Limit``,
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the window
resets). :data:`LIMITED` is the one list of what is limited: the limiter and
the OpenAPI document both read it. While the limits' storage does not
answer, each process counts in its own memory (and the store's own 503 tells
the client that Redis is away).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, Response
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from redis.backoff import NoBackoff
from redis.retry import Retry

from ..settings import Settings
from ..store import token_digest
from .routes.common import bearer_token

KEY_PREFIX = "tl:limits"


def by_address() -> str:
    """The client's address (behind a proxy, configure it to set the peer address)."""
    return get_remote_address()


def by_token() -> str:
    """The digest of the seat token sent, or the client's address when none is."""
    token = bearer_token()
    return "seat:" + token_digest(token) if token else "addr:" + get_remote_address()


@dataclass(frozen=True, slots=True)
class Limited:
    """One limited operation: its endpoint and method, the kind of limit, and who is counted."""

    operation_id: str
    endpoint: str
    method: str
    kind: str
    key: Callable[[], str]
    counted: str  # in words, for the documentation


LIMITED = (
    Limited("create_match", "matches.Matches", "POST", "create", by_address, "client address"),
    Limited("join_match", "matches.Join", "POST", "join", by_address, "client address"),
    Limited("post_action", "seats.Actions", "POST", "act", by_token, "seat token"),
    Limited("get_hint", "seats.HintResource", "GET", "hint", by_token, "seat token"),
    Limited("get_events", "events.Events", "GET", "wait", by_address, "client address"),
    Limited("stream_events", "events.Stream", "GET", "wait", by_address, "client address"),
)


def storage_uri(settings: Settings) -> str:
    """flask-limiter's storage for the match Redis: the same URL, ``redis+cluster://`` on a cluster."""
    if not settings.redis_cluster:
        return settings.redis_url
    parts = urlsplit(settings.redis_url)
    return urlunsplit(("redis+cluster", parts.netloc, "", "", ""))


def install_limits(app: Flask, api: Any, settings: Settings) -> Limiter | None:
    """Limit the operations of :data:`LIMITED` on ``app`` and document them in ``api``'s OpenAPI document.

    Call it after the blueprints are registered. None when the limits are off
    (the document still describes the 429 answers they give when on).
    """
    document_limits(api.spec)
    limits = settings.rate_limits
    if limits is None:
        return None
    for kind, text in limits.items():
        try:
            parse_many(text)
        except ValueError as error:
            raise ValueError(f"TIENLEN_RATE_LIMITS: {kind}={text!r} is not a limit: {error}") from None
    options: dict[str, Any] = {
        "socket_timeout": settings.redis_timeout_s,
        "socket_connect_timeout": settings.redis_timeout_s,
        "retry": Retry(NoBackoff(), 0),  # fail fast, as the store does
    }
    limiter = Limiter(
        by_address,
        app=app,
        storage_uri=storage_uri(settings),
        storage_options=options,
        strategy="fixed-window",
        key_prefix=KEY_PREFIX,
        headers_enabled=False,  # set below: RateLimit-Reset in seconds, as the IETF draft has it
        swallow_errors=True,
        in_memory_fallback_enabled=True,  # while the storage does not answer, count in this process
    )
    for rule in LIMITED:
        view = app.view_functions[rule.endpoint]
        message = f"too many requests ({limits[rule.kind]} per {rule.counted} to {rule.operation_id})"
        limited: Any = limiter.limit(
            limits[rule.kind], key_func=rule.key, methods=[rule.method], scope=rule.kind, error_message=message
        )(view)
        app.view_functions[rule.endpoint] = limited

    @app.after_request
    def _rate_headers(response: Response) -> Response:
        current = limiter.current_limit
        if current is None:
            return response
        try:
            reset_s = seconds_to_reset(current.window.reset_time, current.limit.get_expiry())
            response.headers["RateLimit-Limit"] = str(current.limit.amount)
            response.headers["RateLimit-Remaining"] = str(max(0, current.remaining))
            response.headers["RateLimit-Reset"] = str(reset_s)
            if response.status_code == 429:
                response.headers["Retry-After"] = str(max(1, reset_s))
        except Exception:  # the storage went away between the check and now: no headers
            app.logger.warning("rate limit headers skipped", exc_info=True)
        return response

    return limiter


def seconds_to_reset(reset_time: float, window_s: int) -> int:
    """Whole seconds after which the window has surely reset, given the reset time the storage reports.

    Redis reports a window's time to live rounded to the nearest second, so
    the true reset may be up to half a second after ``reset_time``: one
    second more, but never more than the window, makes a retry after this
    many seconds land in the next window.
    """
    return min(max(0, round(reset_time - time.time())) + 1, window_s)


def document_limits(spec: Any) -> None:
    """Add the 429 answer, with its headers, to every limited operation of the OpenAPI document."""
    integer = {"schema": {"type": "integer", "minimum": 0}}
    headers = {
        "Retry-After": integer | {"description": "Seconds until the limit resets"},
        "RateLimit-Limit": integer | {"description": "Requests allowed in the window"},
        "RateLimit-Remaining": integer | {"description": "Requests left in the window"},
        "RateLimit-Reset": integer | {"description": "Seconds until the window resets"},
    }
    by_id = {rule.operation_id: rule for rule in LIMITED}
    for operations in spec._paths.values():
        for operation in operations.values():
            rule = by_id.get(str(operation.get("operationId"))) if isinstance(operation, dict) else None
            if rule is None:
                continue
            operation["responses"]["429"] = {
                "description": f"Reasons: `rate_limited` (counted per {rule.counted}; `off` or set by "
                "`TIENLEN_RATE_LIMITS`)",
                "headers": headers,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            }
