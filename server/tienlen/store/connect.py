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

Behind Redis Sentinel (``RedisOptions.sentinels``) every connection asks the
sentinels where the primary is when it opens, so after a failover the next
connection goes to the new primary. With a :class:`~.client.Durability`
other than ``local`` every command that may write is followed, on its own
connection, by ``WAIT`` (a replica has the write) or ``WAITAOF`` (the
primary's disk has it) before its reply is given back:
:class:`~.client.ConfirmingConnection` does it for whatever sends the write
(redis-py's commands, pipelines, :func:`run_script`'s commits). A write not confirmed in time
raises :class:`OutcomeUnknownError`: the primary applied it, but a failover
may yet lose it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, cast

import redis
from redis.cluster import RedisCluster
from redis.connection import UnixDomainSocketConnection
from redis.exceptions import AskError, ClusterDownError, NoScriptError, TryAgainError
from redis.retry import Retry
from redis.sentinel import Sentinel, SentinelConnectionPool

from .client import (
    STORE_ERRORS,
    WAIT_SHARE,
    WAITAOF_SINCE,
    BlockingSentinelPool,
    ConfirmingConnection,
    Durability,
    confirming,
    primary_connection,
    writes,
)
from .errors import OutcomeUnknownError, StoreUnavailableError
from .reach import (
    RedisOptions,
    no_retry,
    node_address,
    node_kwargs,
    pool_kwargs,
    retry_reconnected,
    sentinel_kwargs,
    shown_host,
)

__all__ = [
    "STORE_ERRORS",
    "WAITAOF_SINCE",
    "Client",
    "ConfirmingConnection",
    "Durability",
    "Pinger",
    "RedisOptions",
    "WriteScript",
    "confirm_earlier_writes",
    "connect",
    "durability_refusal",
    "read_replies",
    "redis_version",
    "run_script",
    "thread_client",
    "writes",
]

_NOTHING_RAN = (NoScriptError, AskError, TryAgainError, ClusterDownError)  # MovedError is an AskError

Client = redis.Redis | RedisCluster


def durability_of(options: RedisOptions) -> Durability:
    """What a write waits for under ``options``: its level, within most of the Redis timeout."""
    return Durability(options.durability, max(1, int(options.timeout_s * 1000 * WAIT_SHARE)))


def connect(options: RedisOptions) -> Client:
    """The client for ``options`` (a one-server client opens its connections lazily; a cluster client asks
    the node named by the URL for the slots at once; a Sentinel client asks the sentinels on each new connection).

    Every connection takes :func:`~.reach.node_kwargs` (credentials, TLS, timeouts) and confirms its writes as
    ``options.durability`` asks (:func:`~.client.confirming`).
    """
    durability = durability_of(options)
    if options.cluster:
        base, kwargs = pool_kwargs(node_kwargs(options))
        address = node_address(options)
        # No retries of timeouts: a stalled node fails the call within the timeout. The URL names only the node:
        # the connection class (TLS or not) and the credentials are ours, as on every topology.
        return RedisCluster.from_url(
            f"redis://{shown_host(address['host'])}:{address['port']}",
            retry=no_retry(),
            connection_class=confirming(base, durability),
            **kwargs,
        )
    retry = retry_reconnected()
    if options.sentinels:
        sized: dict[str, Any] = {}
        pool_class: type[SentinelConnectionPool] = SentinelConnectionPool
        if options.cooperative:
            sized = {"max_connections": options.pool_size, "timeout": options.timeout_s}
            pool_class = BlockingSentinelPool
        client: redis.Redis = _sentinel(options).master_for(
            options.sentinel_master,
            connection_pool_class=pool_class,
            connection_class=confirming(primary_connection(options.tls), durability),
            retry=retry,
            **sized,
        )
        return client
    if options.cooperative:
        sized = {"max_connections": options.pool_size, "timeout": options.timeout_s}
        pool = _one_server_pool(options, durability, retry, redis.BlockingConnectionPool, sized)
    else:
        pool = _one_server_pool(options, durability, retry, redis.ConnectionPool, {})
    return redis.Redis(connection_pool=pool)


def _one_server_pool(
    options: RedisOptions, durability: Durability, retry: Retry, pool_class: type[Any], sized: dict[str, Any]
) -> redis.ConnectionPool:
    """The pool of connections to the one server of ``options`` (its address, :func:`~.reach.node_kwargs`)."""
    tcp, kwargs = pool_kwargs(node_kwargs(options))
    address = node_address(options)
    base: type[Any] = UnixDomainSocketConnection if "path" in address else tcp
    pool: redis.ConnectionPool = pool_class(
        connection_class=confirming(base, durability), retry=retry, **address, **kwargs, **sized
    )
    return pool


def thread_client(shared: redis.Redis) -> redis.Redis:
    """A client of ``shared``'s pool that keeps one connection (a thread's own)."""
    return type(shared)(connection_pool=shared.connection_pool, single_connection_client=True)


def _sentinel(options: RedisOptions) -> Any:
    """The sentinels of ``options`` (a redis-py :class:`~redis.sentinel.Sentinel`, untyped): asked with
    :func:`~.reach.sentinel_kwargs`, their primary reached with :func:`~.reach.node_kwargs`."""
    sentinel: Any = Sentinel
    return sentinel(list(options.sentinels), sentinel_kwargs=sentinel_kwargs(options), **node_kwargs(options))


def redis_version(client: redis.Redis) -> tuple[int, int]:
    """The (major, minor) version of the Redis ``client`` reaches."""
    found = str(cast(dict[str, Any], client.info("server")).get("redis_version", "0.0")).split(".")
    return int(found[0]), int(found[1]) if len(found) > 1 else 0


def durability_refusal(options: RedisOptions) -> str | None:
    """Why the Redis of ``options`` cannot keep the promise of ``options.durability``, or None when it can.

    ``fsync`` needs ``WAITAOF`` (Redis 7.2 or newer) and the append-only file
    on; ``replica`` and ``local`` need nothing that can be checked before the
    first write (a primary without a replica answers 503 ``outcome_unknown``).
    """
    if options.durability != "fsync":
        return None
    client = _lone_client(options)
    try:
        version = redis_version(client)
        aof = str(cast(dict[str, Any], client.info("persistence")).get("aof_enabled", "0")) == "1"
    except STORE_ERRORS as error:
        return f"TIENLEN_DURABILITY=fsync: the version of Redis could not be asked: {error}"
    finally:
        client.close()
    if version < WAITAOF_SINCE:
        shown = ".".join(map(str, version))
        return f"TIENLEN_DURABILITY=fsync needs Redis 7.2 or newer (WAITAOF); this Redis is {shown}: use replica"
    if not aof:
        return "TIENLEN_DURABILITY=fsync needs the primary's append-only file on (appendonly yes)"
    return None


def _lone_client(options: RedisOptions) -> redis.Redis:
    """A one-server client of the primary of ``options`` (not a cluster) that never retries."""
    once = no_retry()
    if options.sentinels:
        made = _sentinel(options).master_for(
            options.sentinel_master, connection_class=primary_connection(options.tls), retry=once
        )
        return cast(redis.Redis, made)
    return redis.Redis(connection_pool=_one_server_pool(options, Durability(), once, redis.ConnectionPool, {}))


class Pinger:
    """Whether Redis answers, asked on connections of its own so a busy pool cannot delay the answer."""

    def __init__(self, options: RedisOptions, client: Client) -> None:
        self._cluster = client if isinstance(client, RedisCluster) else None
        self._single = _lone_client(options) if self._cluster is None else None

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
    :class:`OutcomeUnknownError` when it was sent but its answer did not come,
    or its copy (``TIENLEN_DURABILITY``: the connection's wait) was not
    confirmed in time.
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


# Sets the key's time to live to what is left of it: a write that changes nothing, copied to the replicas after
# every earlier write (on one server and in a cluster alike), so the wait behind it confirms them all.
_TOUCH = WriteScript(
    """
local left = redis.call('PTTL', KEYS[1])
if left > 0 then redis.call('PEXPIRE', KEYS[1], left) end
return left
"""
)


def confirm_earlier_writes(client: Client, key: str) -> None:
    """Wait, as a write would, until every write the primary holding ``key`` applied so far has its copy.

    For an answer given again (an ``Idempotency-Key`` retry): the attempt
    that wrote it may have answered 503 because its copy was not confirmed,
    so the retry confirms it before answering. ``WAIT`` counts a
    connection's own writes, so this connection writes first: ``key``'s
    time to live set to what is left of it (``key`` must expire, as every
    match key does). Nothing when writes do not wait. Raises
    :class:`OutcomeUnknownError` when the copy is not confirmed in time.
    """
    made: Any = _node_client(client, key).connection_pool.connection_class
    if issubclass(made, ConfirmingConnection) and made.durability.waits:
        run_script(client, _TOUCH, [key], [])


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
