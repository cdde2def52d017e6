"""Waiting until a primary's replicas copy what it writes.

A replica that says ``master_link_status: up`` and that its primary lists as
``state=online`` may still receive nothing: after a diskless sync the primary
holds back its command stream (and the ``GETACK`` of every ``WAIT``) until the
replica's first ``REPLCONF ACK``, which it sends once a second. A ``WAIT`` in
that second times out although the replica is healthy. :func:`wait_for_copies`
waits until the primary has had a write of its own acknowledged, the only
sign that the next ``WAIT`` will be answered (:class:`~.cluster.LocalCluster`
waits so for each of its primaries).
"""

from __future__ import annotations

import time
from typing import Any

import redis

from .process import LocalRedis

__all__ = ["wait_for_copies"]

_CHANNEL = "tienlen:local-redis:sync"  # a PUBLISH is copied to the replicas and changes no data
_ROUND_MS = 200


def wait_for_copies(primary: LocalRedis, replicas: int = 1, timeout_s: float = 30.0, *, key: str | None = None) -> None:
    """Wait until ``replicas`` replicas of ``primary`` acknowledge its writes; raise ``RuntimeError`` after
    ``timeout_s``.

    A standalone primary is sent a ``PUBLISH``, which changes no data. A Cluster's primary copies no ``PUBLISH``
    to its replicas: give ``key``, a key of one of its slots, which is written (set to an empty string) instead.
    """
    client: Any = primary.client(socket_timeout=_ROUND_MS / 1000 + 1.0)
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            try:
                if key is None:
                    client.publish(_CHANNEL, "")
                else:
                    client.set(key, "")
                if client.execute_command("WAIT", replicas, _ROUND_MS) >= replicas:
                    return
            except (redis.ConnectionError, redis.TimeoutError):
                time.sleep(0.05)
    finally:
        client.close()
    raise RuntimeError(f"{primary} did not get {replicas} replicas copying its writes within {timeout_s} s")
