"""A Redis Cluster on free ports, with or without replicas, for the tests and the failover bench.

:class:`LocalCluster` starts ``masters`` ``redis-server --cluster-enabled yes``
(each a :class:`~tienlen.local_redis.LocalRedis`), gives each an equal range
of the 16,384 slots, introduces them to one another, makes ``replicas``
replicas of each primary, and waits until every node says
``cluster_state:ok``. With replicas, :meth:`~LocalCluster.kill_primary`
SIGKILLs a primary (a machine that died: nothing flushed, no goodbye),
:meth:`~LocalCluster.wait_for_new_primary` waits until one of its replicas
has taken its slots (the cluster's own failover, after
``node_timeout_ms``), and :meth:`~LocalCluster.revive` starts the dead node
again on its own disk, where it finds its slots taken and follows the new
primary as a replica (its replacement machine).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

import redis
from redis.crc import key_slot

from .access import OPEN, Access
from .group import ServerGroup
from .ports import free_port
from .process import LocalRedis
from .replication import wait_for_copies

__all__ = ["SLOTS", "LocalCluster"]

SLOTS = 16384
_READY_TIMEOUT_S = 30.0


class LocalCluster(ServerGroup):
    """``masters`` primaries with every slot assigned, each with ``replicas`` replicas; :attr:`url` names the
    first node (any node would do)."""

    def __init__(
        self,
        data_dir: Path,
        masters: int = 3,
        *,
        replicas: int = 0,
        node_timeout_ms: int = 1000,
        access: Access = OPEN,
    ) -> None:
        """Configure the nodes under ``data_dir`` (with ``access``: passwords or an ACL user, TLS); nothing starts
        until :meth:`start`."""
        count = masters * (1 + replicas)
        # the bus port named, or Redis takes the data port + 10,000, which a free port may not allow
        self.bus_ports = [free_port() for _ in range(count)]
        settings: tuple[str, ...] = ()
        if replicas:  # a dead primary found within node_timeout_ms; a replica may always take over, at once
            settings = ("--cluster-node-timeout", str(node_timeout_ms), "--cluster-replica-validity-factor", "0")
            settings += ("--repl-diskless-sync-delay", "0")
        if access.password is not None:  # what a replica gives its primary
            settings += ("--masterauth", access.password)
        if access.username is not None:
            settings += ("--masteruser", access.username)
        self.nodes = [
            LocalRedis(
                data_dir / f"node{i}",
                appendonly=replicas > 0,
                extra_args=("--cluster-enabled", "yes", "--cluster-port", str(bus), *settings),
                **access.of_nodes(),
            )
            for i, bus in enumerate(self.bus_ports)
        ]
        self.masters = masters
        self.replicas = replicas
        self._before: dict[int, set[int]] = {}  # a killed primary's port: the ports of the primaries then

    @property
    def url(self) -> str:
        """``redis://host:port/0`` of the first node."""
        return self.nodes[0].url

    def start(self) -> Self:
        """Start the nodes, assign the slots in equal ranges, meet, make the replicas, wait until the cluster is ok."""
        try:
            for node in self.nodes:
                node.start()
            clients = [_client(n) for n in self.nodes]
            primaries = clients[: self.masters]
            share = SLOTS // self.masters
            ends = [(i + 1) * share - 1 for i in range(self.masters - 1)] + [SLOTS - 1]
            ranges = [(i * share, end) for i, end in enumerate(ends)]
            for client, (first, last) in zip(primaries, ranges, strict=True):
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last)
            for node, bus in zip(self.nodes[1:], self.bus_ports[1:], strict=True):
                clients[0].execute_command("CLUSTER", "MEET", node.host_for_clients, node.port, bus)
            self._wait(lambda: all(_known(c) == len(clients) for c in clients), "every node to know the others")
            ids = [_text(c.execute_command("CLUSTER", "MYID")) for c in primaries]
            for i, client in enumerate(clients[self.masters :]):
                client.execute_command("CLUSTER", "REPLICATE", ids[i % self.masters])
            self._wait(lambda: self._settled(clients), "the cluster to be ok")
            for client in clients:
                client.close()
            if self.replicas:  # each primary copies to its replicas, not only lists them
                for primary, (first, last) in zip(self.nodes[: self.masters], ranges, strict=True):
                    wait_for_copies(primary, self.replicas, _READY_TIMEOUT_S, key=_key_in_slots(first, last))
        except BaseException:
            self.stop()
            raise
        return self

    def primaries(self) -> list[LocalRedis]:
        """The nodes holding slots now, as the first node that answers sees the cluster."""
        for node in self.nodes:
            if not node.running:
                continue
            try:
                ports = _holding_slots(node)
            except (redis.RedisError, OSError):
                continue  # held still or gone: ask another
            return [n for n in self.nodes if n.port in ports]
        raise RuntimeError("no node of the cluster answers")

    def kill_primary(self, index: int = 0) -> LocalRedis:
        """SIGKILL the ``index``-th primary holding slots (nothing flushed) and answer it."""
        primaries = self.primaries()
        node = primaries[index]
        self._before[node.port] = {primary.port for primary in primaries}
        os.kill(node.pid or 0, signal.SIGKILL)
        while node.running:
            time.sleep(0.01)
        return node

    def replicas_of(self, primary: LocalRedis) -> list[LocalRedis]:
        """The running nodes that follow ``primary``."""
        follow: list[LocalRedis] = []
        for node in self.nodes:
            if node is primary or not node.running:
                continue
            info = _replication(node)
            if info.get("role") == "slave" and int(info.get("master_port", 0)) == primary.port:
                follow.append(node)
        return follow

    def wait_for_new_primary(self, old: LocalRedis, timeout_s: float = _READY_TIMEOUT_S) -> LocalRedis:
        """Wait until a replica of the dead ``old`` has taken over (every running node sees the cluster ok, with
        the same primaries, one of which held no slot when ``old`` was killed); answer it."""
        deadline = time.monotonic() + timeout_s
        before = self._before.get(old.port, {old.port})
        while time.monotonic() < deadline:
            try:
                views = [(_holding_slots(n), _info_of(n).get("cluster_state")) for n in self.nodes if n.running]
            except (redis.RedisError, OSError):
                views = []
            if views and all(view == views[0] for view in views) and views[0][1] == "ok":
                taken = [n for n in self.nodes if n.port in views[0][0] and n.port not in before]
                if taken:
                    return taken[0]
            time.sleep(0.05)
        raise RuntimeError(f"no replica of {old} took over within {timeout_s} s")

    def revive(self, node: LocalRedis) -> None:
        """Start the dead ``node`` again on its own disk and wait until it follows a primary, in sync."""
        node.restart()
        deadline = time.monotonic() + _READY_TIMEOUT_S
        while time.monotonic() < deadline:
            info = _replication(node)
            if info.get("role") == "slave" and info.get("master_link_status") == "up" and not info.get("loading"):
                return
            time.sleep(0.05)
        raise RuntimeError(f"{node} did not follow a primary within {_READY_TIMEOUT_S} s")

    def stop(self) -> None:
        """Stop every node (safe to call more than once)."""
        for node in self.nodes:
            node.stop()

    def _settled(self, clients: Sequence[Any]) -> bool:
        """Every node says ok, knows every node, and the primaries holding slots have their replicas."""
        for client in clients:
            state = _info(client)
            if state.get("cluster_state") != "ok" or int(state.get("cluster_known_nodes", 0)) != len(self.nodes):
                return False
        replicas = sum(1 for c in clients if _text(c.execute_command("ROLE")[0]) == "slave")
        return replicas == self.masters * self.replicas

    def _wait(self, done: Any, what: str) -> None:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        while not done():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what} ({_READY_TIMEOUT_S} s)")
            time.sleep(0.05)


