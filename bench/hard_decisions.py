"""Hard's single decisions against Medium, each judged exactly: where its first places come from.

Each deal (standard preset, four seats) is played by Medium in every seat. At
each decision where Hard weighs more than one move, every move it weighs (its
candidates, and the move it finally chooses) is played once and the rest of
the hand by Medium in every seat. Medium draws nothing at random, so that is
the exact result of departing from Medium at that one decision, with the hidden
hands as they really are. Per decision it gives the seat's place after
Medium's own move, after Hard's move and after the best of Hard's candidates.

Hard against three Mediums takes first place more often than Medium's 1/4 by
about the sum of these one-decision changes, so the counts say where its edge
comes from and what it misses:

- ``opportunities``: decisions where some candidate takes first place and
  Medium's own move does not;
- ``gains``: Hard's move takes first place and Medium's does not;
  ``losses``: the other way round; ``deviations``: Hard's move is not Medium's;
- ``net_per_seat``: (gains − losses) per seat and deal, with a 95 % interval
  over deals; ``captured``: gains / opportunities.

Rows come for all decisions and by phase: the fewest cards any other seat
holds (``late`` at most 2, ``middle`` 3–8, ``early`` 9 or more). ``--mode``
picks Hard's deals as ``bench/hard_ceiling.py`` does (``inferred``, as Hard
ships; ``uniform``; ``true_hands``, what the same search does knowing the hidden
cards). Prints a table (stderr) and the rows as JSON (stdout).
"""

from __future__ import annotations

import copy
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from hard_ceiling import mode_parser, use_mode  # bench/ is the script's own folder, first on sys.path
from tienlen.bots import deal_seed, driver, hard
from tienlen.bots.base import Action
from tienlen.bots.medium import choose_medium
from tienlen.bots.progress import progress_bar
from tienlen.engine.match import LegalPlays, Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView

PHASES = ("late", "middle", "early")
Chooser = Callable[[SeatView, LegalPlays, random.Random], Action]


@dataclass(frozen=True, slots=True)
class Judged:
    """One decision of Medium's game, judged: the seat's place (0 = first) after each kind of move.

    ``turn`` counts the hand's actions before the decision, ``chosen`` is the
    judged bot's move (a mask, 0 = pass).
    """

    deal: int
    turn: int
    seat: int
    phase: str
    chosen: int
    medium_place: int
    chosen_place: int
    best_place: int
    deviates: bool


def phase_of(view: SeatView) -> str:
    """``late`` when another seat holds at most 2 cards, ``middle`` at most 8, else ``early``."""
    fewest = min(view.cards_left[s] for s in view.opponents)
    return "late" if fewest <= 2 else "middle" if fewest <= 8 else "early"


def _act(match: Match, seat: int, move: int) -> None:
    match.pass_turn(seat) if move == 0 else match.play(seat, move)


def _medium_to_end(match: Match) -> tuple[int, ...]:
    """Medium plays every seat of ``match`` (changed in place) to the end of the hand; the places, first first."""
    driver.play_bot_turns(match, dict.fromkeys(range(match.players), "medium"))
    return match.completed[0].places


def place_after(match: Match, seat: int, move: int) -> int:
    """The seat's place after it makes ``move`` (0 = pass) and Medium plays every seat to the end (on a copy)."""
    rest = copy.deepcopy(match)
    _act(rest, seat, move)
    return _medium_to_end(rest).index(seat)


def judge_deal(deal: int, seed: int = 1, choose: Chooser | None = None) -> list[Judged]:
    """Play one deal with Medium in every seat and judge each decision where Hard weighs several moves.

    ``choose`` is the bot judged (Hard by default; it gets the rng the arena's
    bot loop would give it).
    """
    pick: Chooser = choose or (lambda view, legal, rng: hard.choose_hard(view, legal, rng))
    rules = resolve_rules({"preset": "standard", "hands": 1}, players=4)
    match, _ = Match.new(rules, random.Random(deal_seed(seed, deal)))
    places = _medium_to_end(copy.deepcopy(match))
    judged: list[Judged] = []
    turn = 0
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        view: SeatView = vars(driver)["seat_view"](match, seat)  # looked up now: hard_ceiling's modes swap it
        legal = match.legal_plays()
        medium = choose_medium(view, legal, driver.bot_rng(match, seat))
        own = 0 if medium.is_pass else medium.mask
        moves = hard.candidates(view, legal, medium) if legal.plays else [own]
        if len(moves) > 1:
            chosen = pick(view, legal, driver.bot_rng(match, seat))
            mine = 0 if chosen.is_pass else chosen.mask
            after = {move: place_after(match, seat, move) for move in {*moves, mine}}
            assert after[own] == places.index(seat)  # Medium's own move is the game already played
            judged.append(
                Judged(
                    deal, turn, seat, phase_of(view), mine, after[own], after[mine], min(after.values()), mine != own
                )
            )
        _act(match, seat, own)
        turn += 1
    return judged


