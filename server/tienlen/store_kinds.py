"""The kinds of match store, found by name (``TIENLEN_STORE``): each kind declared once, as how it is opened.

A new kind is a :class:`~tienlen.store.base.MatchStore` (its waiters, metrics
observer and where the rate limits count included) and one entry in
:data:`BACKENDS`; the app, the metrics and the limits only speak to the
protocol. Importing this module imports no store and no redis-py (the settings read
the kinds' names in the server's first process, before gevent patches
anything): a kind's modules are imported when it is opened. How to reach
Redis is :mod:`tienlen.redis_options`' (one place, with the defaults).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .redis_options import RedisOptions

if TYPE_CHECKING:
    from .store.base import MatchStore
    from .store.layout import Lifetimes

DEFAULT_STORE = "redis"


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """What opening a store takes: how to reach it (``redis``: where, the timeout, the pool, what a write waits
    for, the sentinels' credentials and TLS files; :mod:`tienlen.redis_options`), the lifetimes of matches, and
    how many clients this process may hold waiting."""

    redis: RedisOptions
    lifetimes: Lifetimes
    max_waiters: int


def _redis(options: StoreOptions) -> MatchStore:
    from .store.redis_store import RedisMatchStore

    return RedisMatchStore.connect(options.redis, options.lifetimes, max_waiters=options.max_waiters)


def _redis_refusal(options: StoreOptions) -> str | None:
    from .store.connect import durability_refusal
    from .store.reach import access_refusal

    return access_refusal(options.redis) or durability_refusal(options.redis)


BACKENDS: dict[str, Callable[[StoreOptions], MatchStore]] = {"redis": _redis}
# Why a kind's store cannot run with the options (asked once before the server starts: credentials or TLS refused,
# a durability it cannot keep), or None.
REFUSALS: dict[str, Callable[[StoreOptions], str | None]] = {"redis": _redis_refusal}
STORE_KINDS: tuple[str, ...] = tuple(BACKENDS)


def open_store(kind: str, options: StoreOptions) -> MatchStore:
    """The store of kind ``kind`` (one of :data:`STORE_KINDS`)."""
    return BACKENDS[kind](options)


def store_refusal(kind: str, options: StoreOptions) -> str | None:
    """Why the store of kind ``kind`` cannot keep what ``options`` ask (``TIENLEN_DURABILITY=fsync`` on a Redis
    without ``WAITAOF``), or None; may ask the store, so it is asked once, before the server starts."""
    return REFUSALS[kind](options)
