"""``tienlen serve`` refuses a port that is already listened on, with a clear message."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from tienlen.cli import gunicorn_options, port_in_use
from tienlen.embedded_redis import EmbeddedRedis


def test_serve_on_a_taken_port_exits_at_once_with_the_reason(redis_server: EmbeddedRedis, tmp_path: Path) -> None:
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


def test_a_free_port_is_free() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert port_in_use("127.0.0.1", port) is None


def test_workers_each_listen_so_connections_spread_over_them() -> None:
    assert gunicorn_options("127.0.0.1", 8000, 2, 8)["reuse_port"] is True