def summarize(judged: list[Judged], deals: Iterable[int], seats: int = 4) -> dict[str, Any]:
    """Counts of one set of judged decisions, and the net first places per seat with a 95 % interval over deals.

    ``deals`` are the numbers of all deals played (a deal without a judged decision counts as no change).
    """
    per_deal = dict.fromkeys(deals, 0)  # net first places
    taken = dict.fromkeys(deals, 0)  # gains
    chances = dict.fromkeys(deals, 0)  # opportunities
    losses = 0
    for j in judged:
        gain, loss = j.chosen_place == 0 < j.medium_place, j.medium_place == 0 < j.chosen_place
        per_deal[j.deal] += gain - loss
        taken[j.deal] += gain
        chances[j.deal] += j.best_place == 0 < j.medium_place
        losses += loss
    gains, opportunities = sum(taken.values()), sum(chances.values())
    nets = [v / seats for v in per_deal.values()]
    mean = statistics.fmean(nets) if nets else 0.0
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets)) if len(nets) > 1 else 0.0
    captured = gains / opportunities if opportunities else None
    return {
        "decisions": len(judged),
        "deviations": sum(j.deviates for j in judged),
        "opportunities": opportunities,
        "gains": gains,
        "losses": losses,
        "captured": None if captured is None else round(captured, 3),
        "captured_ci95": captured_interval(list(taken.values()), list(chances.values())),
        "net_per_seat": round(mean, 4),
        "net_per_seat_ci95": [round(mean - half, 4), round(mean + half, 4)],
    }


def captured_interval(gains: list[int], chances: list[int]) -> list[float] | None:
    """A 95 % interval of gains / chances over deals (a ratio estimator: one deal's decisions are not independent).

    ``gains`` and ``chances`` are per deal; the ratio's variance is that of ``gain - ratio * chance`` over deals
    divided by the deals and by the mean chances squared, clipped to [0, 1]. None without chances or with fewer
    than two deals.
    """
    total = sum(chances)
    if not total or len(chances) < 2:
        return None
    ratio = sum(gains) / total
    spread = statistics.variance([g - ratio * c for g, c in zip(gains, chances, strict=True)])
    half = 1.96 * math.sqrt(spread / len(chances)) / (total / len(chances))
    return [round(max(0.0, ratio - half), 3), round(min(1.0, ratio + half), 3)]


def _judge_args(args: tuple[str, int, int]) -> list[Judged]:
    mode, deal, seed = args
    use_mode(mode)
    return judge_deal(deal, seed)


def run_mode(mode: str, deals: int, seed: int, processes: int, progress: bool = True) -> dict[str, Any]:
    """Judge every decision of ``deals`` deals with Hard searching this mode's deals; the summary rows."""
    jobs = [(mode, deal, seed) for deal in range(deals)]
    judged: list[Judged] = []
    bar = progress_bar(deals, progress, f"hard decisions ({mode})")
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            for part in pool.imap_unordered(_judge_args, jobs, chunksize=max(1, min(4, deals // 50))):
                judged += part
                next(bar, None)
    else:
        for job in jobs:
            judged += _judge_args(job)
            next(bar, None)
    next(bar, None)
    rows = {"all": summarize(judged, range(deals))}
    for phase in PHASES:
        rows[phase] = summarize([j for j in judged if j.phase == phase], range(deals))
    return {"mode": mode, "deals": deals, "seed": seed, "rows": rows}


def format_rows(result: dict[str, Any]) -> str:
    """A plain-text table of one mode's rows."""
    head = f"{'phase':<7} {'decisions':>9} {'deviate':>8} {'chances':>8} {'gains':>6} {'losses':>7}"
    head += f" {'captured [95% CI]':>19}"
    lines = [f"mode {result['mode']}, {result['deals']} deals", f"{head}  net 1st per seat [95% CI]"]
    for phase, row in result["rows"].items():
        lo, hi = row["net_per_seat_ci95"]
        captured = "-" if row["captured"] is None else f"{row['captured']:.2f}"
        if row["captured_ci95"] is not None:
            captured += " [{:.2f}, {:.2f}]".format(*row["captured_ci95"])
        lines.append(
            f"{phase:<7} {row['decisions']:>9} {row['deviations']:>8} {row['opportunities']:>8} {row['gains']:>6} "
            f"{row['losses']:>7} {captured:>19}  {row['net_per_seat']:+.3f} [{lo:+.3f}, {hi:+.3f}]"
        )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Judge the chosen modes and print their tables and JSON rows."""
    args = mode_parser(__doc__, deals=150, modes="inferred").parse_args(argv)
    multiprocessing.set_start_method("fork", force=True)
    results = [run_mode(mode, args.deals, args.seed, args.processes) for mode in args.mode or ["inferred"]]
    for result in results:
        print(format_rows(result), file=sys.stderr)
    machine = {"machine_cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps({**machine, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
