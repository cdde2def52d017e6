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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .store import MatchStore, RedisOptions
    from .store.layout import Lifetimes

DEFAULT_STORE = "redis"


@dataclass(frozen=True, slots=True)
class RedisAccess:
    """Who the server is to Redis beyond ``REDIS_URL`` (whose user and password are the data nodes'): the
    sentinels' own user and password, and the TLS files used with a ``rediss://`` ``REDIS_URL``."""

    sentinel_username: str | None = None
    sentinel_password: str | None = field(default=None, repr=False)
    tls_ca: str | None = None  # None: the system's CAs
    tls_cert: str | None = None  # the client's certificate, when Redis asks for one
    tls_key: str | None = None  # None: the key is in tls_cert's file


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """What opening a store takes: where it is, how long a call may take, lifetimes, waiters, the worker's kind,
    the sentinels that know where the primary is, what a write waits for (``TIENLEN_DURABILITY``), and the
    sentinels' credentials and TLS files (``access``)."""

    url: str = field(repr=False)  # may hold a password
    cluster: bool
    timeout_s: float
    lifetimes: Lifetimes
    max_waiters: int
    cooperative: bool  # gevent: requests are greenlets
    sentinels: tuple[tuple[str, int], ...] = ()
    sentinel_master: str = "mymaster"
    durability: str = "local"
    access: RedisAccess = RedisAccess()


def _redis_options(options: StoreOptions) -> RedisOptions:
    from .store import RedisOptions

    return RedisOptions(
        options.url,
        options.cluster,
        options.timeout_s,
        options.cooperative,
        sentinels=options.sentinels,
        sentinel_master=options.sentinel_master,
        durability=options.durability,
        sentinel_username=options.access.sentinel_username,
        sentinel_password=options.access.sentinel_password,
        tls_ca=options.access.tls_ca,
        tls_cert=options.access.tls_cert,
        tls_key=options.access.tls_key,
    )


def _redis(options: StoreOptions) -> MatchStore:
    from .store import RedisMatchStore

    return RedisMatchStore.connect(_redis_options(options), options.lifetimes, max_waiters=options.max_waiters)


def _redis_refusal(options: StoreOptions) -> str | None:
    from .store.connect import durability_refusal
    from .store.reach import access_refusal

    redis_options = _redis_options(options)
    return access_refusal(redis_options) or durability_refusal(redis_options)


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
