"""Bot strength and speed benchmark (`make bench-bots`): the arena comparisons of the bots issue.

Runs, under the standard preset with one hand a game and duplicate deals:
Easy vs 3×random, Medium vs 3×Easy, Hard vs 3×Medium, Hard vs 3×Easy, Expert
vs 3×Medium (with Hard replaying Expert's seats on the same deals: its edge
deal by deal, ``tienlen arena --baseline``), and prints a table (stderr) and
the summaries as JSON (stdout), each with its target. The searching levels play on their fixed search counts
(no clock: reproducible; their decision times show what the clock would cut).
``--quick`` plays fewer deals and ``--deals N`` N in each comparison; ``--hints`` also times hints
in the Hard rows.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from tienlen.bots.arena import ArenaConfig, format_difference, format_table, run_arena, run_versus_baseline

FULL = {"easy_random": 2000, "medium_easy": 2000, "hard_medium": 1000, "hard_easy": 500, "expert_medium": 1000}
QUICK = {"easy_random": 200, "medium_easy": 300, "hard_medium": 60, "hard_easy": 60, "expert_medium": 20}
TARGETS = {
    "easy_random": "first_rate >= 0.70",
    "medium_easy": "first_rate >= 0.40",
    "hard_medium": "first_rate >= 0.40 and ci95 low > 0.37",
    "hard_easy": "first_rate > hard_medium first_rate",
    "expert_medium": "edge over hard on the same deals: first_rate or mean_points ci95 low > 0",
}
# Decision time p99 (ms) on a quiet machine, per level (hint: the hints timed with --hints); Expert's budget is 1 s.
P99_TARGETS_MS = {"easy": 20.0, "medium": 20.0, "hard": 300.0, "hint": 300.0, "expert": 1500.0}
# Rows judged by their edge over another level replaying the tested seats on the same deals (deal by deal):
# Expert must be measurably stronger than Hard.
BASELINES = {"expert_medium": "hard"}
PAIRS = {
    "easy_random": ("easy", "random"),
    "medium_easy": ("medium", "easy"),
    "hard_medium": ("hard", "medium"),
    "hard_easy": ("hard", "easy"),
    "expert_medium": ("expert", "medium"),
}


def _met(name: str, row: dict[str, Any], rows: dict[str, dict[str, Any]]) -> bool:
    rate, low = row["first_rate"], row["first_rate_ci95"][0]
    if name == "easy_random":
        return bool(rate >= 0.70)
    if name == "medium_easy":
        return bool(rate >= 0.40)
    if name == "hard_medium":
        return bool(rate >= 0.40 and low > 0.37)
    if name in BASELINES:
        edge = row["versus_baseline"]
        return bool(edge["first_rate_ci95"][0] > 0 or edge["mean_points_ci95"][0] > 0)
    return "hard_medium" in rows and bool(rate > rows["hard_medium"]["first_rate"])


def _p99_met(row: dict[str, Any]) -> dict[str, bool]:
    """Whether each timed level's decision p99 is under its target (meaningful on a quiet machine only)."""
    return {
        level: bool(times["p99"] < P99_TARGETS_MS[level])
        for level, times in row["decision_ms"].items()
        if level in P99_TARGETS_MS
    }


def main(argv: list[str]) -> int:
    """Run the comparisons and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer deals")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hints", action="store_true", help="also time hints in the hard_* rows")
    parser.add_argument("--deals", type=int, help="play this many deals in every comparison")
    parser.add_argument("--only", choices=sorted(PAIRS), action="append", help="run only these comparisons")
    args = parser.parse_args(argv)
    deals = QUICK if args.quick else FULL
    if args.deals is not None:
        deals = dict.fromkeys(PAIRS, args.deals)
    rows: dict[str, dict[str, Any]] = {}
    for name in args.only or list(PAIRS):
        tested, opponent = PAIRS[name]
        hints = args.hints and tested == "hard"
        config = ArenaConfig(tested, opponent, deals=deals[name], preset="standard", seed=args.seed, hints=hints)
        if name in BASELINES:
            rows[name] = run_versus_baseline(config, BASELINES[name], processes=args.processes, progress=True)
        else:
            rows[name] = run_arena(config, processes=args.processes, progress=True)
    for name, row in rows.items():
        row["target"] = TARGETS[name]
        row["target_met"] = _met(name, row, rows)
        row["p99_target_met"] = _p99_met(row)
    print(format_table(list(rows.values())), file=sys.stderr)
    for row in rows.values():
        if "versus_baseline" in row:
            print(format_difference(row), file=sys.stderr)
    machine = {"machine_cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps({**machine, "results": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
