"""``bench/duplicate.py`` (``make bench-duplicate``) keeps working: a tiny run (8 easy bots, 4 deals at 2 tables,
one event) prints its figures as one JSON object. Nothing is asserted of the spreads (too few deals)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_duplicate_run_prints_its_figures() -> None:
    """Rule: the bench plays a duplicate and a Swiss event and reports both spreads and their ratio."""
    command = [sys.executable, str(ROOT / "bench" / "duplicate.py"), "--entrants", "8", "--deals", "4"]
    command += ["--hands", "2", "--events", "1", "--processes", "1"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    figures = json.loads(run.stdout)
    assert figures["entrants"] == 8 and figures["tables"] == 2 and figures["deals"] == 4
    for key in ("duplicate_sd", "raw_sd", "raw_sd_same_deals", "control_sd"):
        assert 0 <= figures[key] <= 50
    assert figures["ratio"] is None or figures["ratio"] >= 0
