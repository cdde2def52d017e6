"""A Redis primary, its replicas and three Redis Sentinels on free ports, for the failover test and bench.

:class:`LocalSentinelGroup` starts the data nodes (each a
:class:`~tienlen.local_redis.LocalRedis`, the first the primary, the others
its replicas) and three ``redis-server --sentinel`` watching them under
:data:`MASTER_NAME`, with a short ``down-after-milliseconds`` so a killed
primary is replaced within a few seconds. :meth:`~LocalSentinelGroup.kill_primary`
SIGKILLs the primary (a machine that died: nothing flushed, no goodbye);
:meth:`~LocalSentinelGroup.wait_for_new_primary` waits until the sentinels
name another; :meth:`~LocalSentinelGroup.revive` starts the dead node again as
a replica of the new primary (its replacement machine).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any, Self

import redis

from .access import OPEN, Access
from .group import ServerGroup
from .process import LocalRedis
from .replication import wait_for_copies

__all__ = ["MASTER_NAME", "Access", "LocalSentinelGroup"]

MASTER_NAME = "tienlen"
_READY_TIMEOUT_S = 30.0


class LocalSentinelGroup(ServerGroup):
    """A primary, ``replicas`` replicas and ``sentinels`` sentinels (quorum: a majority) under ``data_dir``;
    with ``access``, passwords (or ACL users) on the data nodes and the sentinels, and TLS everywhere."""

    def __init__(
        self,
        data_dir: Path,
        *,
        replicas: int = 1,
        sentinels: int = 3,
        down_after_ms: int = 1000,
        failover_timeout_ms: int = 3000,
        access: Access = OPEN,
    ) -> None:
        """Configure the nodes; nothing starts until :meth:`start`."""
        self.data_dir = data_dir
        self.access = access
        self.nodes = [
            LocalRedis(data_dir / f"node{i}", appendonly=True, extra_args=self._node_args(), **access.of_nodes())
            for i in range(1 + replicas)
        ]
        self.sentinels = [
            LocalRedis(data_dir / f"sentinel{i}", appendonly=False, **access.of_sentinels()) for i in range(sentinels)
        ]
        self.down_after_ms = down_after_ms
        self.failover_timeout_ms = failover_timeout_ms

    @property
    def addresses(self) -> tuple[tuple[str, int], ...]:
        """The sentinels' (host, port): ``TIENLEN_REDIS_SENTINELS``."""
        return tuple((s.host_for_clients, s.port) for s in self.sentinels)

    @property
    def setting(self) -> str:
        """``TIENLEN_REDIS_SENTINELS`` for this group: ``host:port,host:port,...``."""
        return ",".join(f"{host}:{port}" for host, port in self.addresses)

    def start(self) -> Self:
        """Start the primary, its replicas (waiting until each is in sync) and the sentinels (until they see
        one another and every replica)."""
        primary, *replicas = self.nodes
        primary.start()
        for replica in replicas:
            replica.extra_args = (*self._node_args(), "--replicaof", primary.host_for_clients, str(primary.port))
            replica.start()
        wait_for_copies(primary, len(replicas), _READY_TIMEOUT_S)
        quorum = len(self.sentinels) // 2 + 1
        for sentinel in self.sentinels:
            sentinel.data_dir.mkdir(parents=True, exist_ok=True)
            config = sentinel.data_dir / "sentinel.conf"
            config.write_text(
                f"sentinel monitor {MASTER_NAME} {primary.host_for_clients} {primary.port} {quorum}\n"
                f"sentinel down-after-milliseconds {MASTER_NAME} {self.down_after_ms}\n"
                f"sentinel failover-timeout {MASTER_NAME} {self.failover_timeout_ms}\n"
                f"sentinel parallel-syncs {MASTER_NAME} 1\n" + self._sentinel_auth()
            )
            sentinel.config_file = config
            sentinel.extra_args = ("--sentinel",)
            sentinel.start()
        self._wait_sentinels_ready(len(replicas))
        return self

    def primary(self) -> LocalRedis:
        """The data node the sentinels name as primary now (asked of the first sentinel that answers)."""
        host, port = self._ask_primary()
        for node in self.nodes:
            if node.port == port:
                return node
        raise RuntimeError(f"the sentinels name {host}:{port}, no node of this group")

    def kill_primary(self) -> LocalRedis:
        """SIGKILL the primary (nothing flushed) and answer it."""
        node = self.primary()
        pid = node.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        while node.running:
            time.sleep(0.01)
        return node

    def wait_for_new_primary(self, old: LocalRedis, timeout_s: float = _READY_TIMEOUT_S) -> LocalRedis:
        """Wait until the sentinels name a primary other than ``old`` and it answers as one; answer it."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            try:
                node = self.primary()
                if node is not old and _role(node) == "master":
                    return node
            except (redis.RedisError, OSError, RuntimeError):
                pass
            time.sleep(0.05)
        raise RuntimeError(f"no new primary within {timeout_s} s")

    def revive(self, node: LocalRedis) -> None:
        """Start the dead ``node`` again as a replica of the current primary and wait until it is in sync."""
        primary = self.primary()
        node.extra_args = (*self._node_args(), "--replicaof", primary.host_for_clients, str(primary.port))
        node.restart()
        wait_for_copies(primary, len(self.nodes) - 1, _READY_TIMEOUT_S)

    def stop(self) -> None:
        """Stop the sentinels, then the data nodes."""
        for server in [*self.sentinels, *self.nodes]:
            server.stop()

    def _node_args(self) -> tuple[str, ...]:
        """A data node's options: no delay before a full sync (5 s by default: a revived node is a replica again
        at once), and the credentials a replica gives its primary."""
        found: tuple[str, ...] = ("--repl-diskless-sync-delay", "0")
        if self.access.password is not None:
            found += ("--masterauth", self.access.password)
        if self.access.username is not None:
            found += ("--masteruser", self.access.username)
        return found

    def _sentinel_auth(self) -> str:
        """The lines of sentinel.conf with the credentials a sentinel gives the data nodes and the other sentinels."""
        access = self.access
        lines = ""
        if access.password is not None:
            lines += f"sentinel auth-pass {MASTER_NAME} {_quoted(access.password)}\n"
        if access.username is not None:
            lines += f"sentinel auth-user {MASTER_NAME} {_quoted(access.username)}\n"
        if access.sentinel_password is not None:
            lines += f"sentinel sentinel-pass {_quoted(access.sentinel_password)}\n"
        if access.sentinel_username is not None:
            lines += f"sentinel sentinel-user {_quoted(access.sentinel_username)}\n"
        return lines

    def _ask_primary(self) -> tuple[str, int]:
        for sentinel in self.sentinels:
            if not sentinel.running:
                continue
            try:
                client: Any = sentinel.client(socket_timeout=1.0)
                found = client.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME)
                client.close()
            except (redis.RedisError, OSError):
                continue
            if found:
                return found[0].decode(), int(found[1])
        raise RuntimeError("no sentinel named a primary")

    def _wait_sentinels_ready(self, replicas: int) -> None:
        """Wait until every sentinel knows the other sentinels and the replicas (a failover needs both)."""
        deadline = time.monotonic() + _READY_TIMEOUT_S
        others = len(self.sentinels) - 1
        for sentinel in self.sentinels:
            client: Any = sentinel.client(socket_timeout=1, decode_responses=True)
            try:
                while True:
                    state = client.execute_command("SENTINEL", "MASTER", MASTER_NAME)
                    fields = dict(zip(state[::2], state[1::2], strict=True)) if isinstance(state, list) else state
                    if int(fields["num-other-sentinels"]) >= others and int(fields["num-slaves"]) >= replicas:
                        break
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"sentinel {sentinel.port} did not see the group: {fields}")
                    time.sleep(0.1)
            finally:
                client.close()


def _quoted(text: str) -> str:
    """``text`` as a quoted string of a Redis configuration file (a password may hold spaces)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _role(node: LocalRedis) -> str:
    client: Any = node.client(socket_timeout=1.0)
    try:
        return str(client.info("replication").get("role", ""))
    finally:
        client.close()
