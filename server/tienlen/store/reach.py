"""What every connection to Redis takes, from the options of :mod:`tienlen.redis_options` (:class:`RedisOptions`).

One place builds the keyword arguments of every connection, whatever the
topology (one server, Redis Sentinel, a Redis Cluster), for the store and the
rate limits alike:

- :func:`node_kwargs`, for the data nodes (the one server, the primary the
  sentinels name, a Cluster's nodes): the Redis timeout, ``REDIS_URL``'s user,
  password and database, and with ``rediss://`` TLS (the CA, the client
  certificate and key, ``TIENLEN_REDIS_TLS_*``);
- :func:`sentinel_kwargs`, for the sentinels themselves: the same timeout and
  TLS, and their own user and password (``TIENLEN_REDIS_SENTINEL_USERNAME``,
  ``TIENLEN_REDIS_SENTINEL_PASSWORD``).

Every retry policy of a connection is here too: :func:`no_retry` (a stalled
Redis fails the call within the timeout) and :func:`retry_reconnected` (a call
sent again once, only when its connection was found closed). A password never
leaves these arguments: the options' ``repr`` leaves the URL and the sentinels'
password out.
"""

from __future__ import annotations

import ssl
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.connection import Connection, SSLConnection, UnixDomainSocketConnection
from redis.connection import parse_url as _parse_url
from redis.retry import Retry
from redis.sentinel import Sentinel

from ..redis_options import RedisOptions, tls_kwargs

__all__ = [
    "RedisOptions",
    "access_refusal",
    "bare_url",
    "no_retry",
    "node_address",
    "node_kwargs",
    "pool_kwargs",
    "retry_reconnected",
    "sentinel_kwargs",
    "shown_host",
]


def parse_url(url: str) -> dict[str, Any]:
    """redis-py's reading of ``url``: host, port, path, db, username, password, connection class."""
    parse: Any = _parse_url  # untyped
    return cast(dict[str, Any], parse(url))


def no_retry() -> Retry:
    """No call tried again: a stalled or refusing Redis (or sentinel) fails the call at once, within the timeout
    (redis-py's default would try three times more, seconds apart)."""
    return Retry(NoBackoff(), 0)


def retry_reconnected() -> Retry:
    """A call sent again once, at once, only when its connection was found closed (a Redis that restarted);
    never after a timeout."""
    return Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


def _tls_kwargs(options: RedisOptions) -> dict[str, Any]:
    """redis-py's ``ssl`` arguments for ``options``: :func:`~tienlen.redis_options.tls_kwargs`, none without
    TLS."""
    return tls_kwargs(options.access) if options.tls else {}


def _timeouts(options: RedisOptions) -> dict[str, Any]:
    return {"socket_timeout": options.timeout_s, "socket_connect_timeout": options.timeout_s}


def node_kwargs(options: RedisOptions) -> dict[str, Any]:
    """The keyword arguments of a connection to a data node of ``options``, as ``redis.Redis``,
    ``RedisCluster`` and ``Sentinel`` take them: the timeouts, ``REDIS_URL``'s user, password and database
    (not on a cluster, which has only database 0), and ``ssl`` with its files when TLS is on."""
    parsed = parse_url(options.url)
    found = _timeouts(options)
    for name in ("username", "password") if options.cluster else ("username", "password", "db"):
        if parsed.get(name) is not None:
            found[name] = parsed[name]
    return found | _tls_kwargs(options)


def sentinel_kwargs(options: RedisOptions) -> dict[str, Any]:
    """The keyword arguments of a connection to a sentinel of ``options`` (redis-py's ``sentinel_kwargs``):
    the timeouts, no retry, the sentinels' own user and password, and ``ssl`` with its files when TLS is on."""
    # Named even when None: the rate limits' Sentinel storage would otherwise give the sentinels the data nodes'.
    access = options.access
    found = _timeouts(options) | {"username": access.sentinel_username, "password": access.sentinel_password}
    # Not tried again: a sentinel that does not answer is passed over for the next at once (on every new connection).
    found["retry"] = no_retry()
    return found | _tls_kwargs(options)


