"""Screens of a searching level's settings, deal by deal (docs/bots.md, Master): the rows of its "changed for the run".

``play`` plays deals of a seeded set as the arena does (``tienlen arena``: the
level in each seat in turn, the other seats ``--opponent``, at the fixed
search counts) with some of the search's settings changed in every worker
(``--set NAME=VALUE``, names in :data:`SETTINGS`), and appends one JSON line
a deal to ``OUT``: its first places and points, one a seat. A run that stops
goes on where it stopped; its first line records the level, the opponent,
the seed and the settings, and a run asked to go on with others is refused.
``--true-deals`` gives the search the true hands instead of deals drawn from
the table (a cheating search: what knowing the hidden cards is worth, for
measurement only). ``compare`` prints a file's first-place rate and, given a
second file, the paired difference over the deals both played
(``tienlen.bots.arena.paired_difference``) and how many were played alike.

    python bench/master_screens.py play s2.jsonl --level master --seed 2 --deals 0:600
    python bench/master_screens.py play s2_eg8.jsonl --level master --seed 2 --deals 0:600 \\
        --set endgame_cards=8 --set endgame_nodes=30000
    python bench/master_screens.py compare s2_eg8.jsonl s2.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from tienlen.bots import arena, hard, master, sampling
from tienlen.bots.arena import DealResult, paired_difference
from tienlen.bots.driver import ARENA_LEVELS
from tienlen.bots.infer import ActionEvent
from tienlen.engine.cards import Card
from tienlen.engine.deal import FairDeal
from tienlen.engine.events import Event
from tienlen.engine.match import Match
from tienlen.engine.rules import RuleSet
from tienlen.engine.views import SeatView


def _first_bonus(value: str) -> None:
    hard.FIRST_BONUS = float(value)
    vars(master)["FIRST_BONUS"] = float(value)  # the network's worth reads the name master imported from hard


def _net_weight(value: str) -> None:
    master.NET_WEIGHT = float(value)


def _endgame_cards(value: str) -> None:
    hard.ENDGAME_CARDS = int(value)


def _endgame_nodes(value: str) -> None:
    hard.ENDGAME_NODES = int(value)


def _chain_pace(value: str) -> None:
    burn_in, thinning = (int(part) for part in value.split(","))
    sampling.COMPILED_PACE = sampling.PYTHON_PACE = sampling.ChainPace(burn_in, thinning)


class _Chains(sampling.DealChains):
    """Hard's deal chains with the module's chain count and likelihood as they are now (set by --set)."""

    def __init__(
        self, view: SeatView, events: list[ActionEvent], rng: random.Random, *, deadline: float | None = None
    ) -> None:
        super().__init__(view, events, rng, sampling.CHAINS, sampling.CHAINS_LIKELIHOOD, deadline=deadline)


def _likelihood(value: str) -> None:
    sampling.CHAINS_LIKELIHOOD = float(value)
    hard.DEAL_SOURCE = _Chains  # DealChains takes both as defaults bound when it was defined


def _chains(value: str) -> None:
    sampling.CHAINS = int(value)
    hard.DEAL_SOURCE = _Chains


def _net_moves(value: str) -> None:
    master.NET_MOVES = int(value)


def _search_effort(value: str) -> None:
    master.SEARCH_EFFORT = int(value)


# What --set may change, each as the search reads it: the name, what it sets, and how.
SETTINGS: dict[str, tuple[str, Callable[[str], None]]] = {
    "net_weight": ("master.NET_WEIGHT: the network's worth a deal, in the playouts' units", _net_weight),
    "first_bonus": ("hard.FIRST_BONUS and master.FIRST_BONUS: first place's bonus over its points", _first_bonus),
    "endgame_cards": ("hard.ENDGAME_CARDS: the exact endgame from this many cards a hand", _endgame_cards),
    "endgame_nodes": ("hard.ENDGAME_NODES: the endgame's positions a sampled deal", _endgame_nodes),
    "chain_pace": ("sampling's pace, BURN_IN,THINNING: chain steps an action judged, and between deals", _chain_pace),
    "likelihood": ("the chains' likelihood of a deal for each action Medium would not have made", _likelihood),
    "chains": ("sampling.CHAINS: the independent chains a decision's deals are drawn from", _chains),
    "net_moves": ("master.NET_MOVES: the searching seat's next N moves in a playout are the network's", _net_moves),
    "search_effort": ("master.SEARCH_EFFORT: Master's playouts and step budget, times Hard's", _search_effort),
}


class _WatchedMatch(Match):
    """The arena's matches in a ``--true-deals`` worker: the last one made is the one being played, whose hands the
    cheating search reads."""

    playing: Match | None = None

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        rng: random.Random,
        deal: Sequence[Iterable[str | Card]] | None = None,
        fair: FairDeal | None = None,
    ) -> tuple[Match, list[Event]]:
        """:meth:`Match.new`, remembered."""
        match, events = super().new(rules, rng, deal, fair)
        _WatchedMatch.playing = match
        return match, events


class TrueDeals:
    """A deal source that hands out the true hands every time (``--true-deals``: a cheating search)."""

    def __init__(
        self, view: SeatView, events: list[ActionEvent], rng: random.Random, *, deadline: float | None = None
    ) -> None:
        """Ignore what the table tells: the true hands are known."""

    @property
    def work(self) -> int:
        """Nothing is judged to draw a deal."""
        return 0

    def next_deal(self) -> list[int]:
        """The hands as they are now, a hand a seat."""
        if _WatchedMatch.playing is None:
            raise RuntimeError("no match is being played")
        return list(_WatchedMatch.playing.hands)


def _prepare(settings: list[tuple[str, str]], true_deals: bool) -> None:
    """A worker's settings, before it plays."""
    for name, value in settings:
        SETTINGS[name][1](value)
    if true_deals:
        hard.DEAL_SOURCE = TrueDeals
        vars(arena)["Match"] = _WatchedMatch  # the arena's own matches only, in this worker


