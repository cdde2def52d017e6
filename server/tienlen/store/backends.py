"""The kinds of match store, found by name (``TIENLEN_STORE``): each kind declared once, as how it is opened.

A new kind is a :class:`~.base.MatchStore` (its waiters, metrics observer and
where the rate limits count included) and one entry in :data:`BACKENDS`;
the app, the metrics and the limits only speak to the protocol.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import MatchStore
from .connect import RedisOptions
from .layout import Lifetimes
from .redis_store import RedisMatchStore

DEFAULT_STORE = "redis"


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """What opening a store takes: where it is, how long a call may take, lifetimes, waiters, the worker's kind."""

    url: str
    cluster: bool
    timeout_s: float
    lifetimes: Lifetimes
    max_waiters: int
    cooperative: bool  # gevent: requests are greenlets


def _redis(options: StoreOptions) -> MatchStore:
    redis = RedisOptions(options.url, options.cluster, options.timeout_s, options.cooperative)
    return RedisMatchStore.connect(redis, options.lifetimes, max_waiters=options.max_waiters)


BACKENDS: dict[str, Callable[[StoreOptions], MatchStore]] = {"redis": _redis}
STORE_KINDS: tuple[str, ...] = tuple(BACKENDS)


def open_store(kind: str, options: StoreOptions) -> MatchStore:
    """The store of kind ``kind`` (one of :data:`STORE_KINDS`)."""
    return BACKENDS[kind](options)
