"""A real ``tienlen serve`` process (gunicorn) for the tests that talk HTTP over a socket."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

__all__ = ["MODERATOR_TOKEN", "ServerStarter", "start_server", "stop_server"]

ServerStarter = Callable[..., subprocess.Popen[bytes]]
"""The type of :func:`start_server` (the ``server_starter`` fixture)."""

# a liveness guard, not a measure: once seen over 30 s on a slow 2-core machine at three times its cores' load
_START_TIMEOUT_S = 60.0

MODERATOR_TOKEN = "moderator-of-the-web-tests-0123456789abcdef"
"""The moderator token of the ``social_server`` fixture (tests/conftest.py)."""


def start_server(
    redis_url: str,
    port: int,
    log: Path,
    *,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = ("--workers", "1"),
) -> subprocess.Popen[bytes]:
    """Run ``python -m tienlen serve`` on ``port`` against ``redis_url``; wait until healthy.

    The server's output is appended to ``log``; by default one (gevent) worker,
    a small bot budget, no rate limits (the tests send many requests from
    one address; tests/api/test_api_limits.py turns them on) and hosting
    without an account (the account tests turn it off); ``env`` adds or
    overrides variables, ``args`` replaces the worker options. Fails the test (with the log's tail) when the server is
    not healthy within 60 seconds.
    """
    variables = os.environ | {"REDIS_URL": redis_url, "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_BOT_BUDGET": "0.02"}
    variables |= {"TIENLEN_RATE_LIMITS": "off", "TIENLEN_ANONYMOUS_HOSTING": "1"}
    variables |= dict(env or {})
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tienlen", "serve", "--port", str(port), *args],
            env=variables,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + _START_TIMEOUT_S
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if json.loads(response.read()) == {"status": "ok"}:
                    return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    process.wait()
    raise AssertionError(f"the server did not start: {log.read_text()[-2000:]}")


def stop_server(process: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    """SIGTERM the server and wait for it to exit."""
    process.terminate()
    process.wait(timeout=timeout)
