"""The strength table (`make bench-strength`): every level against every other, deal by deal, with 95 % intervals.

Three parts, each on seeded duplicate deals (every deal played once with the
tested level in each seat), at the server's bot budget (``--budget``, Hard's
seconds a decision; Expert and Master take five):

- **the matrix**: each level (and ``policy``, Master's network alone) against
  three of each other level: its first-place rate and mean place points, with
  95 % intervals over deals (``--deals``; a cell whose opponents search plays
  ``--search-deals``: three searching seats cost far more a game);
- **the ladder**: each level against the one below it, deal by deal against
  three Mediums (``--ladder-deals``): the first-place and points edge, with
  95 % intervals over deals (``tienlen arena --baseline``);
- **the ratings**: Elo from a round robin of the four strongest levels at one
  table (``--rating-deals``; ``tienlen arena --ratings``).

Prints each part as a Markdown table with the command that reproduces each
row, and writes everything as JSON (``--json``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path
from typing import Any

from tienlen.bots.arena import ArenaConfig, run_arena, run_versus_baseline
from tienlen.bots.driver import BOT_LEVELS
from tienlen.bots.roundrobin import RatingsConfig, format_ratings, run_ratings

SEARCHING = {level.name for level in BOT_LEVELS if level.effort}
LEVELS = ("random", *(level.name for level in BOT_LEVELS))
ROWS = (*LEVELS, "policy")  # "policy": Master's network alone, no search


def _cell(tested: str, opponent: str, deals: int, args: argparse.Namespace) -> dict[str, Any]:
    config = ArenaConfig(
        tested=tested, opponent=opponent, deals=deals, preset="standard", seed=args.seed, budget_s=args.budget
    )
    summary = run_arena(config, args.processes, progress=not args.quiet)
    summary["command"] = (
        f"tienlen arena --tested {tested} --opponent {opponent} --deals {deals} --seed {args.seed} "
        f"--budget {args.budget} --processes {args.processes}"
    )
    return summary


def _interval(pair: list[float], scale: float = 1.0, digits: int = 1) -> str:
    low, high = pair
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def matrix(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Every row level against three of every other level."""
    cells = []
    for tested in args.rows:
        for opponent in args.columns:
            if opponent == tested:
                continue
            deals = args.search_deals if opponent in SEARCHING else args.deals
            started = time.monotonic()
            cell = _cell(tested, opponent, deals, args)
            cell["seconds"] = round(time.monotonic() - started, 1)
            cells.append(cell)
            print(
                f"{tested} vs 3 {opponent}: {cell['first_rate']:.3f} {cell['first_rate_ci95']} "
                f"({deals} deals, {cell['seconds']} s)",
                file=sys.stderr,
            )
    return cells


def ladder(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Each level against the one below it, deal by deal, against three Mediums."""
    rows = []
    steps = [(upper, lower) for lower, upper in itertools.pairwise(LEVELS)]
    steps.append(("policy", "medium"))
    for upper, lower in steps:
        if upper not in args.ladder:
            continue
        config = ArenaConfig(
            tested=upper,
            opponent="medium",
            deals=args.ladder_deals,
            preset="standard",
            seed=args.seed,
            budget_s=args.budget,
        )
        summary = run_versus_baseline(config, lower, args.processes, progress=not args.quiet)
        summary["command"] = (
            f"tienlen arena --tested {upper} --baseline {lower} --opponent medium --deals {args.ladder_deals} "
            f"--seed {args.seed} --budget {args.budget} --processes {args.processes}"
        )
        rows.append(summary)
        diff = summary["versus_baseline"]
        print(f"{upper} - {lower}: {diff['first_rate']:+.4f} {diff['first_rate_ci95']}", file=sys.stderr)
    return rows


def ratings(args: argparse.Namespace) -> dict[str, Any]:
    """Elo ratings from a round robin of the strongest levels."""
    levels = tuple(args.rating_levels)
    config = RatingsConfig(
        deals=args.rating_deals, preset="standard", seed=args.seed, levels=levels, budget_s=args.budget
    )
    summary = run_ratings(config, args.processes, progress=not args.quiet)
    summary["command"] = (
        f"tienlen arena --ratings --levels {','.join(levels)} --deals {args.rating_deals} --seed {args.seed} "
        f"--budget {args.budget} --processes {args.processes}"
    )
    return summary


def markdown(result: dict[str, Any]) -> str:
    """The three parts as Markdown tables."""
    out = ["### Each level against three of another (first places %, 95 % interval)", ""]
    cells = {(c["tested"], c["opponent"]): c for c in result["matrix"]}
    columns = list(result["columns"])
    out.append("| tested \\ 3 opponents | " + " | ".join(columns) + " |")
    out.append("|---" * (len(columns) + 1) + "|")
    for tested in result["rows"]:
        row = [f"**{tested}**"]
        for opponent in columns:
            cell = cells.get((tested, opponent))
            row.append(
                "—" if cell is None else f"{cell['first_rate'] * 100:.1f} {_interval(cell['first_rate_ci95'], 100)}"
            )
        out.append("| " + " | ".join(row) + " |")
    out += ["", "### Each level against the one below it, deal by deal, against three Mediums", ""]
    out.append(
        "| level − level below | deals | first places (% points) | 95 % interval "
        "| place points a game | 95 % interval |"
    )
    out.append("|---|---|---|---|---|---|")
    for row in result["ladder"]:
        diff = row["versus_baseline"]
        out.append(
            f"| {row['tested']} − {diff['level']} | {row['deals']} | {diff['first_rate'] * 100:+.2f} | "
            f"{_interval(diff['first_rate_ci95'], 100, 2)} | {diff['mean_points']:+.3f} | "
            f"{_interval(diff['mean_points_ci95'], 1, 3)} |"
        )
    if result.get("ratings"):
        out += ["", "### Ratings (Elo; random = 0 when it plays, else the weakest level listed = 0)", ""]
        out.append("```")
        out.append(format_ratings(result["ratings"]))
        out.append("```")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="deals a matrix cell whose opponents do not search")
    parser.add_argument("--search-deals", type=int, default=100, help="deals a cell whose opponents search")
    parser.add_argument("--ladder-deals", type=int, default=500)
    parser.add_argument("--rating-deals", type=int, default=0, help="0: no round robin")
    parser.add_argument("--rating-levels", default="medium,hard,expert,master")
    parser.add_argument("--rows", default=",".join(ROWS))
    parser.add_argument("--columns", default=",".join(LEVELS))
    parser.add_argument("--ladder", default=",".join(ROWS))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    args.rows = args.rows.split(",")
    args.columns = args.columns.split(",")
    args.ladder = args.ladder.split(",")
    args.rating_levels = args.rating_levels.split(",")
    started = time.monotonic()
    result: dict[str, Any] = {"rows": args.rows, "columns": args.columns, "budget_s": args.budget}
    result["matrix"] = matrix(args) if args.deals or args.search_deals else []
    result["ladder"] = ladder(args) if args.ladder_deals else []
    result["ratings"] = ratings(args) if args.rating_deals else None
    result["seconds"] = round(time.monotonic() - started, 1)
    print(markdown(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
