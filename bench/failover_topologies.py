"""The Redis topologies ``bench/failover.py`` kills primaries in: Sentinel (a primary, a replica, three
sentinels) and Cluster (three primaries, a replica each), behind one small interface.

Each :class:`Topology` starts its nodes in a folder on free ports, tells the
server how to reach them (:meth:`~Topology.server_env`), and for one failover
names the primary to kill and its replicas (:meth:`~Topology.victim`), kills
it, waits until a replica took over, and starts the dead node again as a
replica (its replacement machine).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from tienlen.local_redis import LocalRedis
from tienlen.local_redis.cluster import LocalCluster
from tienlen.local_redis.sentinel import MASTER_NAME, LocalSentinelGroup

__all__ = ["TOPOLOGIES", "ClusterTopology", "SentinelTopology", "Topology"]


class Topology(Protocol):
    """Redis nodes whose primaries can be killed and replaced."""

    name: str
    described: str

    def start(self) -> None:
        """Start every node and wait until the topology is whole."""
        ...

    def stop(self) -> None:
        """Stop every node."""
        ...

    def server_env(self) -> dict[str, str]:
        """The settings that point ``tienlen serve`` at these nodes."""
        ...

    def victim(self, number: int) -> tuple[LocalRedis, list[LocalRedis]]:
        """The primary the ``number``-th failover kills, and its replicas now."""
        ...

    def kill(self, number: int) -> LocalRedis:
        """SIGKILL the ``number``-th failover's primary and answer it."""
        ...

    def wait_for_new_primary(self, old: LocalRedis) -> LocalRedis:
        """Wait until a replica of the dead ``old`` has taken over; answer it."""
        ...

    def revive(self, node: LocalRedis) -> None:
        """Start the dead ``node`` again as a replica, in sync."""
        ...


class SentinelTopology:
    """A primary, one replica and three sentinels (down after 1 s)."""

    name = "sentinel"
    described = "a primary, a replica and 3 sentinels"

    def __init__(self, folder: Path) -> None:
        """Configure the group under ``folder``."""
        self.group = LocalSentinelGroup(folder)

    def start(self) -> None:
        """Start the nodes and the sentinels."""
        self.group.start()

    def stop(self) -> None:
        """Stop the sentinels and the nodes."""
        self.group.stop()

    def server_env(self) -> dict[str, str]:
        """The sentinels and the name they watch the primary under."""
        return {"TIENLEN_REDIS_SENTINELS": self.group.setting, "TIENLEN_REDIS_SENTINEL_MASTER": MASTER_NAME}

    def victim(self, number: int) -> tuple[LocalRedis, list[LocalRedis]]:
        """The primary the sentinels name (whichever the failover), and the other running nodes."""
        primary = self.group.primary()
        return primary, [node for node in self.group.nodes if node is not primary and node.pid is not None]

    def kill(self, number: int) -> LocalRedis:
        """Kill the primary the sentinels name."""
        return self.group.kill_primary()

    def wait_for_new_primary(self, old: LocalRedis) -> LocalRedis:
        """Wait until the sentinels name another primary."""
        return self.group.wait_for_new_primary(old)

    def revive(self, node: LocalRedis) -> None:
        """Start ``node`` again as the new primary's replica."""
        self.group.revive(node)


class ClusterTopology:
    """Three primaries with one replica each (node timeout 1 s); the failovers kill each shard's primary in turn."""

    name = "cluster"
    described = "a Cluster of 3 primaries with a replica each"

    def __init__(self, folder: Path) -> None:
        """Configure the cluster under ``folder``."""
        self.cluster = LocalCluster(folder, masters=3, replicas=1)

    def start(self) -> None:
        """Start the nodes, assign the slots, make the replicas."""
        self.cluster.start()

    def stop(self) -> None:
        """Stop every node."""
        self.cluster.stop()

    def server_env(self) -> dict[str, str]:
        """Any node of the cluster (the client learns the rest)."""
        return {"REDIS_URL": self.cluster.url, "TIENLEN_REDIS_CLUSTER": "1"}

    def victim(self, number: int) -> tuple[LocalRedis, list[LocalRedis]]:
        """The primary of shard ``number`` modulo 3, and its replicas."""
        primary = self.cluster.primaries()[self._shard(number)]
        return primary, self.cluster.replicas_of(primary)

    def kill(self, number: int) -> LocalRedis:
        """Kill the primary of shard ``number`` modulo 3."""
        return self.cluster.kill_primary(self._shard(number))

    def wait_for_new_primary(self, old: LocalRedis) -> LocalRedis:
        """Wait until a replica of ``old`` took its slots and the cluster is ok."""
        return self.cluster.wait_for_new_primary(old)

    def revive(self, node: LocalRedis) -> None:
        """Start ``node`` again; it finds its slots taken and follows the new primary."""
        self.cluster.revive(node)

    def _shard(self, number: int) -> int:
        return (number - 1) % self.cluster.masters


TOPOLOGIES: dict[str, type[SentinelTopology] | type[ClusterTopology]] = {
    SentinelTopology.name: SentinelTopology,
    ClusterTopology.name: ClusterTopology,
}
