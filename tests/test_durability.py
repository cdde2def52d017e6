"""Durability (``TIENLEN_DURABILITY=replica``): every way a write reaches Redis waits for a replica's copy.

Rules checked, on a real primary and replica (and a real Cluster with a
replica per primary): a command, a pipeline, a transaction and a script that
write are confirmed before their replies are given back, and answer
``OutcomeUnknownError`` while the replica is cut off; reads never wait; a
write Redis refuses raises its own error (it wrote nothing); after any of
these the connection still pairs each reply with its command; on a Cluster a
cut-off replica holds back only its own primary's writes.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from tienlen.local_redis import LocalRedis
from tienlen.local_redis.cluster import LocalCluster
from tienlen.local_redis.replication import wait_for_copies
from tienlen.store.connect import RedisOptions, WriteScript, connect, run_script
from tienlen.store.errors import OutcomeUnknownError

pytestmark = pytest.mark.failover

# A write waits up to 80 % of this for its copy: ample for a replica that acknowledges (wait_for_copies; a 400 ms
# wait once failed on a replica that did not yet), short enough that each cut-off write gives up in under a second.
TIMEOUT_S = 1.0
SCRIPT = WriteScript("redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])")


@contextmanager
def _cut_off(primary: LocalRedis, replicas: list[LocalRedis]) -> Iterator[None]:
    """The replicas held still and their links to ``primary`` cut: nothing more is copied until the end."""
    for node in replicas:
        os.kill(node.pid or 0, signal.SIGSTOP)
    try:
        redis.Redis(primary.host_for_clients, primary.port).client_kill_filter(_type="slave")
        yield
    finally:
        for node in replicas:
            os.kill(node.pid or 0, signal.SIGCONT)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LocalRedis, LocalRedis]]:
    """A primary and its replica, in sync."""
    folder = tmp_path_factory.mktemp("durability")
    fast = ("--repl-diskless-sync-delay", "0")
    with LocalRedis(folder / "primary", extra_args=fast) as primary:
        following = (*fast, "--replicaof", primary.host_for_clients, str(primary.port))
        with LocalRedis(folder / "replica", extra_args=following) as replica:
            wait_for_copies(primary)
            yield primary, replica


def _transaction(client: Any, key: str) -> Any:
    pipe = client.pipeline(transaction=True)
    pipe.set(key, "t").incr(key + ":n")
    return pipe.execute()


def _pipeline(client: Any, key: str) -> Any:
    pipe = client.pipeline(transaction=False)
    pipe.get(key).set(key, "p").get(key)
    return pipe.execute()


# (how the write is sent, what it answers once confirmed)
WRITES: list[tuple[str, Callable[[Any, str], Any], Any]] = [
    ("command", lambda client, key: client.set(key, "c"), True),
    ("pipeline", _pipeline, None),
    ("transaction", _transaction, None),
    ("script", lambda client, key: run_script(client, SCRIPT, [key], ["s"]), b"s"),
]


@pytest.mark.parametrize(("kind", "write", "answer"), WRITES, ids=[w[0] for w in WRITES])
def test_a_write_is_answered_only_once_a_replica_has_it(
    pair: tuple[LocalRedis, LocalRedis], kind: str, write: Callable[[Any, str], Any], answer: Any
) -> None:
    """Rule: with the replica in sync the write answers; cut off, it raises OutcomeUnknownError (applied, not
    confirmed); the connection then still answers each command with its own reply."""
    primary, replica = pair
    client: Any = connect(RedisOptions(primary.url, durability="replica", timeout_s=TIMEOUT_S))
    key = f"durable:{kind}"
    done = write(client, key)
    if answer is not None:
        assert done == answer
    with _cut_off(primary, [replica]):
        with pytest.raises(OutcomeUnknownError):
            write(client, key)
        assert client.get(key + ":absent") is None  # reads do not wait, and pair with their replies
        assert client.exists(key) == 1
    wait_for_copies(primary)
    assert client.ping() is True
    again = write(client, key)
    if answer is not None:
        assert again == answer
    client.close()


def test_a_refused_write_raises_its_own_error_and_the_connection_stays_paired(
    pair: tuple[LocalRedis, LocalRedis],
) -> None:
    """Rule: a write Redis refuses (WRONGTYPE) wrote nothing: its error is raised, not OutcomeUnknownError, even
    with the replica cut off, and the next commands get their own replies."""
    primary, replica = pair
    client: Any = connect(RedisOptions(primary.url, durability="replica", timeout_s=TIMEOUT_S))
    client.hset("durable:hash", "f", "v")
    with _cut_off(primary, [replica]):
        with pytest.raises(redis.ResponseError, match="WRONGTYPE"):
            client.incr("durable:hash")
        assert client.hget("durable:hash", "f") == b"v"
    wait_for_copies(primary)
    assert client.incr("durable:counter") >= 1
    client.close()


def test_local_durability_never_waits(pair: tuple[LocalRedis, LocalRedis]) -> None:
    """Rule: ``local`` answers a write as soon as the primary has it, replica or not."""
    primary, replica = pair
    client: Any = connect(RedisOptions(primary.url, durability="local", timeout_s=0.5))
    with _cut_off(primary, [replica]):
        assert client.set("durable:local", "l") is True
        assert run_script(client, SCRIPT, ["durable:local"], ["m"]) == b"m"
    wait_for_copies(primary)
    client.close()


def test_on_a_cluster_each_primary_waits_for_its_own_replica(tmp_path: Path) -> None:
    """Rule: on a Cluster with a replica per primary, writes are confirmed by their shard's replica: one
    shard's replica cut off makes only that shard's writes answer OutcomeUnknownError."""
    with LocalCluster(tmp_path, masters=3, replicas=1) as cluster:
        client: Any = connect(RedisOptions(cluster.url, cluster=True, durability="replica", timeout_s=TIMEOUT_S))
        keys = [f"durable:{i}" for i in range(30)]
        for key in keys:
            assert client.set(key, "1") is True
        primary = cluster.primaries()[0]
        held_back = {key for key in keys if client.get_node_from_key(key).port == primary.port}
        assert held_back and len(held_back) < len(keys)
        with _cut_off(primary, cluster.replicas_of(primary)):
            for key in keys:
                if key in held_back:
                    with pytest.raises(OutcomeUnknownError):
                        client.set(key, "2")
                else:
                    assert client.set(key, "2") is True
            free = next(key for key in keys if key not in held_back)
            assert run_script(client, SCRIPT, [free], ["3"]) == b"3"
            with pytest.raises(OutcomeUnknownError):
                run_script(client, SCRIPT, [next(iter(held_back))], ["3"])
        client.close()