def _key_in_slots(first: int, last: int) -> str:
    """A key whose hash slot lies in ``first..last``."""
    keys = (f"local-redis:sync:{n}" for n in range(1_000_000))
    return next(key for key in keys if first <= key_slot(key.encode()) <= last)


def _client(node: LocalRedis) -> Any:
    return node.client(socket_timeout=2.0)  # untyped replies


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _info(client: Any) -> dict[str, str]:
    text = _text(client.execute_command("CLUSTER", "INFO"))
    return dict(line.split(":", 1) for line in text.split() if ":" in line)


def _known(client: Any) -> int:
    return int(_info(client).get("cluster_known_nodes", 0))


def _holding_slots(node: LocalRedis) -> set[int]:
    """The ports of the primaries holding slots, not failed, as ``node`` sees them (CLUSTER NODES)."""
    client: Any = node.client(socket_timeout=0.5)  # untyped replies
    try:
        lines = _text(client.execute_command("CLUSTER", "NODES")).splitlines()
    finally:
        client.close()
    ports: set[int] = set()
    for line in lines:
        parts = line.split()
        flags = parts[2].split(",")
        if "master" in flags and "fail" not in flags and len(parts) > 8:
            ports.add(int(parts[1].split("@")[0].rsplit(":", 1)[1]))
    return ports


def _info_of(node: LocalRedis) -> dict[str, str]:
    client = node.client(socket_timeout=0.5)
    try:
        return _info(client)
    finally:
        client.close()


def _replication(node: LocalRedis) -> dict[str, Any]:
    client = _client(node)
    try:
        return dict(client.info("replication"))
    except (redis.RedisError, OSError):
        return {}
    finally:
        client.close()
