"""``bench/env.py`` (``make bench-env``) keeps working and reports every figure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tienlen.engine.accel import ENGINE

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_run_prints_the_steps_and_hands_a_second_of_the_environment_and_its_core() -> None:
    """Rule: the bench prints one JSON object with positive steps and hands a second, and names the target."""
    command = [sys.executable, str(ROOT / "bench" / "env.py"), "--seconds", "0.3", "--rounds", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout)
    for key in ("aec_steps_per_s", "aec_steps_per_cpu_s", "aec_steps_per_s_without_view", "core_steps_per_s"):
        assert figures[key] > 100, key
    assert figures["aec_hands_per_s"] > 0 and figures["core_hands_per_s"] > 0
    assert figures["target_steps_per_s"] == 50_000 and figures["engine"] == ENGINE  # the subprocess selects alike
