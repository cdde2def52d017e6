"""The ratings round robin: the levels at tables of up to four, each deal once per table and rotation of the seats.

With up to four levels they sit at one table; with more, every choice of
four of them is a table of its own. At each table each level holds each seat
of each deal once; the finishing orders give Elo ratings with bootstrap
intervals over deals (:mod:`.elo_fit`). ``tienlen arena --ratings`` runs it
(:mod:`.arena` holds the command line).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from ..engine.match import Match
from ..engine.rules import resolve_rules
from .deal_set import deal_seed
from .driver import RATED_LEVELS, play_bot_turns
from .elo_fit import Rating, rate
from .progress import progress_bar


@dataclass(frozen=True, slots=True)
class RatingsConfig:
    """What a round robin for ratings plays: each table of the levels, each deal once per seat rotation."""

    deals: int
    preset: str
    seed: int
    levels: tuple[str, ...] = RATED_LEVELS
    iterations: int | None = None
    budget_s: float | None = None
    resamples: int = 1000

    @property
    def anchor(self) -> str:
        """The level whose rating is fixed at 0: random when it plays, else the first level."""
        return "random" if "random" in self.levels else self.levels[0]

    @property
    def players(self) -> int:
        """Seats at a table: every level, at most four."""
        return min(MAX_PLAYERS, len(self.levels))

    @property
    def tables(self) -> list[tuple[str, ...]]:
        """The levels of each table: every choice of :attr:`players` of them, in the levels' order."""
        return list(itertools.combinations(self.levels, self.players))


MAX_PLAYERS = 4


def play_round_robin_deal(config: RatingsConfig, deal: int) -> list[list[str]]:
    """Play one deal at each table once per rotation of its levels over the seats; each game's finishing order."""
    players = config.players
    rules = resolve_rules({"preset": config.preset, "hands": 1}, players=players)
    orders = []
    for table in config.tables:
        for rotation in range(players):
            match, _ = Match.new(rules, random.Random(deal_seed(config.seed, deal)))
            levels = {seat: table[(seat + rotation) % players] for seat in range(players)}
            play_bot_turns(match, levels, budget_s=config.budget_s, iterations=config.iterations)
            orders.append([levels[seat] for seat in match.completed[0].places])
    return orders


def _round_robin_args(args: tuple[RatingsConfig, int]) -> tuple[int, list[list[str]]]:
    return args[1], play_round_robin_deal(*args)


def run_ratings(config: RatingsConfig, processes: int = 1, progress: bool = True) -> dict[str, Any]:
    """Play the round robin and return the ratings (Elo, 95% bootstrap CI over deals) as a JSON-able summary."""
    if len(config.levels) < 2 or len(set(config.levels)) != len(config.levels):
        raise ValueError("a round robin needs at least 2 different levels")
    jobs = [(config, d) for d in range(config.deals)]
    played: dict[int, list[list[str]]] = {}
    bar = progress_bar(config.deals, progress, "round robin " + " ".join(config.levels))
    if processes > 1:
        with Pool(processes) as pool:
            for deal, orders in pool.imap_unordered(_round_robin_args, jobs, chunksize=1):
                played[deal] = orders
                next(bar, None)
    else:
        for job in jobs:
            deal, orders = _round_robin_args(job)
            played[deal] = orders
            next(bar, None)
    next(bar, None)
    deals = [played[d] for d in sorted(played)]
    ratings = rate(deals, config.levels, anchor=config.anchor, resamples=config.resamples, seed=config.seed)
    return summarize_ratings(config, ratings)


def summarize_ratings(config: RatingsConfig, ratings: list[Rating]) -> dict[str, Any]:
    """The ratings, strongest first, with what was played."""
    return {
        "levels": list(config.levels),
        "preset": config.preset,
        "players": config.players,
        "tables": len(config.tables),
        "deals": config.deals,
        "games": config.deals * len(config.tables) * config.players,
        "seed": config.seed,
        "iterations": config.iterations,
        "budget_s": config.budget_s,
        "anchor": config.anchor,
        "ratings": [
            {
                "level": r.name,
                "elo": round(r.elo, 1),
                "elo_ci95": [round(r.low, 1), round(r.high, 1)],
                "games": r.games,
                "first_rate": round(r.first_rate, 4),
                "mean_points": round(r.mean_points, 4),
            }
            for r in sorted(ratings, key=lambda r: -r.elo)
        ],
    }


def format_ratings(summary: dict[str, Any]) -> str:
    """A plain-text table of round-robin ratings."""
    head = f"{'level':<8} {'elo':>7} {'95% CI':>17} {'games':>6} {'1st rate':>9} {'points':>7}"
    lines = [head, "-" * len(head)]
    for row in summary["ratings"]:
        lo, hi = row["elo_ci95"]
        lines.append(
            f"{row['level']:<8} {row['elo']:>7.0f} {f'[{lo:.0f}, {hi:.0f}]':>17} {row['games']:>6} "
            f"{row['first_rate']:>9.3f} {row['mean_points']:>7.3f}"
        )
    lines.append(
        f"Elo: {summary['anchor']} = 0, +400 = 10:1 odds of finishing ahead; {summary['deals']} deals x "
        f"{summary['tables']} table(s) x {summary['players']} seat rotations, {summary['preset']} preset; "
        "CI: bootstrap over deals"
    )
    return "\n".join(lines)
