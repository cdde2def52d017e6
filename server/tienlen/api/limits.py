"""Rate limits: how often one client may create, join, act, ask for hints and wait, kept in the match Redis.

flask-limiter counts requests in fixed windows in the same Redis as the
matches (a Redis Cluster through its ``redis+cluster`` storage, Redis Sentinel through ``redis+sentinel``). Each
view says who it counts (:data:`PER_ADDRESS`, :data:`PER_ACCOUNT`, :data:`PER_ACCOUNT_OR_ADDRESS`,
:data:`PER_PLAYER`): actions and hints per account (per seat for an anonymous seat), never per token, so new
tokens start no new count; a token that is nobody's is refused (401 ``invalid_token``) before anything is
counted, so made-up tokens write nothing. The limits are :data:`~tienlen.settings.DEFAULT_RATE_LIMITS`,
overridden by ``TIENLEN_RATE_LIMITS`` (``off`` turns them off: benchmarks and
load tests do).

A request over a limit answers 429 ``rate_limited`` in the error shape with
``Retry-After``; every limited answer carries ``RateLimit-Limit``,
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the window
resets), worked out from the one call that counted the request (its count and
the window's time to live come back together), never from a second call.
Each limited view says so itself with :func:`limited` (its kind of limit
and who is counted): the OpenAPI document gets its 429 answer and headers
from that mark at once, and :func:`install_limits` applies the limits it
finds marked.

The count comes first in a limited request (after the reads that find who
is counted), so when Redis does not answer it is the count (or those reads)
that fails: the request answers 503
``store_unavailable`` within ``TIENLEN_REDIS_TIMEOUT`` and nothing changed
(no count kept in memory, so limits stay counted once for every server).
After a failed Redis call the worker's :class:`~.breaker.Breaker` is open for
a moment, and limited requests answer that 503 at once without asking Redis.
A view without a mark (``/healthz``, ``/metrics``, reading a match) is never
limited, nor counted.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Flask, Response, g, has_app_context, request
from flask.views import MethodView
from flask_limiter import Limiter
from limits import parse_many
from limits.storage import RedisClusterStorage, RedisSentinelStorage, RedisStorage

from ..settings import DEFAULT_RATE_LIMITS, Settings
from ..store.base import MatchStore
from ..store.connect import STORE_ERRORS
from ..store.errors import StoreUnavailableError
from .breaker import Breaker, BreakerOpenError
from .caller import caller_account, caller_player, client_address
from .services import services

T = TypeVar("T")
ViewT = TypeVar("ViewT", bound=Callable[..., Any])

KEY_PREFIX = "tl:limits"
MARK = "_tienlen_limit"  # the attribute a limited view carries: its Limit


def by_address() -> str:
    """The client's address (behind trusted proxies, the one they forwarded: ``TIENLEN_TRUSTED_PROXIES``)."""
    return "addr:" + client_address()


def by_account() -> str:
    """The account of the token sent; no token or an unknown one is refused (401) before anything is counted."""
    _unless_broken()
    return f"acct:{caller_account(required=True)}"


def by_account_or_address() -> str:
    """The account of the token sent, the client's address when none is; an unknown token is refused (401)."""
    _unless_broken()
    account = caller_account(required=False)
    return by_address() if account is None else f"acct:{account}"


def by_player() -> str:
    """The account of the token sent, or the anonymous seat (match id and seat) whose token it is; any other
    token is refused (401) before anything is counted. New tokens of one account never make a new count."""
    _unless_broken()
    return caller_player()


def _unless_broken() -> None:
    """503 at once while the worker's breaker is open: finding who is counted reads Redis too."""
    if services().breaker.open:
        raise BreakerOpenError("Redis did not answer a moment ago")


@dataclass(frozen=True, slots=True)
class Counted:
    """Who a limit counts: the key of a request, and the same in words (for the documentation)."""

    key: Callable[[], str]
    words: str


PER_ADDRESS = Counted(by_address, "client address")
PER_ACCOUNT = Counted(by_account, "account")
PER_ACCOUNT_OR_ADDRESS = Counted(by_account_or_address, "account (client address without a token)")
PER_PLAYER = Counted(by_player, "account (match and seat for an anonymous seat's token)")


@dataclass(frozen=True, slots=True)
class Limit:
    """How a view is limited: the kind of limit (a key of the rate limits setting) and who is counted."""

    kind: str
    counted: Counted


RATE_HEADERS = {
    name: {"schema": {"type": "integer", "minimum": 0}, "description": f"{about} (sent when limits are on)"}
    for name, about in (
        ("RateLimit-Limit", "Requests allowed in the window"),
        ("RateLimit-Remaining", "Requests left in the window"),
        ("RateLimit-Reset", "Seconds until the window resets"),
    )
}


