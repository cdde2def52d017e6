"""``bench/master_net.py`` (``make bench-master-net``) keeps working: it times Master's network compiled and in pure
Python on the same decisions and finds the same estimates, and times Master's decision."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.tools import require_tool
from tienlen.bots import compiled
from tienlen.engine.accel import BUILD_HINT

ROOT = Path(__file__).resolve().parents[1]


def test_a_one_hand_run_times_both_networks_and_finds_them_alike() -> None:
    require_tool("tienlen_native", compiled.CORE is not None, f"the compiled core is not built: {BUILD_HINT}")
    command = [sys.executable, str(ROOT / "bench" / "master_net.py"), "--hands", "1", "--searches", "2", "--json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    assert figures["decisions"] >= 5 and figures["estimates"] > figures["decisions"]
    assert figures["estimates_differing"] == 0 or sys.version_info >= (3, 12)  # 3.12's sum compensates
    assert figures["master_decisions"] == 2
    assert set(figures["network"]) == {"compiled", "python"}
    for times in [*figures["network"].values(), figures["master"]]:
        assert 0 < times["median_ms"] <= times["p90_ms"]
