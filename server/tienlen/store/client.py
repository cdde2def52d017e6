"""The connections every store uses: what a Redis call may raise, which commands write, the wait for a
write's copy (``TIENLEN_DURABILITY``), and the connections behind Redis Sentinel.

A :class:`ConfirmingConnection` (made by :func:`confirming` for one server, a
Sentinel-managed primary or the nodes of a Redis Cluster) follows every
packet holding a command that may write (:func:`writes`) with the wait its
:class:`Durability` asks for, in the same packet and on the same
connection, and gives the replies back only once the copy is confirmed: the
one place the server waits for copies, whatever sent the write (a command, a
pipeline, a transaction or a script). :class:`PrimaryConnection` is a
Sentinel-managed connection that refuses a node that is no longer the primary.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import redis
from redis.commands import READ_COMMANDS
from redis.connection import Connection, SSLConnection
from redis.exceptions import RedisClusterException
from redis.sentinel import SentinelConnectionPool, SentinelManagedConnection

from ..redis_options import DEFAULT_DURABILITY, DEFAULT_REDIS_TIMEOUT_S
from .errors import OutcomeUnknownError

# Everything a Redis call (one server or a cluster) may raise when the store does not answer properly.
STORE_ERRORS: tuple[type[BaseException], ...] = (redis.RedisError, RedisClusterException, OSError)

# Commands after which nothing is waited for: redis-py's read-only commands and a few that change no data.
# Any other command may write, and is confirmed (a command missing here costs a wait, never a lost write).
NOT_WRITES = frozenset(READ_COMMANDS) | {
    "PING",
    "INFO",
    "ECHO",
    "TIME",
    "PUBLISH",
    "SPUBLISH",
    "SCRIPT LOAD",
    "SCRIPT EXISTS",
    "CLIENT SETNAME",
    "CLIENT SETINFO",
    "WAIT",
    "WAITAOF",
}
# Commands that change no data whatever follows their first word (connection set-up, the cluster's own, pub/sub).
NOT_WRITES_FIRST_WORDS = frozenset(
    {
        "AUTH",
        "HELLO",
        "SELECT",
        "CLIENT",
        "CLUSTER",
        "COMMAND",
        "READONLY",
        "READWRITE",
        "ASKING",
        "ROLE",
        "QUIT",
        "RESET",
        "WATCH",
        "UNWATCH",
        "MULTI",
        "DISCARD",
        "SUBSCRIBE",
        "UNSUBSCRIBE",
        "PSUBSCRIBE",
        "PUNSUBSCRIBE",
        "SSUBSCRIBE",
        "SUNSUBSCRIBE",
    }
)
WAITAOF_SINCE = (7, 2)  # the first Redis with WAITAOF
WAIT_SHARE = 0.8  # the share of TIENLEN_REDIS_TIMEOUT a write waits for its copy (the socket gives up at all of it)


@dataclass(frozen=True, slots=True)
class Durability:
    """What a write waits for before its reply is given back: ``local`` nothing, ``replica`` ``WAIT 1 <ms>``
    (one replica has it), ``fsync`` ``WAITAOF 1 0 <ms>`` (the primary's append-only file has it on disk)."""

    level: str = DEFAULT_DURABILITY
    timeout_ms: int = round(DEFAULT_REDIS_TIMEOUT_S * 1000 * WAIT_SHARE)

    @property
    def waits(self) -> bool:
        """Whether writes wait at all."""
        return self.level != "local"

    @property
    def command(self) -> tuple[Any, ...] | None:
        """The command that waits for the copy (sent right behind the write, in the same packet), or None."""
        if self.level == "replica":
            return ("WAIT", 1, self.timeout_ms)
        if self.level == "fsync":
            return ("WAITAOF", 1, 0, self.timeout_ms)
        return None

    def confirm(self, connection: Any) -> None:
        """On ``connection``, after a write on it: wait for the promised copy (send :attr:`command`, :meth:`check`)."""
        command = self.command
        if command is None:
            return
        try:
            connection.send_command(*command)
        except STORE_ERRORS as error:
            connection.disconnect()
            raise OutcomeUnknownError(f"the write was applied but its copy was not confirmed: {error}") from error
        self.check(connection)

    def check(self, connection: Any) -> None:
        """Read the reply of :attr:`command`, sent after a write on ``connection``, and :meth:`judge` it.

        Raises :class:`OutcomeUnknownError` when the copy is not confirmed
        within :attr:`timeout_ms` or the connection fails meanwhile (the
        primary has the write; a failover may lose it).
        """
        try:
            reply = connection.read_response()
        except STORE_ERRORS as error:
            connection.disconnect()
            raise OutcomeUnknownError(f"the write was applied but its copy was not confirmed: {error}") from error
        self.judge(reply)

    def judge(self, reply: Any) -> None:
        """Raise :class:`OutcomeUnknownError` unless ``reply`` (of :attr:`command`) confirms the copy."""
        copies = int(reply[0] if isinstance(reply, list) else reply)
        if copies < 1:
            where = "on a replica" if self.level == "replica" else "on the primary's disk"
            raise OutcomeUnknownError(f"the write was applied but not confirmed {where} within {self.timeout_ms} ms")


def writes(command_name: Any) -> bool:
    """Whether the command named ``command_name`` may write (so waits under a :class:`Durability`)."""
    name = command_name.decode() if isinstance(command_name, bytes) else str(command_name)
    name = name.upper()
    return name not in NOT_WRITES and name.split(" ", 1)[0] not in NOT_WRITES_FIRST_WORDS


_WAIT_BEHIND = object()  # the pending reply of a wait the connection put behind a write of its own accord


class ConfirmingConnection(Connection):
    """A connection that follows every packet holding a write with the wait its :attr:`durability` asks for.

    The wait goes in the same packet as the write (no extra round trip), on
    the same connection (``WAIT`` counts the connection's own writes), and
    its reply is read right after the last reply the caller asked for, so
    one command, a pipeline, a transaction or a script are all confirmed
    before their replies are given back: :class:`OutcomeUnknownError` when
    the copy is not confirmed in time (the primary has the writes; a
    failover may lose them). Connections of Redis Cluster nodes and of a
    Sentinel-managed primary get the same behaviour through
    :func:`confirming`. The class attribute :attr:`durability` is set per
    client by :func:`confirming`.
    """

    durability: Durability = Durability()

    def _queues(self) -> tuple[list[Any], deque[Any]]:
        this: Any = self  # redis-py's connections are untyped
        if "_unsent" not in this.__dict__:
            this._unsent, this._pending = [], deque()
        return this._unsent, this._pending

    def pack_command(self, *args: Any) -> Any:
        """Pack one command, noting its name for the next packet sent."""
        self._queues()[0].append(args[0])
        base: Any = super()
        return base.pack_command(*args)

    def pack_commands(self, commands: Any) -> Any:
        """Pack several commands, noting their names for the next packet sent."""
        self._queues()[0].extend(args[0] for args in commands)
        base: Any = super()
        return base.pack_commands(commands)

    def send_command(self, *args: Any, **kwargs: Any) -> None:
        """Send one command (and the wait behind it when it may write)."""
        self._queues()[0].append(args[0])
        base: Any = super()
        base.send_command(*args, **kwargs)

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        """Send a packet; when it holds a write, the wait goes behind it in the same packet."""
        unsent, pending = self._queues()
        names = list(unsent)
        unsent.clear()
        wait = self.durability.command
        behind = False
        if wait is not None and any(writes(name) for name in names):
            behind = True
            chunks = [command] if isinstance(command, (bytes, str, memoryview)) else list(command)
            base_pack: Any = super().pack_command  # not noted: the wait's reply is read by this class
            command = [*chunks, *base_pack(*wait)]
        base: Any = super()
        base.send_packed_command(command, check_health)  # a health check's PING is sent and read in here
        pending.extend(names)
        if behind:
            pending.append(_WAIT_BEHIND)

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        """The next reply the caller asked for; after the last one, the wait behind it is read and checked."""
        _unsent, pending = self._queues()
        alone = len(pending) == 2 and pending[-1] is _WAIT_BEHIND
        if pending:
            pending.popleft()
        base: Any = super()
        try:
            reply = base.read_response(*args, **kwargs)
        except redis.ResponseError:
            if pending and pending[0] is _WAIT_BEHIND:
                self._read_wait(check=not alone)  # a lone write refused wrote nothing
            raise
        if pending and pending[0] is _WAIT_BEHIND:
            self._read_wait(check=True)
        return reply

    def _read_wait(self, *, check: bool) -> None:
        _unsent, pending = self._queues()
        pending.popleft()
        base: Any = super()
        try:
            reply = base.read_response()
        except STORE_ERRORS as error:
            if check:
                raise OutcomeUnknownError(f"the write was applied but its copy was not confirmed: {error}") from error
            return
        if check:
            self.durability.judge(reply)

    def disconnect(self, *args: Any, **kwargs: Any) -> None:
        """Close the socket; replies still awaited are gone with it."""
        unsent, pending = self._queues()
        unsent.clear()
        pending.clear()
        base: Any = super()
        base.disconnect(*args, **kwargs)


def confirming(connection_class: type[Any], durability: Durability) -> type[Any]:
    """``connection_class`` whose connections confirm their writes as ``durability`` asks (itself for ``local``)."""
    if not durability.waits:
        return connection_class
    name = f"Confirming{connection_class.__name__}"
    bases: tuple[type[Any], ...] = (ConfirmingConnection, connection_class)
    if issubclass(connection_class, ConfirmingConnection):
        bases = (connection_class,)
    return type(name, bases, {"durability": durability})


class PrimaryConnection(SentinelManagedConnection):
    """A connection to the primary the sentinels name, refused (``ConnectionError``) when that node is no primary.

    Right after a failover a sentinel that has not heard of it yet still
    names the old primary; once that node is back as a replica it would
    serve stale reads (and refuse writes). Asking ``ROLE`` on each new
    connection keeps every command on a primary.
    """

    def connect_to(self, address: Any) -> None:
        this: Any = self  # redis-py's connections are untyped
        base: Any = super()
        base.connect_to(address)
        this.send_command("ROLE")
        role = this.read_response()
        if not role or role[0] not in (b"master", "master"):
            this.disconnect()
            raise redis.ConnectionError(f"{address[0]}:{address[1]} is no longer the primary")


class PrimarySSLConnection(PrimaryConnection, SSLConnection):
    """A :class:`PrimaryConnection` over TLS (a ``rediss://`` ``REDIS_URL``)."""


def primary_connection(tls: bool) -> type[PrimaryConnection]:
    """The connection class of a Sentinel-managed primary: over TLS or not."""
    return PrimarySSLConnection if tls else PrimaryConnection


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """A Sentinel pool that waits for a free connection (gevent) instead of refusing past its size."""
