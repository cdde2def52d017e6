"""``bench/engine.py`` (``make bench-engine``) keeps working and reports both engines side by side."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tienlen.engine.accel import load_core

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_run_reports_each_engine_and_the_ratios() -> None:
    """Rule: one JSON object; the pure engine always, the compiled core and its own playouts when it is built."""
    command = [sys.executable, str(ROOT / "bench" / "engine.py"), "--rounds", "1", "--seconds", "0.2"]
    command += ["--samples", "200"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    engines = ["python"] if load_core() is None else ["python", "compiled"]
    for engine in engines:
        assert figures[engine]["selfplay_hands_per_s"] > 10 and 0 < figures[engine]["legal_lead_us"] < 1000
    assert ("compiled" in figures) == (len(engines) == 2) and "peer" not in figures
    if "compiled" in figures:
        assert figures["compiled"]["core_selfplay_hands_per_s"] > 1000
        assert figures["ratios"]["core_vs_python"] > 1
    assert figures["ratios"]["core_vs_peer_target"] == 20
