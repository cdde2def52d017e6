"""``bench/inference.py`` (``make bench-inference``) keeps working: each model it names is scored by phase against
the uniform guess on the same decisions, and a uniform guess scores no gain over itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_one_deal_run_scores_every_model_it_names_against_uniform() -> None:
    command = [sys.executable, str(ROOT / "bench" / "inference.py"), "--deals", "1", "--processes", "1"]
    command += ["--chain-every", "6", "--particles", "16", "--chains", "2"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    rows = json.loads(result.stdout)["rows"]
    for name in ("uniform", "model", "particles@sub", "chains@sub", "uniform@sub"):
        assert rows[f"{name}/all"]["cards"] > 0, name
        assert 0.0 <= rows[f"{name}/all"]["accuracy"] <= 1.0
    assert rows["uniform/all"]["gain"] == 0.0 and rows["uniform@sub/all"]["gain"] == 0.0
    # the subsampled models are scored on the same decisions as uniform@sub: as many cards
    assert rows["chains@sub/all"]["cards"] == rows["uniform@sub/all"]["cards"] == rows["particles@sub/all"]["cards"]
