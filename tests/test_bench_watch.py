"""``bench/watch.py`` (``make bench-watch``) keeps working against the current server: a tiny run (20 spectators of
one live match on 2 workers) holds every spectator, counts them in the match, and every spectator receives every
event of the match exactly once, in order. Nothing is timed: latencies are printed, not asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_watch_run_delivers_every_play_to_every_spectator() -> None:
    """Rule: with 20 spectators (streams and long polls naming a watcher) no event of the live match is missed,
    and the match counts all 20."""
    command = [sys.executable, str(ROOT / "bench" / "watch.py"), "--spectators", "20", "--duration", "2"]
    command += ["--rate", "5", "--drain", "10", "--waiter-processes", "1", "--polls", "0.5"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    assert figures["spectators"] == figures["spectators_requested"] == 20
    assert figures["spectators_counted"] == 20
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["missed_events"] == 0
    assert figures["actions_watched"] > 3 and figures["deliveries"] >= 20 * figures["actions_watched"]
    assert figures["delivery_p99_ms"] >= figures["delivery_p50_ms"] > 0
    assert figures["server"] == {"workers": 2, "worker_class": "gevent"}
