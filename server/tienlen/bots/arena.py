"""The bot arena: a tested level against copies of another over fixed seeded deals.

Duplicate deals: each deal is played again with the tested level in every seat, one
hand a game, under a chosen preset; places score ``players − 1 − place``. The
first-place rate and mean points carry 95% confidence intervals computed over
deals (each deal's seats averaged, so a deal's luck is not counted n times).

With ``--baseline LEVEL`` the same deals are played again with that level in
the tested seats, and the tested level's edge over it is reported deal by deal
(:func:`paired_difference`): the way to tell two strong levels apart.

With ``--ratings`` the command line plays the ratings round robin of
:mod:`.roundrobin` instead (random, easy, medium and hard by default, at one
table). This module also holds the arena's output table and ``tienlen arena``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from typing import Any

from ..engine import accel
from ..engine.match import LegalPlays, Match
from ..engine.rules import PRESET_NAMES, resolve_rules
from ..engine.views import SeatView
from .deal_set import deal_seed
from .driver import ARENA_LEVELS, RATED_LEVELS, bot_rng, hint, play_bot_turns
from .hard import search_scale
from .progress import progress_bar
from .roundrobin import RatingsConfig, format_ratings, run_ratings


@dataclass(slots=True)
class DealResult:
    """One duplicate deal: the deal played once with the tested level in each seat."""

    firsts: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What an arena run plays."""

    tested: str
    opponent: str
    deals: int
    preset: str
    seed: int
    players: int = 4
    iterations: int | None = None
    hints: bool = False
    budget_s: float | None = None


def play_deal(config: ArenaConfig, deal: int) -> DealResult:
    """Play one deal once per seat with the tested level in that seat."""
    result = DealResult()
    for tested_seat in range(config.players):
        place = _play_seated(config, deal, tested_seat, result.times)
        result.firsts.append(1 if place == 0 else 0)
        result.points.append(config.players - 1 - place)
    return result


def _play_seated(config: ArenaConfig, deal: int, tested_seat: int, times: dict[str, list[float]]) -> int:
    """Play the deal with the tested level in one seat; its place (0 = first). Decision times go to ``times``."""
    rules = resolve_rules({"preset": config.preset, "hands": 1}, players=config.players)
    match, _ = Match.new(rules, random.Random(deal_seed(config.seed, deal)))
    levels = {s: config.tested if s == tested_seat else config.opponent for s in range(config.players)}
    hinted = (tested_seat + 1) % config.players

    def timed(seat: int, level: str, view: SeatView, legal: LegalPlays, seconds: float) -> None:
        times.setdefault(level, []).append(seconds * 1000.0)
        if config.hints and seat == hinted:
            # As a human seat would ask: at an opponent's turn, so no search just ran on this view.
            start = time.perf_counter()
            hint(view, legal, bot_rng(match, seat))
            times.setdefault("hint", []).append((time.perf_counter() - start) * 1000.0)

    play_bot_turns(match, levels, budget_s=config.budget_s, iterations=config.iterations, on_decision=timed)
    return match.completed[0].places.index(tested_seat)


def _play_deal_args(args: tuple[ArenaConfig, int]) -> DealResult:
    return play_deal(*args)


