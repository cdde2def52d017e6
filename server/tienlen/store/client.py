"""The one-server client every store uses: what a Redis call may raise, which commands write, and the wait
for a write's copy (``TIENLEN_DURABILITY``); the connections behind Redis Sentinel.

:class:`DurableRedis` follows every command that may write (:func:`writes`),
in the same packet and on the same connection, with the wait its
:class:`Durability` asks for, and gives the reply back only once the copy is
confirmed; its pipelines (:class:`DurablePipeline`) do the same once after
their last command. :class:`PrimaryConnection` is a Sentinel-managed
connection that refuses a node that is no longer the primary.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import redis
from redis.client import Pipeline
from redis.commands import READ_COMMANDS
from redis.exceptions import RedisClusterException
from redis.sentinel import SentinelConnectionPool, SentinelManagedConnection

from .base import OutcomeUnknownError

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
CONFIRM_CHANNEL = "tl:confirm"  # published to (by nobody followed) to confirm earlier writes: confirm_earlier_writes
WAITAOF_SINCE = (7, 2)  # the first Redis with WAITAOF
WAIT_SHARE = 0.8  # the share of TIENLEN_REDIS_TIMEOUT a write waits for its copy (the socket gives up at all of it)


@dataclass(frozen=True, slots=True)
class Durability:
    """What a write waits for before its reply is given back: ``local`` nothing, ``replica`` ``WAIT 1 <ms>``
    (one replica has it), ``fsync`` ``WAITAOF 1 0 <ms>`` (the primary's append-only file has it on disk)."""

    level: str = "local"
    timeout_ms: int = 800

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
        """Read the reply of :attr:`command`, sent after a write on ``connection``.

        Raises :class:`OutcomeUnknownError` when the copy is not confirmed
        within :attr:`timeout_ms` or the connection fails meanwhile (the
        primary has the write; a failover may lose it).
        """
        try:
            reply = connection.read_response()
        except STORE_ERRORS as error:
            connection.disconnect()
            raise OutcomeUnknownError(f"the write was applied but its copy was not confirmed: {error}") from error
        copies = int(reply[0] if isinstance(reply, list) else reply)
        if copies < 1:
            where = "on a replica" if self.level == "replica" else "on the primary's disk"
            raise OutcomeUnknownError(f"the write was applied but not confirmed {where} within {self.timeout_ms} ms")


def skip_reply(connection: Any) -> None:
    """Read and drop the next reply on ``connection`` (a wait behind a write that failed); a broken
    connection is closed."""
    try:
        connection.read_response()
    except redis.ResponseError:
        pass
    except STORE_ERRORS:
        connection.disconnect()


def writes(command_name: Any) -> bool:
    """Whether the command named ``command_name`` may write (so waits under a :class:`Durability`)."""
    name = command_name.decode() if isinstance(command_name, bytes) else str(command_name)
    return name.upper() not in NOT_WRITES


class DurablePipeline(Pipeline):
    """A pipeline of a :class:`DurableRedis`: when it holds a write, confirmed once after its last reply."""

    durability = Durability()

    def _execute_pipeline(self, connection: Any, commands: Any, raise_on_error: bool) -> Any:
        base: Any = super()  # redis-py's pipeline internals are untyped
        replies = base._execute_pipeline(connection, commands, raise_on_error)
        if self.durability.waits and any(writes(args[0]) for args, _options in commands):
            self.durability.confirm(connection)
        return replies

    def _execute_transaction(self, connection: Any, commands: Any, raise_on_error: bool) -> Any:
        base: Any = super()
        replies = base._execute_transaction(connection, commands, raise_on_error)
        if self.durability.waits and any(writes(args[0]) for args, _options in commands):
            self.durability.confirm(connection)
        return replies


class DurableRedis(redis.Redis):
    """A one-server client whose every command that may write waits for :attr:`durability` before its reply.

    The wait runs on the connection that wrote (``WAIT`` counts that
    connection's writes), and is the one place the server waits for copies:
    the stores' commands, pipelines and scripts all come through here, and
    :func:`run_script` confirms the commits itself.
    """

    durability = Durability()

    def _send_command_parse_response(self, conn: Any, command_name: Any, *args: Any, **options: Any) -> Any:
        wait = self.durability.command
        if wait is None or not writes(command_name):
            base: Any = super()  # untyped in redis-py
            return base._send_command_parse_response(conn, command_name, *args, **options)
        conn.send_packed_command(conn.pack_commands([args, wait]))  # the wait right behind: one round trip
        try:
            this: Any = self  # parse_response is untyped in redis-py
            reply = this.parse_response(conn, command_name, **options)
        except redis.ResponseError:
            skip_reply(conn)  # refused: nothing written, nothing to wait for
            raise
        except STORE_ERRORS:
            conn.disconnect()
            raise
        self.durability.check(conn)
        return reply

    def pipeline(self, transaction: bool = True, shard_hint: Any = None) -> Pipeline:
        """A pipeline whose writes are confirmed as this client's are."""
        pipe = DurablePipeline(self.connection_pool, self.response_callbacks, transaction, shard_hint)
        pipe.durability = self.durability
        return pipe


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


class BlockingSentinelPool(SentinelConnectionPool, redis.BlockingConnectionPool):
    """A Sentinel pool that waits for a free connection (gevent) instead of refusing past its size."""
