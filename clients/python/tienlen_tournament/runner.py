"""``tienlen-tournament``: outside bots, each a command, against our levels on duplicate deals.

The tournament starts its own server on a private Redis, then plays, for
every bot, opponent level and deal, one match a seat: the same deal (the same
seed) with the bot in each seat in turn and the opponent level in the others.
Matches run a few at a time (--parallel) under a progress bar; the report
gives each bot's first-place rate and mean points against each level with 95%
confidence intervals (Wilson over games for the rate, a seeded bootstrap over
deals for the points), and its incidents. A bot that crashes, is too slow or
sends illegal actions is reported; the run goes on.

Everything the run writes goes to ``--logs DIR`` (the server's and the bots'
output, the private Redis) or, without it, to a temporary directory removed at
the end, and the report to ``--json PATH`` when asked: never to the working
directory. (A bot's process runs in the working directory, so that a command
such as ``python clients/python/lowest_bot.py`` finds its script; what the bot
itself writes there is the bot's.)
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tienlen.bots import DEFAULT_BUDGET_S, LEVELS, deal_seed
from tienlen.engine.rules import PRESET_NAMES

from .report import INTERVALS, format_report, summarize
from .seating import MatchPlan, SeatOutcome, Stewarding, play_match
from .server import PrivateServer

__all__ = ["TournamentConfig", "build_parser", "main", "plan_matches", "run_tournament"]

_SEED_RANGE = 2**63  # the API's seeds are below this


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """What a tournament plays and how it treats the bots."""

    commands: tuple[str, ...]
    opponents: tuple[str, ...] = LEVELS
    deals: int = 10
    players: int = 4
    preset: str = "standard"
    seed: int = 1
    parallel: int = 2
    workers: int = 2
    bot_budget_s: float = DEFAULT_BUDGET_S
    stewarding: Stewarding = field(default_factory=Stewarding)


def plan_matches(config: TournamentConfig) -> list[MatchPlan]:
    """Every match of the tournament, deal by deal (so a partial run covers whole deals)."""
    return [
        MatchPlan(
            bot=bot,
            command=command,
            opponent=opponent,
            deal=deal,
            seed=deal_seed(config.seed, deal) % _SEED_RANGE,
            seat=seat,
            players=config.players,
            preset=config.preset,
        )
        for deal in range(config.deals)
        for bot, command in enumerate(config.commands)
        for opponent in config.opponents
        for seat in range(config.players)
    ]


def run_tournament(config: TournamentConfig, work_dir: Path, *, progress: bool = True) -> dict[str, Any]:
    """Start the server, play every match, count illegal actions from the server's log; the report."""
    logs = work_dir / "bots"
    logs.mkdir(parents=True, exist_ok=True)
    plans = plan_matches(config)
    outcomes: list[SeatOutcome] = []
    with PrivateServer(work_dir, workers=config.workers, bot_budget_s=config.bot_budget_s) as server:
        from tqdm import tqdm

        with (
            tqdm(total=len(plans), desc="tournament", unit="match", file=sys.stderr, disable=not progress) as bar,
            ThreadPoolExecutor(max_workers=config.parallel) as pool,
        ):
            futures = [pool.submit(play_match, server.url, plan, config.stewarding, logs) for plan in plans]
            for future in as_completed(futures):
                outcomes.append(future.result())
                bar.update(1)
        refused = server.refused_actions()
    for outcome in outcomes:
        outcome.illegal_actions = refused.get(outcome.match_id, 0)
    outcomes.sort(key=lambda o: (o.plan.bot, o.plan.opponent, o.plan.deal, o.plan.seat))
    report = summarize(config.commands, config.opponents, outcomes, seed=config.seed)
    report |= {
        "deals": config.deals,
        "players": config.players,
        "preset": config.preset,
        "seed": config.seed,
        "opponents": list(config.opponents),
        "timeout_s": config.stewarding.timeout_s,
        "max_timeouts": config.stewarding.max_timeouts,
        "bot_budget_s": config.bot_budget_s,
        "logs": str(logs),
        "intervals": INTERVALS,
    }
    return report


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The tournament's command-line options."""
    parser = argparse.ArgumentParser(
        prog="tienlen-tournament",
        description=__doc__.split("\n\n")[1].replace("\n", " ") if __doc__ else None,
        epilog="The bot command is run without a shell. It gets the server URL, the match id and the seat's "
        "token as its last three arguments (as clients/python/lowest_bot.py takes them), or where it writes "
        "{url}, {match_id}, {token} and {seat}; and in TIENLEN_URL, TIENLEN_MATCH_ID, TIENLEN_TOKEN and "
        "TIENLEN_SEAT. Example: tienlen-tournament --bot '.venv/bin/python clients/python/lowest_bot.py'",
    )
    parser.add_argument("--bot", dest="bots", action="append", required=True, metavar="CMD", help="a bot's command")
    parser.add_argument(
        "--opponent",
        dest="opponents",
        action="append",
        choices=LEVELS,
        help="a level for the other seats (repeatable; default easy, medium and hard)",
    )
    parser.add_argument("--deals", type=_positive_int, default=10, help="seeded deals, each played once a seat")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=4, help="players a match (default 4)")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="standard", help="rule preset (one hand a match)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the fixed deal set")
    parser.add_argument("--timeout", type=_positive_float, default=5.0, help="a bot's seconds a decision (default 5)")
    parser.add_argument(
        "--max-timeouts",
        type=_positive_int,
        default=2,
        help="timeouts in a row after which the bot is stopped and its seat played out for it (default 2)",
    )
    parser.add_argument(
        "--startup", type=float, default=10.0, help="seconds a bot process has to start before its first turn's clock"
    )
    parser.add_argument("--parallel", type=_positive_int, default=2, help="matches at once (default 2)")
    parser.add_argument("--workers", type=_positive_int, default=2, help="server worker processes (default 2)")
    parser.add_argument(
        "--bot-budget",
        type=_positive_float,
        default=DEFAULT_BUDGET_S,
        help=f"Hard's seconds a decision (default {DEFAULT_BUDGET_S}, as the server's)",
    )
    parser.add_argument("--logs", metavar="DIR", help="keep the server's and the bots' output here")
    parser.add_argument("--json", metavar="PATH", help="also write the report as JSON here")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a tournament from command-line arguments (``sys.argv[1:]`` when None), print its report; exit status."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    config = TournamentConfig(
        commands=tuple(args.bots),
        opponents=tuple(dict.fromkeys(args.opponents or LEVELS)),
        deals=args.deals,
        players=args.players,
        preset=args.preset,
        seed=args.seed,
        parallel=args.parallel,
        workers=args.workers,
        bot_budget_s=args.bot_budget,
        stewarding=Stewarding(timeout_s=args.timeout, max_timeouts=args.max_timeouts, startup_s=args.startup),
    )
    if args.logs:
        report = run_tournament(config, Path(args.logs), progress=not args.no_progress)
    else:
        with tempfile.TemporaryDirectory(prefix="tienlen-tournament-") as work:
            report = run_tournament(config, Path(work), progress=not args.no_progress)
            report["logs"] = None
    print(format_report(report))
    if args.json:
        path = Path(args.json)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
