"""Master's targets (`make bench-master`): its edge over Expert deal by deal, its first places, its clock, its load.

- the weights' load: seconds to read ``master_net.bin`` in a fresh process
  (median of ``--loads``), and the file's size;
- Master against Expert, deal by deal over ``--deals`` duplicate deals against
  three Mediums at the server's bot budget (``--budget``): the difference in
  first places and points with 95 % intervals (``tienlen arena --tested
  master --baseline expert``); Master's own first-place rate there is its rate
  against three Mediums;
- Master's decision median and p99 (ms) in that run, against its budget
  (its effort times the bot budget: ten budgets).

Prints one line a figure and writes them as JSON (``--json``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from tienlen.bots.arena import ArenaConfig, format_difference, run_versus_baseline
from tienlen.bots.driver import decision_budget_s
from tienlen.bots.master_net import NET_PATH

LOAD = (
    "import time; t = time.perf_counter(); from tienlen.bots.master_net import shipped_net; "
    "assert shipped_net() is not None; print(time.perf_counter() - t)"
)


def load_seconds(loads: int) -> list[float]:
    """Seconds to import the reader and read the shipped weights, each in a fresh process."""
    return [float(subprocess.check_output([sys.executable, "-c", LOAD], text=True)) for _ in range(loads)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    loads = load_seconds(args.loads)
    result: dict[str, Any] = {
        "weights_bytes": NET_PATH.stat().st_size,
        "load_s_median": round(statistics.median(loads), 3),
        "load_s_max": round(max(loads), 3),
    }
    print(f"weights: {result['weights_bytes']} bytes, load median {result['load_s_median']} s", file=sys.stderr)
    config = ArenaConfig(
        tested="master", opponent="medium", deals=args.deals, preset="standard", seed=args.seed, budget_s=args.budget
    )
    summary = run_versus_baseline(config, "expert", args.processes)
    print(format_difference(summary))
    timing = summary["decision_ms"]["master"]
    result |= {
        "deals": args.deals,
        "budget_s": decision_budget_s(["master"], args.budget),
        "versus_expert": summary["versus_baseline"],
        "master_first_rate": summary["first_rate"],
        "master_first_rate_ci95": summary["first_rate_ci95"],
        "expert_first_rate": summary["baseline"]["first_rate"],
        "expert_first_rate_ci95": summary["baseline"]["first_rate_ci95"],
        "master_decision_ms": timing,
        "expert_decision_ms": summary["baseline"]["decision_ms"]["expert"],
    }
    print(
        f"master vs 3 medium: {result['master_first_rate']} {result['master_first_rate_ci95']} first places "
        f"(expert {result['expert_first_rate']}); decision median {timing['median']} ms, p99 {timing['p99']} ms "
        f"(budget {result['budget_s'] * 1000:.0f} ms)"
    )
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
