"""``bench/strength.py`` (``make bench-strength``) and ``bench/master.py`` (``make bench-master``) keep working.

A tiny strength run (random, easy and the network alone, 2 deals a cell) prints its three tables with the
command of each row and writes its JSON; Master's bench reads the shipped weights in a fresh process. Nothing is
asserted of the figures themselves (too few deals): the benchmarks print them (docs/bots.md#the-strength-table).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_strength_run_prints_the_matrix_the_ladder_and_the_ratings(tmp_path: Path) -> None:
    """Rule: each row level meets three of each other column level; each ladder step is a deal-by-deal
    difference with its interval; the round robin rates the levels; each row names the command that repeats it."""
    out = tmp_path / "strength.json"
    command = [sys.executable, str(ROOT / "bench" / "strength.py"), "--rows", "random,easy,policy"]
    command += ["--columns", "random,easy", "--ladder", "easy,policy", "--deals", "2", "--search-deals", "1"]
    command += ["--ladder-deals", "2", "--rating-deals", "2", "--rating-levels", "random,easy", "--processes", "1"]
    command += ["--quiet", "--json", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(out.read_text())
    cells = {(c["tested"], c["opponent"]) for c in result["matrix"]}
    assert cells == {("random", "easy"), ("easy", "random"), ("policy", "random"), ("policy", "easy")}
    assert all(c["command"].startswith("tienlen arena --tested") for c in result["matrix"])
    assert [(r["tested"], r["versus_baseline"]["level"]) for r in result["ladder"]] == [
        ("easy", "random"),
        ("policy", "medium"),
    ]
    assert all(len(r["versus_baseline"]["first_rate_ci95"]) == 2 for r in result["ladder"])
    assert {row["level"] for row in result["ratings"]["ratings"]} == {"random", "easy"}
    assert "| **policy** |" in run.stdout and "| easy − random |" in run.stdout


def test_masters_bench_reads_the_shipped_weights_in_a_fresh_process() -> None:
    spec = importlib.util.spec_from_file_location("bench_master", ROOT / "bench" / "master.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    seconds = module.load_seconds(1)
    assert len(seconds) == 1 and 0 < seconds[0] < 60