def _mean_ci(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def play_arena(config: ArenaConfig, processes: int = 1, progress: bool = True) -> list[DealResult]:
    """Play every deal of the arena; the results in the order of the deals."""
    jobs = [(config, d) for d in range(config.deals)]
    results: list[DealResult] = []
    bar = progress_bar(config.deals, progress, f"{config.tested} vs {config.opponent}")
    if processes > 1:
        with Pool(processes) as pool:
            for res in pool.imap(_play_deal_args, jobs, chunksize=max(1, min(8, config.deals // 50))):
                results.append(res)
                next(bar, None)
    else:
        for job in jobs:
            results.append(_play_deal_args(job))
            next(bar, None)
    next(bar, None)
    return results


def run_arena(config: ArenaConfig, processes: int = 1, progress: bool = True) -> dict[str, Any]:
    """Play the arena and return its summary (rates, points, CIs, decision times)."""
    return summarize(config, play_arena(config, processes, progress))


def paired_difference(tested: list[DealResult], baseline: list[DealResult]) -> dict[str, Any]:
    """The tested level's edge over a baseline level played in its seats on the same deals, deal by deal.

    Each deal's first-place rate and mean points of the baseline are taken from
    the tested level's on that deal; the means of those differences carry 95 %
    intervals over deals. The deal's luck is the same for both, so the interval
    is far narrower than the two runs' own intervals compared side by side.
    """
    if len(tested) != len(baseline):
        raise ValueError("the two runs must play the same deals")
    firsts = [statistics.fmean(t.firsts) - statistics.fmean(b.firsts) for t, b in zip(tested, baseline, strict=True)]
    points = [statistics.fmean(t.points) - statistics.fmean(b.points) for t, b in zip(tested, baseline, strict=True)]
    first, first_lo, first_hi = _mean_ci(firsts)
    pts, pts_lo, pts_hi = _mean_ci(points)
    return {
        "first_rate": round(first, 4),
        "first_rate_ci95": [round(first_lo, 4), round(first_hi, 4)],
        "mean_points": round(pts, 4),
        "mean_points_ci95": [round(pts_lo, 4), round(pts_hi, 4)],
    }


def run_versus_baseline(
    config: ArenaConfig, baseline: str, processes: int = 1, progress: bool = True
) -> dict[str, Any]:
    """Play the arena, then again with ``baseline`` as the tested level; both summaries and their difference.

    The tested level's summary gains ``baseline`` (the baseline's summary) and
    ``versus_baseline`` (:func:`paired_difference`).
    """
    tested = play_arena(config, processes, progress)
    base_config = replace(config, tested=baseline)
    base = play_arena(base_config, processes, progress)
    summary = summarize(config, tested)
    summary["baseline"] = summarize(base_config, base)
    summary["versus_baseline"] = {"level": baseline, **paired_difference(tested, base)}
    return summary


def format_difference(summary: dict[str, Any]) -> str:
    """One line: the tested level's edge over its baseline, deal by deal."""
    diff = summary["versus_baseline"]
    lo, hi = diff["first_rate_ci95"]
    plo, phi = diff["mean_points_ci95"]
    return (
        f"{summary['tested']} - {diff['level']}, deal by deal over {summary['deals']} deals: "
        f"1st rate {diff['first_rate']:+.4f} [{lo:+.4f}, {hi:+.4f}], "
        f"points {diff['mean_points']:+.4f} [{plo:+.4f}, {phi:+.4f}]"
    )


def summarize(config: ArenaConfig, results: list[DealResult]) -> dict[str, Any]:
    """Aggregate per-deal results into rates with 95% CIs and decision times."""
    first_by_deal = [statistics.fmean(r.firsts) for r in results]
    points_by_deal = [statistics.fmean(r.points) for r in results]
    rate, rate_lo, rate_hi = _mean_ci(first_by_deal)
    pts, pts_lo, pts_hi = _mean_ci(points_by_deal)
    times: dict[str, list[float]] = {}
    for r in results:
        for level, values in r.times.items():
            times.setdefault(level, []).extend(values)
    return {
        "tested": config.tested,
        "opponent": config.opponent,
        "preset": config.preset,
        "players": config.players,
        "deals": config.deals,
        "games": sum(len(r.firsts) for r in results),
        "seed": config.seed,
        "iterations": config.iterations,
        "engine": accel.ENGINE,  # the compiled core searches hard.search_scale() times Hard's counts
        "search_scale": search_scale(),
        "first_rate": round(rate, 4),
        "first_rate_ci95": [round(rate_lo, 4), round(rate_hi, 4)],
        "parity_first_rate": round(1 / config.players, 4),
        "mean_points": round(pts, 4),
        "mean_points_ci95": [round(pts_lo, 4), round(pts_hi, 4)],
        "decision_ms": {
            level: {
                "decisions": len(values),
                "median": round(statistics.median(values), 3),
                "p99": round(_percentile(values, 0.99), 3),
            }
            for level, values in sorted(times.items())
        },
    }


def format_table(rows: list[dict[str, Any]]) -> str:
    """A plain-text table of arena summaries."""
    head = (
        f"{'tested':<8} {'opponent':<8} {'games':>6} {'1st rate':>9} {'95% CI':>17} {'points':>7} {'95% CI':>17}"
        "  time ms"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        lo, hi = row["first_rate_ci95"]
        plo, phi = row["mean_points_ci95"]
        timing = ", ".join(f"{lvl} {t['median']:.2f}/{t['p99']:.1f}" for lvl, t in row["decision_ms"].items())
        lines.append(
            f"{row['tested']:<8} {row['opponent']:<8} {row['games']:>6} {row['first_rate']:>9.3f} "
            f"{f'[{lo:.3f}, {hi:.3f}]':>17} {row['mean_points']:>7.3f} {f'[{plo:.3f}, {phi:.3f}]':>17}  {timing}"
        )
    lines.append("time ms: median/p99 per decision")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The arena's command-line options."""
    parser = argparse.ArgumentParser(prog="tienlen arena", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tested", choices=ARENA_LEVELS, default="hard", help="the level under test")
    parser.add_argument("--opponent", choices=ARENA_LEVELS, default="medium", help="the level of the other seats")
    parser.add_argument("--deals", type=int, default=200, help="how many seeded deals (each played once a seat)")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="standard", help="rule preset (one hand a game)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="players a game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the fixed deal set")
    parser.add_argument("--iterations", type=int, default=None, help="Hard's playouts a decision (default built in)")
    parser.add_argument("--hints", action="store_true", help="also time hints at the next seat's turns")
    parser.add_argument(
        "--baseline",
        choices=ARENA_LEVELS,
        default=None,
        help="also play this level in the tested seats on the same deals and report the difference deal by deal",
    )
    parser.add_argument("--processes", type=int, default=1, help="worker processes (use all cores: nproc)")
    parser.add_argument("--json", metavar="PATH", default=None, help="also write the summary as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.add_argument(
        "--ratings",
        action="store_true",
        help="play a round robin of --levels instead (tables of up to four) and print an Elo rating a level",
    )
    parser.add_argument(
        "--levels",
        type=_levels,
        default=RATED_LEVELS,
        help=f"with --ratings: 2 or more comma-separated levels; more than 4 play every table of 4 of them "
        f"(default {','.join(RATED_LEVELS)})",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="the bot budget: Hard's seconds a decision, Expert's five times it (default: no clock)",
    )
    parser.add_argument("--resamples", type=int, default=1000, help="with --ratings: bootstrap resamples")
    return parser


def _levels(text: str) -> tuple[str, ...]:
    """argparse type: comma-separated, different arena levels."""
    levels = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [level for level in levels if level not in ARENA_LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown level {unknown[0]!r}: expected {', '.join(ARENA_LEVELS)}")
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise argparse.ArgumentTypeError("give at least 2 different levels")
    return levels


def main(argv: list[str]) -> int:
    """Run the arena from command-line arguments; print a table, optionally write JSON."""
    args = build_parser().parse_args(argv)
    if args.deals < 1 or args.processes < 1 or args.resamples < 0:
        print("--deals and --processes must be at least 1, --resamples at least 0", file=sys.stderr)
        return 2
    if args.budget is not None and args.budget <= 0:
        print("--budget must be positive", file=sys.stderr)
        return 2
    if args.ratings and args.baseline is not None:
        print("--baseline compares two tested levels; --ratings rates --levels instead", file=sys.stderr)
        return 2
    if args.ratings:
        ratings = RatingsConfig(
            deals=args.deals,
            preset=args.preset,
            seed=args.seed,
            levels=args.levels,
            iterations=args.iterations,
            budget_s=args.budget,
            resamples=args.resamples,
        )
        summary = run_ratings(ratings, processes=args.processes, progress=not args.no_progress)
        print(format_ratings(summary))
        _write_json(args.json, summary)
        return 0
    config = ArenaConfig(
        tested=args.tested,
        opponent=args.opponent,
        deals=args.deals,
        preset=args.preset,
        seed=args.seed,
        players=args.players,
        iterations=args.iterations,
        hints=args.hints,
        budget_s=args.budget,
    )
    if args.baseline is not None:
        summary = run_versus_baseline(config, args.baseline, processes=args.processes, progress=not args.no_progress)
        print(format_table([summary["baseline"], summary]))
        print(format_difference(summary))
    else:
        summary = run_arena(config, processes=args.processes, progress=not args.no_progress)
        print(format_table([summary]))
    _write_json(args.json, summary)
    return 0


def _write_json(path: str | None, summary: dict[str, Any]) -> None:
    """Write the summary as JSON to ``path`` when one was given."""
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(summary, handle, indent=2)
            handle.write("\n")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
