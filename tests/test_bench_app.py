"""``bench/app_start.py`` (``make bench-app``) keeps working: a tiny run prints both figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_run_prints_the_cost_of_making_an_app_and_of_its_first_document_read() -> None:
    command = [sys.executable, str(ROOT / "bench" / "app_start.py"), "--apps", "4"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    assert figures["apps"] == 4
    for step in ("create_app", "first_document_read"):
        assert 0 < figures[step]["q1_ms"] <= figures[step]["median_ms"] <= figures[step]["q3_ms"], figures
