"""The kinds of match store, found by name (``TIENLEN_STORE``): each kind declared once, as how it is opened.

A new kind is a :class:`~tienlen.store.MatchStore` (its waiters, metrics
observer and where the rate limits count included) and one entry in
:data:`BACKENDS`; the app, the metrics and the limits only speak to the
protocol. Importing this module imports no store (the settings read the
kinds' names in the server's first process, before gevent patches anything):
a kind's modules are imported when it is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .store import MatchStore
    from .store.layout import Lifetimes

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
    from .store import RedisMatchStore, RedisOptions

    redis = RedisOptions(options.url, options.cluster, options.timeout_s, options.cooperative)
    return RedisMatchStore.connect(redis, options.lifetimes, max_waiters=options.max_waiters)


BACKENDS: dict[str, Callable[[StoreOptions], MatchStore]] = {"redis": _redis}
STORE_KINDS: tuple[str, ...] = tuple(BACKENDS)


def open_store(kind: str, options: StoreOptions) -> MatchStore:
    """The store of kind ``kind`` (one of :data:`STORE_KINDS`)."""
    return BACKENDS[kind](options)
