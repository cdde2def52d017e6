"""``bench/tournament.py`` (``make bench-tournament``) keeps working against the current server: a tiny Swiss (10
entrants, so two tables take a house bot, 2 rounds at tables of 4 on 2 workers, one worker killed in round 2) is
played to its end with every table made once and recorded once, and the standings rank every entrant once. Nothing
is timed: the seating delays are printed, not asserted.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_tiny_swiss_finishes_with_nothing_lost_or_doubled_though_a_worker_was_killed() -> None:
    """Rule: a tournament's tables are made once and each recorded once, whatever worker dies mid-round."""
    command = [sys.executable, str(ROOT / "bench" / "tournament.py"), "--entrants", "10", "--rounds", "2"]
    command += ["--kill-round", "2", "--threads", "3", "--timeout", "240"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(result.stdout)
    assert figures["status"] == "finished" and figures["rounds_played"] == 2
    assert figures["tables"] == [3, 3] and figures["tables_planned_a_round"] == 3
    assert figures["doubled"] == 0 and figures["lost"] == 0
    assert figures["killed_workers"] == 1
    assert figures["standings_rank_everyone_once"]
    assert figures["errors"] == 0, figures["error_samples"]
    assert len(figures["seated_after_s"]) == 1
