"""The tournament's own server: a private Redis and ``tienlen serve`` on free ports, with its request log.

Nothing of the machine's is used: the Redis is a :class:`~tienlen.local_redis.LocalRedis`
in the tournament's work directory (no append-only file: the matches are
thrown away), and the server is ``python -m tienlen serve`` on a free port of
127.0.0.1 with rate limits off (every outside bot calls from the same address)
and the request log on, which is where refused actions are counted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Self

from tienlen_client import ApiError, Client, RetryPolicy

from tienlen.bots import DEFAULT_BUDGET_S
from tienlen.local_redis import LocalRedis, free_port
from tienlen.local_redis.group import ServerGroup

from .processes import stop_process

__all__ = ["ILLEGAL_STATUSES", "PrivateServer", "refused_actions"]

_START_TIMEOUT_S = 60.0
_STOP_TIMEOUT_S = 20.0

ILLEGAL_STATUSES = frozenset({400, 422})
"""Answers to ``POST …/actions`` that mean the action itself was wrong (malformed, or against the rules).

409 (``not_your_turn``, ``stale_version``) is not counted: a bot may lose a race
with the tournament acting for it after a timeout.
"""


class PrivateServer(ServerGroup):
    """``tienlen serve`` on a private Redis, started by :meth:`start` (or ``with``) and stopped by :meth:`stop`."""

    def __init__(self, work_dir: Path, *, workers: int = 2, bot_budget_s: float = DEFAULT_BUDGET_S) -> None:
        """Keep the options; ``work_dir`` receives the Redis files and ``server.log``."""
        self.work_dir = work_dir
        self.workers = workers
        self.bot_budget_s = bot_budget_s
        self.redis = LocalRedis(work_dir / "redis", appendonly=False)
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's base URL (``http://127.0.0.1:PORT``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        """The server's output: its JSON request log and any error."""
        return self.work_dir / "server.log"

    def start(self) -> Self:
        """Start Redis, then the server; return once ``/healthz`` answers ok (RuntimeError with the log if not)."""
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.redis.start()
        self.port = free_port()
        env = os.environ | {
            "REDIS_URL": self.redis.url,
            "TIENLEN_BOT_BUDGET": str(self.bot_budget_s),
            "TIENLEN_LOG_LEVEL": "INFO",
            "TIENLEN_LOG_FORMAT": "json",  # refused_actions reads the request lines as JSON
            "TIENLEN_RATE_LIMITS": "off",
        }
        command = [sys.executable, "-m", "tienlen", "serve", "--port", str(self.port), "--workers", str(self.workers)]
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + _START_TIMEOUT_S
        with Client(self.url, timeout=2, retry=RetryPolicy(attempts=1)) as client:
            while time.monotonic() < deadline and self._process.poll() is None:
                try:
                    if client.health() == {"status": "ok"}:
                        return self
                except (ApiError, OSError, ValueError):
                    pass  # not listening yet, or Redis not ready
                time.sleep(0.1)
        tail = self.log_path.read_text(encoding="utf-8", errors="replace")[-2000:]
        self.stop()
        raise RuntimeError(f"the tournament's server did not start:\n{tail}")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL) and its Redis."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            stop_process(process, _STOP_TIMEOUT_S)
        self.redis.stop()

    def refused_actions(self) -> Counter[str]:
        """How many actions each match's seats sent that were refused as malformed or illegal (see the log)."""
        return refused_actions(self.log_path)


def refused_actions(log_path: Path) -> Counter[str]:
    """Count, per match id, the ``POST …/actions`` answered with an :data:`ILLEGAL_STATUSES` status in a request log."""
    counts: Counter[str] = Counter()
    if not log_path.exists():
        return counts
    with log_path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if not line.startswith("{"):
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if (
                isinstance(entry, dict)
                and entry.get("method") == "POST"
                and str(entry.get("route", "")).endswith("/actions")
                and entry.get("status") in ILLEGAL_STATUSES
                and entry.get("match_id")
            ):
                counts[str(entry["match_id"])] += 1
    return counts
