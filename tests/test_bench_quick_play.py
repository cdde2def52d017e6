"""The quick-play benchmark runs and reports what it promises (a small run)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import quick_play


def test_a_small_run_seats_everyone_once_and_reports_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """Rule: every ticket is matched exactly once (none lost, none doubled) and the figures are all there."""
    quick_play.main(["--accounts", "40", "--rate", "80", "--fill", "1", "--servers", "2"])
    figures = json.loads(capsys.readouterr().out)
    assert figures["lost"] == 0 and figures["doubled"] == 0
    assert figures["tables"] >= 10 and figures["wait_p95_s"] <= 1 + 2
    for key in ("wait_p50_s", "wait_max_s", "tables_with_bots", "seated_with_bots", "spread_mean", "target_met"):
        assert key in figures
