"""``bench/waiting.py`` (``make bench-waiting``) keeps working against the current server: a tiny run holds every
waiting client (streams and long polls), plays real matches, and every waiter receives every event of its match
exactly once, in order. Nothing is timed: latencies are printed, not asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_waiting_run_delivers_every_event_to_every_waiter() -> None:
    command = [sys.executable, str(ROOT / "bench" / "waiting.py"), "--streams", "24", "--polls", "24"]
    command += ["--matches", "12", "--threads", "2", "--duration", "3", "--drain", "10", "--workers", "1"]
    command += ["--waiter-processes", "1", "--probe-interval", "0.2"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    assert figures["waiters"] == figures["waiters_requested"] == 48
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["missed_events"] == 0
    assert figures["actions"] > 20 and figures["deliveries"] >= figures["actions"]
    assert figures["delivery_p99_ms"] >= figures["delivery_p50_ms"] > 0
    assert figures["healthz_probes"] > 0 and figures["redis_clients"] > 0
    assert figures["server"]["worker_class"] == "gevent"
