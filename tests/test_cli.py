"""``tienlen serve | openapi | arena``: options, the port check, the local Redis, its lock and its stop on SIGTERM."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.processes import alive, output_of_python
from tests.support.tools import require_tool
from tienlen import cli
from tienlen.local_redis import LocalRedis, free_port
from tienlen.logs import logging_config
from tienlen.serving import ServeConfig, TienLenApplication, gunicorn_options, port_in_use
from tienlen.settings import Settings


def test_serve_on_a_taken_port_exits_at_once_with_the_reason(redis_server: LocalRedis, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert port_in_use("127.0.0.1", port) is not None
        result = subprocess.run(
            [sys.executable, "-m", "tienlen", "serve", "--port", str(port), "--workers", "1"],
            env=os.environ | {"REDIS_URL": redis_server.url},
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr


@pytest.mark.parametrize("command", [["serve", "--workers", "1"], ["openapi"], ["replay", "-"]])
def test_a_bad_engine_switch_stops_every_command_with_one_line_and_status_2(command: list[str], tmp_path: Path) -> None:
    """Rule (settings): a TIENLEN_ENGINE the engine refuses is one line ``tienlen: ...`` and exit 2, no traceback."""
    result = subprocess.run(
        [sys.executable, "-m", "tienlen", *command],
        env=os.environ | {"TIENLEN_ENGINE": "turbo", "TIENLEN_DATA_DIR": str(tmp_path / "data")},
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "tienlen: TIENLEN_ENGINE='turbo': expected one of python, compiled (or unset)"
    ]
    assert not (tmp_path / "data").exists()


def test_a_free_port_is_free() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert port_in_use("127.0.0.1", port) is None


def test_workers_each_listen_so_connections_spread_over_them() -> None:
    assert gunicorn_options(ServeConfig("127.0.0.1", 8000, 2), max_waiters=10)["reuse_port"] is True


def test_serve_runs_gevent_workers_that_take_every_waiting_client() -> None:
    options = gunicorn_options(ServeConfig("127.0.0.1", 8123, 2), max_waiters=5000)
    assert options["bind"] == "127.0.0.1:8123"
    assert options["worker_class"] == "tienlen.http_workers.OneWriteGeventWorker"  # gunicorn's, in one write
    assert options["workers"] == 2 and options["worker_connections"] > 5000
    assert options["accesslog"] is None
    app = TienLenApplication(options, app_factory=lambda: None)  # type: ignore[arg-type,return-value]
    assert app.cfg.worker_class_str == "tienlen.http_workers.OneWriteGeventWorker"
    assert app.cfg.worker_connections > 5000
    assert app.cfg.bind == ["127.0.0.1:8123"]


def test_gunicorn_writes_the_servers_log_format() -> None:
    log_config = logging_config(Settings(log_format="json"))
    options = gunicorn_options(ServeConfig("127.0.0.1", 8123, 2), max_waiters=10, log_config=log_config)
    app = TienLenApplication(options, app_factory=lambda: None)  # type: ignore[arg-type,return-value]
    assert app.cfg.logconfig_dict == log_config


def test_serve_can_still_run_threaded_workers() -> None:
    options = gunicorn_options(ServeConfig("127.0.0.1", 8123, 2, "gthread", 8), max_waiters=5000)
    app = TienLenApplication(options, app_factory=lambda: None)  # type: ignore[arg-type,return-value]
    assert app.cfg.worker_class_str == "gthread"
    assert app.cfg.threads == 8


def test_cli_parses_subcommands() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve", "--port", "8765", "--workers", "3", "--threads", "4"])
    assert (args.host, args.port, args.workers, args.threads) == ("127.0.0.1", 8765, 3, 4)
    assert args.worker_class == "gevent"
    args = parser.parse_args(["serve", "--worker-class", "gthread"])
    assert args.worker_class == "gthread"
    args = parser.parse_args(["arena", "--games", "10", "--help"])
    assert args.arena_args == ["--games", "10", "--help"]


def test_cli_openapi_prints_sorted_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["openapi"]) == 0
    out = capsys.readouterr().out
    assert out.endswith("}\n")
    document = json.loads(out)
    assert "openapi" in document
    assert "paths" in document
    assert out == json.dumps(document, indent=2, sort_keys=True) + "\n"


def test_arena_help_needs_no_flask() -> None:
    script = (
        "import sys\n"
        "from tienlen import cli\n"
        "try:\n"
        "    cli.main(['arena', '--help'])\n"
        "except SystemExit as done:\n"
        "    assert done.code == 0, done.code\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('flask', 'flask_smorest')))\n"
    )
    lines = output_of_python(script)
    assert any("--tested" in line for line in lines)
    assert lines[-1] == "[]"


def test_serve_with_embedded_redis_stops_it_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["TIENLEN_DATA_DIR"] = str(tmp_path / "data")
    cmd = [sys.executable, "-m", "tienlen", "serve", "--port", str(port), "--workers", "1", "--threads", "2"]
    proc = subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    said: list[str] = []  # the rest of its output, read all along (a full pipe would stop the server)
    try:
        assert proc.stdout is not None
        banner = proc.stdout.readline().decode()
        assert f"127.0.0.1:{port}" in banner and "embedded Redis" in banner, banner
        match = re.search(r"\(pid (\d+),", banner)
        assert match, banner
        redis_pid = int(match.group(1))
        reader = threading.Thread(target=lambda: said.extend(line.decode() for line in proc.stdout or ()), daemon=True)
        reader.start()
        # a liveness guard, not a measure: on a loaded 2-core machine a start has taken over 6 s
        assert _healthy(port, within_s=60), f"not healthy within 60 s; it said: {''.join(said)[-2000:]}"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
        assert not alive(redis_pid)
        assert (tmp_path / "data" / "appendonlydir").is_dir()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


def _healthy(port: int, within_s: float = 30) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def test_a_second_serve_on_the_same_data_dir_exits_at_once_naming_the_first(tmp_path: Path) -> None:
    """Rule: exit 1 and one line naming the first server's pid and the way out; once it died, the dir is free."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env["TIENLEN_DATA_DIR"] = str(tmp_path / "data")
    cmd = [sys.executable, "-m", "tienlen", "serve", "--workers", "1", "--port"]
    first = subprocess.Popen([*cmd, str(free_port())], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    third: subprocess.Popen[bytes] | None = None
    try:
        assert first.stdout is not None
        banner = first.stdout.readline().decode()
        match = re.search(r"listening on http://127.0.0.1:(\d+) .*\(pid (\d+),", banner)
        assert match, banner
        port, redis_pid = int(match.group(1)), int(match.group(2))
        assert _healthy(port)
        started = time.monotonic()
        second = subprocess.run([*cmd, str(free_port())], env=env, capture_output=True, text=True, timeout=60)
        assert time.monotonic() - started < 10
        assert second.returncode == 1, second
        assert second.stdout == "" and len(second.stderr.splitlines()) == 1, second.stderr
        assert f"is in use by another server (pid {first.pid})" in second.stderr
        assert "TIENLEN_DATA_DIR" in second.stderr and "REDIS_URL" in second.stderr
        assert _healthy(port, within_s=2), "the first server was disturbed"

        first.kill()  # no clean stop: the lock file stays, its holders die (Redis on its parent's death)
        first.wait()
        deadline = time.monotonic() + 20
        while alive(redis_pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(redis_pid)
        third_port = free_port()
        third = subprocess.Popen([*cmd, str(third_port)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        healthy = _healthy(third_port)
        if not healthy:
            third.terminate()
        assert healthy, f"a lock left by a dead server blocked the next one: {third.communicate()[0].decode()}"
    finally:
        for process in (first, third):
            if process is None:
                continue
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=20)
            if process.stdout is not None:
                process.stdout.close()


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_first_log_line_says_which_engine_serves(engine: str) -> None:
    """Rule: `tienlen serve`'s first line names the engine in use, so an operator sees a server without its
    compiled core (and how to build it) before any player does."""
    from tienlen.engine import accel

    if engine == "compiled":
        require_tool("the compiled core", accel.CORE is not None, accel.BUILD_HINT)
    env = {**os.environ, "TIENLEN_ENGINE": engine}
    code = "from tienlen.serving import engine_note; print(engine_note())"
    note = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60).stdout
    if engine == "compiled":
        assert note.startswith("compiled"), note
    else:
        assert note.startswith("pure Python") and "make native" in note, note
