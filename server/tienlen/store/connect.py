"""Connections to Redis (one server or a Redis Cluster) that fail fast, and commits that say what happened.

Every Redis call gives up after ``timeout_s`` (``TIENLEN_REDIS_TIMEOUT``, 1 s
by default): a stalled Redis costs a request a second, not a hang. A call is
retried once only when its connection was found closed (a Redis that
restarted), never after a timeout.

:func:`run_script` sends a write script itself so that a failure says whether
Redis may have run it: when the script was never sent in full, nothing
changed (:class:`StoreUnavailableError`); when it was sent and no answer came
back, it may have run (:class:`OutcomeUnknownError`). :func:`read_replies`
sends the reads of a hot path (an action's load) the same lean way, pipelined
on one connection, without redis-py's per-command layers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, cast

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.exceptions import (
    AskError,
    ClusterDownError,
    NoScriptError,
    RedisClusterException,
    TryAgainError,
)
from redis.retry import Retry

from .base import OutcomeUnknownError, StoreUnavailableError

# Everything a Redis call (one server or a cluster) may raise when the store does not answer properly.
STORE_ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, RedisClusterException, OSError)
_NOTHING_RAN = (NoScriptError, AskError, TryAgainError, ClusterDownError)  # MovedError is an AskError

Client = redis.Redis | RedisCluster


@dataclass(frozen=True, slots=True)
class RedisOptions:
    """How to reach Redis: ``url`` (any node of a cluster when ``cluster``), the timeout, the pool."""

    url: str
    cluster: bool = False
    timeout_s: float = 1.0
    cooperative: bool = False  # gevent: one bounded pool shared by every request
    pool_size: int = 16


def connect(options: RedisOptions) -> Client:
    """The client for ``options`` (a one-server client opens its connections lazily; a cluster client asks
    the node named by the URL for the slots at once)."""
    timeouts: dict[str, Any] = {
        "socket_timeout": options.timeout_s,
        "socket_connect_timeout": options.timeout_s,
        "health_check_interval": 30,
    }
    if options.cluster:
        # No retries of timeouts: a stalled node fails the call within the timeout.
        return RedisCluster.from_url(options.url, retry=Retry(NoBackoff(), 0), **timeouts)
    retry = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))
    if options.cooperative:
        pool = redis.BlockingConnectionPool.from_url(
            options.url, max_connections=options.pool_size, timeout=options.timeout_s, retry=retry, **timeouts
        )
        return redis.Redis(connection_pool=pool)
    return redis.Redis.from_url(options.url, retry=retry, **timeouts)


class Pinger:
    """Whether Redis answers, asked on connections of its own so a busy pool cannot delay the answer."""

    def __init__(self, options: RedisOptions, client: Client) -> None:
        self._cluster = client if isinstance(client, RedisCluster) else None
        self._single: redis.Redis | None = None
        if self._cluster is None:
            self._single = redis.Redis.from_url(
                options.url,
                socket_timeout=options.timeout_s,
                socket_connect_timeout=options.timeout_s,
                retry=Retry(NoBackoff(), 0),
            )

    def __call__(self) -> bool:
        """True when the server (every primary of a cluster) answered PING within the timeout."""
        try:
            if self._cluster is not None:
                return bool(self._cluster.ping(target_nodes=RedisCluster.PRIMARIES))
            assert self._single is not None
            return bool(self._single.ping())
        except STORE_ERRORS:
            return False


@dataclass(frozen=True, slots=True)
class WriteScript:
    """A Lua write script, run by :func:`run_script`; ``sha`` is its SHA-1, as EVALSHA names it."""

    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


def run_script(client: Client, script: WriteScript, keys: list[str], args: list[Any]) -> Any:
    """Run ``script`` on the node holding ``keys`` and answer its result.

    Raises :class:`StoreUnavailableError` when Redis cannot have run it (no
    connection, the command not sent in full, a cluster redirection) and
    :class:`OutcomeUnknownError` when it was sent but its answer did not come.
    """
    for _attempt in range(3):
        with _checkout(client, keys[0]) as (node, connection):
            try:
                connection.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
            except STORE_ERRORS as error:  # not sent in full: Redis dropped the partial command
                connection.disconnect()
                raise StoreUnavailableError(str(error)) from error
            try:
                return connection.read_response()
            except _NOTHING_RAN as error:
                refusal: Exception = error
            except redis.ResponseError:
                raise
            except STORE_ERRORS as error:
                connection.disconnect()
                raise OutcomeUnknownError(f"the write was sent but not confirmed: {error}") from error
        # Redis refused to run it: load the script, or learn the cluster's slots again, and try again.
        if isinstance(refusal, NoScriptError):
            try:
                node.script_load(script.source)
            except STORE_ERRORS as error:
                raise StoreUnavailableError(str(error)) from error
        else:
            _learn_slots(client)
    raise StoreUnavailableError(f"Redis did not run the write: {refusal}")


def read_replies(client: Client, key: str, commands: Sequence[tuple[Any, ...]]) -> list[Any]:
    """Send the read-only ``commands`` to the node holding ``key`` in one round trip; answer their replies.

    Every command's keys must hash with ``key`` (one match's keys do). Sent
    again once on a fresh connection when the connection was found closed (a
    Redis that restarted), and after a cluster redirection; any other failure
    raises :class:`StoreUnavailableError`.
    """
    reconnected = False
    for _attempt in range(3):
        with _checkout(client, key) as (_node, connection):
            try:
                connection.send_packed_command(connection.pack_commands(commands))
                return [connection.read_response() for _ in commands]
            except _NOTHING_RAN as error:
                connection.disconnect()  # replies of the other commands may still be on the way
                refusal: Exception = error
            except redis.ConnectionError as error:
                connection.disconnect()
                if reconnected:
                    raise StoreUnavailableError(str(error)) from error
                reconnected = True
                continue
            except STORE_ERRORS as error:
                connection.disconnect()
                raise StoreUnavailableError(str(error)) from error
        _learn_slots(client)
    raise StoreUnavailableError(f"Redis did not answer the read: {refusal}")


@contextmanager
def _checkout(client: Client, key: str) -> Iterator[tuple[redis.Redis, Any]]:
    """The one-server client of the node holding ``key`` and a connection of its pool, given back after."""
    node = _node_client(client, key)
    pool = node.connection_pool
    try:
        connection: Any = pool.get_connection()  # redis-py's connections are untyped
    except STORE_ERRORS as error:
        raise StoreUnavailableError(str(error)) from error
    try:
        yield node, connection
    finally:
        pool.release(connection)


def _learn_slots(client: Client) -> None:
    """On a cluster, ask again which node holds which slots (after a redirection); nothing on one server."""
    if isinstance(client, RedisCluster):
        with suppress(*STORE_ERRORS):
            client.nodes_manager.initialize()


def _node_client(client: Client, key: str) -> redis.Redis:
    """The one-server client of the node that holds ``key`` (the client itself when not a cluster)."""
    if not isinstance(client, RedisCluster):
        return client
    try:
        cluster: Any = client  # get_node_from_key is untyped
        return cast(redis.Redis, cluster.get_redis_connection(cluster.get_node_from_key(key)))
    except STORE_ERRORS as error:
        raise StoreUnavailableError(str(error)) from error
