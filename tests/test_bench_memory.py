"""``bench/memory.py`` (``make bench-memory``) keeps working, an active 4-seat match stays within 8 KB of Redis, and a
kept 4-player one-hand match (a player's history) within 2 KB.

The match's creates and actions all send an ``Idempotency-Key``, as the clients do: the kept answers count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACTIVE_BUDGET_BYTES = 8 * 1024
KEPT_BUDGET_BYTES = 2 * 1024


def test_a_short_memory_run_prints_every_kind_and_an_active_match_fits_in_8_kb() -> None:
    command = [sys.executable, str(ROOT / "bench" / "memory.py"), "--matches", "8"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout)
    for kind in ("waiting", "active_4_seats", "active_4_seats_without_keys", "finished", "kept"):
        assert figures[kind]["memory_usage_bytes"] > 0, kind
    assert figures["active_4_seats"]["events"] > 4, "the active matches were played into"
    assert figures["finished"]["events"] > figures["active_4_seats"]["events"]
    assert figures["active_4_seats"]["memory_usage_bytes"] <= ACTIVE_BUDGET_BYTES, figures["active_4_seats"]
    kept = figures["kept"]
    assert kept["kept_per_match"] == 1 and kept["memory_usage_max_bytes"] <= KEPT_BUDGET_BYTES, kept
    keyed, bare = figures["active_4_seats"], figures["active_4_seats_without_keys"]
    assert keyed["memory_usage_bytes"] > bare["memory_usage_bytes"], "the kept answers are measured"
