"""``bench/review.py`` plays and reviews seeded matches and prints one JSON object (a tiny run; nothing timed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_bench_run_prints_one_json_object() -> None:
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'server'}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "review.py"), "--matches", "2", "--hands", "1", "--deals", "8"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=True,
    )
    (line,) = done.stdout.strip().splitlines()
    found = json.loads(line)
    assert found["matches"] == 2 and found["hands"] == 1 and found["deals"] == 8
    assert 0 < found["seconds_p50"] <= found["seconds_p95"] <= found["seconds_max"]
    assert found["decisions_p50"] > 20
    assert set(found["grades"]) <= {"forced", "good", "inaccuracy", "mistake", "blunder"}
    assert abs(sum(found["grades"].values()) - 1.0) < 0.01