def limited(kind: str, counted: Counted) -> Callable[[ViewT], ViewT]:
    """Declare a view rate-limited: ``kind``'s limit, counted per ``counted``; documented on the view at once.

    Put it above ``@blp.response`` and ``@blp.doc``: its success answers get
    the ``RateLimit-*`` headers, and a 429 ``rate_limited`` answer is added. The view itself is
    not wrapped; :func:`install_limits` finds the mark and applies the limit.
    """
    if kind not in DEFAULT_RATE_LIMITS:
        raise ValueError(f"unknown kind of limit {kind!r}: one of {', '.join(DEFAULT_RATE_LIMITS)}")

    def mark(view: ViewT) -> ViewT:
        apidoc: dict[str, Any] = getattr(view, "_apidoc", {})
        successes = apidoc.get("success_status_codes")
        if not successes:
            raise TypeError("put @limited above the view's @blp.response")
        wait = {"schema": {"type": "integer", "minimum": 0}, "description": "Seconds until the limit resets"}
        over = {"Retry-After": wait}
        documented = apidoc.get("manual_doc", {}).get("responses", {})
        successes = [*successes, *(status for status in documented if str(status).startswith("2"))]
        responses: dict[Any, Any] = {status: {"headers": dict(RATE_HEADERS)} for status in successes}
        responses["429"] = {
            "description": f"Reasons: `rate_limited` (counted per {counted.words}; `off` or set by "
            "`TIENLEN_RATE_LIMITS`)",
            "headers": over | RATE_HEADERS,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
        }
        manual = apidoc.setdefault("manual_doc", {}).setdefault("responses", {})
        for status, answer in responses.items():
            entry = manual.setdefault(status, {})
            entry["headers"] = entry.get("headers", {}) | answer.pop("headers")
            if "description" in entry and "description" in answer:  # the view's own reasons for this status stay
                answer["description"] += ", " + entry["description"].removeprefix("Reasons: ")
            entry.update(answer)
        view._apidoc = apidoc  # type: ignore[attr-defined]
        setattr(view, MARK, Limit(kind, counted))
        return view

    return mark


@dataclass(frozen=True, slots=True)
class LimitedView:
    """A view found limited: its endpoint, HTTP method, operation id and limit."""

    endpoint: str
    method: str
    operation_id: str
    limit: Limit


def limits_of(app: Flask) -> list[LimitedView]:
    """Every limited view of ``app`` (methods of its ``MethodView`` classes), read from the views' marks."""
    found: list[LimitedView] = []
    for endpoint, view in app.view_functions.items():
        view_class = getattr(view, "view_class", None)
        if not (isinstance(view_class, type) and issubclass(view_class, MethodView)):
            continue
        for method in sorted(view_class.methods or ()):
            handler = getattr(view_class, method.lower(), None)
            limit = getattr(handler, MARK, None)
            if isinstance(limit, Limit):
                operation_id = getattr(handler, "_apidoc", {}).get("manual_doc", {}).get("operationId", endpoint)
                found.append(LimitedView(endpoint, method, str(operation_id), limit))
    return found


SCHEME_PREFIX = "tienlen+"  # our storages' schemes: limits' Redis storages, guarded and counting in one call

# KEYS: the window's counter. ARGV: the window in seconds, the cost. The count and the window's time to live.
INCR_WINDOW = b"""
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if tonumber(current) == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}
"""


# the store URIs our own storages count on
GUARDED_SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "redis+sentinel")


def storage_uri(store: MatchStore) -> str:
    """Where the limits are counted: beside the matches, the store's own ``limits`` URI. On Redis, ``tienlen+``
    first (our guarded storages, counting in one call); another store's URI (e.g. ``memory://`` or
    ``mongodb://``) goes to the ``limits`` library's own storage for it, so a new store needs no edit here."""
    uri = store.limits_uri()
    return SCHEME_PREFIX + uri if uri.split("://", 1)[0] in GUARDED_SCHEMES else uri


def _windows() -> dict[str, tuple[int, float]]:
    """The windows counted in this request: limit key -> (count, reset time in epoch seconds)."""
    if not has_app_context():
        return {}
    found: dict[str, tuple[int, float]] | None = g.get("tienlen_windows")
    if found is None:
        found = {}
        g.tienlen_windows = found
    return found


def _guarded(breaker: Breaker, call: Callable[[], T]) -> T:
    """``call`` (a Redis call of the limits), or 503 ``store_unavailable`` at once while the breaker is open."""
    if breaker.open:
        raise BreakerOpenError("Redis did not answer a moment ago")
    try:
        return call()
    except STORE_ERRORS as error:
        breaker.trip()
        raise StoreUnavailableError(f"the rate limits could not be counted: {error}") from error