def play_deal(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """One deal as the arena plays it (the level in each seat in turn): its JSON line."""
    level, opponent, seed, deal = job
    config = arena.ArenaConfig(tested=level, opponent=opponent, deals=deal + 1, preset="standard", seed=seed)
    result = arena.play_deal(config, deal)
    return {"deal": deal, "firsts": result.firsts, "points": result.points}


def _deal_range(text: str) -> range:
    start, _, stop = text.partition(":")
    return range(int(start), int(stop)) if stop else range(int(start))


def _setting(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if name not in SETTINGS or not value:
        raise argparse.ArgumentTypeError(f"NAME=VALUE with NAME one of {', '.join(SETTINGS)}")
    return name, value


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open() as file:
        for line in file:
            yield json.loads(line)


def play(args: argparse.Namespace) -> int:
    """Play the deals not yet in the file, appending each as it ends."""
    out: Path = args.out
    header = {
        "level": args.level,
        "opponent": args.opponent,
        "seed": args.seed,
        "settings": dict(args.set),
        "true_deals": args.true_deals,
    }
    done: set[int] = set()
    if out.exists() and out.stat().st_size:
        lines = _lines(out)
        found = next(lines)
        if found != header:
            print(f"{out} was played with {json.dumps(found)}, not {json.dumps(header)}", file=sys.stderr)
            return 2
        done = {line["deal"] for line in lines}
    else:
        out.write_text(json.dumps(header) + "\n")
    jobs = [(args.level, args.opponent, args.seed, d) for d in args.deals if d not in done]
    with Pool(args.processes, initializer=_prepare, initargs=(args.set, args.true_deals)) as pool, out.open("a") as f:
        for line in pool.imap_unordered(play_deal, jobs, chunksize=2):
            f.write(json.dumps(line) + "\n")
            f.flush()
    return 0


def _results(path: Path) -> dict[int, DealResult]:
    lines = _lines(path)
    next(lines)  # the header
    return {line["deal"]: DealResult(firsts=line["firsts"], points=line["points"]) for line in lines}


def compare(args: argparse.Namespace) -> int:
    """A file's first-place rate; with a second, the first's edge over it on the deals both played."""
    tested = _results(args.tested)
    rates = [statistics.fmean(r.firsts) for r in tested.values()]
    summary: dict[str, Any] = {"deals": len(tested), "first_rate": round(statistics.fmean(rates), 4)}
    if args.baseline is not None:
        baseline = _results(args.baseline)
        common = sorted(set(tested) & set(baseline))
        pairs = [tested[d] for d in common], [baseline[d] for d in common]
        alike = sum(t.firsts == b.firsts and t.points == b.points for t, b in zip(*pairs, strict=True))
        summary["versus"] = {"deals": len(common), "alike": alike, **paired_difference(*pairs)}
    print(json.dumps(summary))
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play deals into a JSON-lines file (resumable)")
    playing.add_argument("out", type=Path)
    playing.add_argument("--level", choices=ARENA_LEVELS, default="master")
    playing.add_argument("--opponent", choices=ARENA_LEVELS, default="medium")
    playing.add_argument("--seed", type=int, default=2)
    playing.add_argument("--deals", type=_deal_range, default=range(600), help="START:STOP, or a count from 0")
    playing.add_argument(
        "--set",
        type=_setting,
        action="append",
        default=[],
        help="NAME=VALUE: " + "; ".join(f"{name}: {what}" for name, (what, _) in SETTINGS.items()),
    )
    playing.add_argument("--true-deals", action="store_true", help="the search sees the true hands (measurement only)")
    playing.add_argument("--processes", type=int, default=2)
    comparing = commands.add_parser("compare", help="a file's first-place rate, and its edge over another's")
    comparing.add_argument("tested", type=Path)
    comparing.add_argument("baseline", type=Path, nargs="?")
    args = parser.parse_args(argv)
    return play(args) if args.command == "play" else compare(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