def pool_kwargs(kwargs: dict[str, Any]) -> tuple[type[Connection], dict[str, Any]]:
    """``kwargs`` (of :func:`node_kwargs`) as a connection pool takes them: the connection class (TLS or not)
    and the arguments without ``ssl``, which only clients take."""
    rest = dict(kwargs)
    base: type[Connection] = SSLConnection if rest.pop("ssl", False) else Connection
    return base, rest


def node_address(options: RedisOptions) -> dict[str, Any]:
    """Where ``REDIS_URL`` points: ``host`` and ``port``, or ``path`` for a ``unix://`` socket (with its
    connection class)."""
    parsed = parse_url(options.url)
    if parsed.get("connection_class") is UnixDomainSocketConnection:
        return {"path": parsed.get("path", "")}
    return {"host": parsed.get("host", "localhost"), "port": parsed.get("port", 6379)}


def bare_url(options: RedisOptions) -> str:
    """``REDIS_URL`` without its user, password and query: where, not who (for the rate limits' storage URI,
    whose credentials go with :func:`node_kwargs`)."""
    parts = urlsplit(options.url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", ""))


def access_refusal(options: RedisOptions) -> str | None:
    """Why the server cannot use the Redis of ``options`` as it is told to: a node or a sentinel refused the
    credentials, or TLS failed (a certificate not trusted, a client certificate refused); None otherwise.

    A Redis that does not answer is no refusal (the server starts and answers 503 until it does). The answer
    names the setting to fix and never holds a password.
    """
    once = no_retry()  # a refusal is not tried again
    secrets = [s for s in (parse_url(options.url).get("password"), options.access.sentinel_password) if s]
    sentinel: Any = Sentinel  # untyped
    if options.sentinels:
        for host, port in options.sentinels:
            asked = redis.Redis(host=host, port=port, **sentinel_kwargs(options))
            who = f"the sentinel {shown_host(host)}:{port}"
            refused = _refusal(asked, who, "TIENLEN_REDIS_SENTINEL_PASSWORD", secrets)
            if refused is not None:
                return refused
        try:
            asking = sentinel(list(options.sentinels), sentinel_kwargs=sentinel_kwargs(options))
            host, port = asking.discover_master(options.sentinel_master)
        except redis.RedisError:
            return None  # no sentinel answers yet: nothing refused
        where: dict[str, Any] = {"host": host, "port": port}
    else:
        where = node_address(options)
        if "path" in where:
            where = {"unix_socket_path": where["path"]}
    shown = where.get("unix_socket_path") or f"{shown_host(where['host'])}:{where['port']}"
    node = redis.Redis(**where, retry=once, **node_kwargs(options))
    return _refusal(node, f"Redis at {shown}", "REDIS_URL", secrets)


def _refusal(client: Any, who: str, setting: str, secrets: list[str]) -> str | None:
    """Why ``client`` (of ``who``) was refused, naming ``setting`` (or the TLS files), with no secret in it."""
    try:
        client.ping()
        return None
    except redis.AuthenticationError as error:
        said = f"{who} refused the user and password of {setting}: {error}"
    except (redis.ConnectionError, OSError) as error:
        cause: BaseException | None = error
        while cause is not None and not isinstance(cause, ssl.SSLError):
            cause = cause.__cause__ or cause.__context__
        if cause is None:
            return None  # not answering: no refusal
        said = f"TLS with {who} failed ({error}): check TIENLEN_REDIS_TLS_CA, _CERT and _KEY"
    except redis.RedisError:
        return None
    finally:
        client.close()
    for secret in secrets:
        said = said.replace(secret, "***")
    return said


def shown_host(host: str) -> str:
    """``host`` as it goes before ``:port`` (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host