class _Counting(RedisStorage):
    """What our storages add to limits' Redis storages: fail fast with the worker's breaker, count a window in one call.

    ``incr`` answers the count and remembers it with the window's reset time
    for the rest of the request, so ``get`` and ``get_expiry`` of that window
    (the headers) need no second call.
    """

    def __init__(self, uri: str, breaker: Breaker | None = None, **options: Any) -> None:
        self.breaker = breaker or Breaker()
        super().__init__(uri.removeprefix(SCHEME_PREFIX), **options)

    def initialize_storage(self, _uri: str) -> None:
        super().initialize_storage(_uri)
        self.lua_incr_window = self.get_connection().register_script(INCR_WINDOW)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        count, ttl_ms = _guarded(self.breaker, lambda: self.lua_incr_window([self.prefixed_key(key)], [expiry, amount]))
        count = int(count)
        reset = time.time() + (int(ttl_ms) / 1000 if int(ttl_ms) >= 0 else expiry)
        _windows()[key] = (count, reset)
        return count

    def get(self, key: str) -> int:
        counted = _windows().get(key)
        if counted:
            return counted[0]
        read = super().get
        return _guarded(self.breaker, lambda: read(key))

    def get_expiry(self, key: str) -> float:
        counted = _windows().get(key)
        if counted:
            return counted[1]
        read = super().get_expiry
        return _guarded(self.breaker, lambda: read(key))

    def check(self) -> bool:
        return not self.breaker.open and super().check()


class GuardedRedisStorage(_Counting):
    """limits' Redis storage, counting as :class:`_Counting` says."""

    STORAGE_SCHEME = [SCHEME_PREFIX + s for s in ("redis", "rediss", "unix")]  # noqa: RUF012 (limits names it so)


class GuardedRedisClusterStorage(_Counting, RedisClusterStorage):
    """:class:`GuardedRedisStorage` on a Redis Cluster."""

    STORAGE_SCHEME = [SCHEME_PREFIX + "redis+cluster"]  # noqa: RUF012 (limits names it so)


class GuardedRedisSentinelStorage(_Counting, RedisSentinelStorage):
    """:class:`GuardedRedisStorage` on the primary the Redis Sentinels name (after a failover, the new one)."""

    STORAGE_SCHEME = [SCHEME_PREFIX + "redis+sentinel"]  # noqa: RUF012 (limits names it so)

    def __init__(self, uri: str, breaker: Breaker | None = None, **options: Any) -> None:
        # every count on the primary: a replica's may lag behind it
        super().__init__(uri, breaker, use_replicas=False, **options)


def install_limits(app: Flask, settings: Settings, store: MatchStore, breaker: Breaker) -> Limiter | None:
    """Apply the limits the views of ``app`` declare (:func:`limited`); None when the limits are off.

    Call it after the blueprints are registered. ``breaker`` is the worker's:
    open, limited requests answer 503 at once.
    """
    limits = settings.rate_limits
    if limits is None:
        return None
    for kind, text in limits.items():
        try:
            parse_many(text)
        except ValueError as error:
            raise ValueError(f"TIENLEN_RATE_LIMITS: {kind}={text!r} is not a limit: {error}") from None
    uri = storage_uri(store)
    options: dict[str, Any] = {}
    if uri.startswith(SCHEME_PREFIX):
        options = {
            **store.limits_options(),  # credentials, TLS, timeouts and no retry, as the store's own connections
            "breaker": breaker,
        }
    limiter = Limiter(
        by_address,
        app=app,
        storage_uri=uri,
        storage_options=options,
        strategy="fixed-window",
        key_prefix=KEY_PREFIX,
        headers_enabled=False,  # set below: RateLimit-Reset in seconds, as the IETF draft has it
        swallow_errors=False,  # a count that failed is the store's 503 (StoreUnavailableError)
        in_memory_fallback_enabled=False,  # never count in this process: limits are counted once for all servers
    )
    declared = limits_of(app)
    limited_endpoints = frozenset(view.endpoint for view in declared)
    limiter.request_filter(lambda: request.endpoint not in limited_endpoints)  # the others are never counted
    for view in declared:
        kind, words = view.limit.kind, view.limit.counted.words
        app.view_functions[view.endpoint] = limiter.limit(  # type: ignore[assignment]
            limits[kind],
            key_func=view.limit.counted.key,
            methods=[view.method],
            scope=kind,
            error_message=f"too many requests ({limits[kind]} per {words} to {view.operation_id})",
        )(app.view_functions[view.endpoint])

    @app.after_request
    def _rate_headers(response: Response) -> Response:
        current = limiter.current_limit
        counted = None if current is None else _windows().get(current.key)
        if current is None or counted is None:  # not limited, or not counted: no headers (and no Redis call)
            return response
        count, reset_time = counted
        reset_s = seconds_to_reset(reset_time, current.limit.get_expiry())
        response.headers["RateLimit-Limit"] = str(current.limit.amount)
        response.headers["RateLimit-Remaining"] = str(max(0, current.limit.amount - count))
        response.headers["RateLimit-Reset"] = str(reset_s)
        if response.status_code == 429 and count > current.limit.amount:  # this limit refused it, not the view
            response.headers["Retry-After"] = str(max(1, reset_s))
        return response

    return limiter


def seconds_to_reset(reset_time: float, window_s: int) -> int:
    """Whole seconds after which the window has surely reset, given the reset time counted with the request.

    The time to live comes in milliseconds, so rounding up is exact; never
    more than the window.
    """
    return min(max(0, math.ceil(reset_time - time.time())), window_s)
