"""How the server reaches Redis: every connection option and its default, declared here once.

:class:`RedisOptions` is where Redis is (``REDIS_URL``, a Cluster, the
sentinels and the primary's name), how long a call may take, the pool, what
a write waits for (``TIENLEN_DURABILITY``) and :class:`RedisAccess`: the
sentinels' own user and password and the TLS files. The settings read these
from the environment with the defaults below; the store builds every
connection's arguments from them (:mod:`tienlen.store.reach`), the rate limits
included; :func:`tls_kwargs` is the one reading of the TLS files as redis-py
takes them, for the server and for a local server's clients
(:mod:`tienlen.local_redis`) alike.

Standard library only, and no store: the settings import this in the server's
first process, before gevent patches anything. A password never shows: the
options' ``repr`` leaves the URL and the sentinels' password out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_DURABILITY",
    "DEFAULT_POOL_SIZE",
    "DEFAULT_REDIS_TIMEOUT_S",
    "DEFAULT_REDIS_URL",
    "DEFAULT_SENTINEL_MASTER",
    "DURABILITY_LEVELS",
    "RedisAccess",
    "RedisOptions",
    "tls_kwargs",
]

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_REDIS_TIMEOUT_S = 1.0  # every call, and every connect, gives up after this long (TIENLEN_REDIS_TIMEOUT)
DEFAULT_POOL_SIZE = 16  # connections a gevent worker shares among its requests
DEFAULT_SENTINEL_MASTER = "mymaster"  # the name Redis's own sentinel.conf gives its example primary
DURABILITY_LEVELS = ("local", "replica", "fsync")  # what a write waits for before the answer (store/client.py)
DEFAULT_DURABILITY = "local"


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
class RedisOptions:
    """How to reach Redis: ``url`` (any node of a cluster when ``cluster``; behind Sentinel only its scheme,
    user, password and database count), or the ``sentinels`` watching the primary named ``sentinel_master``;
    the timeout, the pool (``cooperative``: gevent, one bounded pool shared by every request), what a write
    waits for (``durability``), and the sentinels' credentials and the TLS files (``access``)."""

    url: str = field(repr=False)  # may hold the data nodes' password
    cluster: bool = False
    timeout_s: float = DEFAULT_REDIS_TIMEOUT_S
    cooperative: bool = False
    pool_size: int = DEFAULT_POOL_SIZE
    sentinels: tuple[tuple[str, int], ...] = ()
    sentinel_master: str = DEFAULT_SENTINEL_MASTER
    durability: str = DEFAULT_DURABILITY
    access: RedisAccess = RedisAccess()

    @property
    def tls(self) -> bool:
        """Whether every connection (data nodes and sentinels) uses TLS: a ``rediss://`` URL."""
        return urlsplit(self.url).scheme == "rediss"


def tls_kwargs(access: RedisAccess) -> dict[str, Any]:
    """redis-py's ``ssl`` arguments of a TLS connection with ``access``'s files: the server's certificate checked
    against the CA (the system's when none is given) and its host name, the client's certificate when given."""
    found: dict[str, Any] = {"ssl": True, "ssl_cert_reqs": "required", "ssl_check_hostname": True}
    if access.tls_ca:
        found["ssl_ca_certs"] = access.tls_ca
    if access.tls_cert:
        found["ssl_certfile"] = access.tls_cert
        found["ssl_keyfile"] = access.tls_key  # None: the key is in the certificate's file
    return found
