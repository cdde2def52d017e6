"""``bench/http_load.py`` (``make bench-http``) keeps working against the current server: a tiny run plays real
matches in both modes and the server refuses nothing. Nothing is timed.

(Whether a seat's view gives exactly the referee's legal plays is checked by
the engine's property tests; the lowest play rarely reaches the edge cases.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("mode", [[], ["--ask-legal"]], ids=["from-view", "ask-legal"])
def test_a_short_benchmark_run_plays_matches_without_errors(mode: list[str]) -> None:
    command = [sys.executable, str(ROOT / "bench" / "http_load.py"), "--rounds", "1", "--duration", "2"]
    command += ["--ceiling-duration", "0.5", "--threads", "3", "--workers", "1", "--server-threads", "4", *mode]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    assert figures["errors"] == 0, figures["error_samples"]
    assert figures["actions"] > 20 and figures["ceiling_per_s"] > 0
    assert figures["mode"] == ("ask-legal" if mode else "view")
    assert len(figures["rounds"]) == 1 and figures["p99_ms"] >= figures["p50_ms"] > 0
