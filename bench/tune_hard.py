"""Tune Hard's search weights by self-play: the cross-entropy method over a few of its constants.

Each generation draws ``--population`` settings of the weights below from a
normal distribution per weight (the first setting is the distribution's mean),
plays each as Hard vs 3× Medium on the same ``--deals`` duplicate deals
(standard preset, a fresh deal set each generation), keeps the ``--elite``
best by first-place rate (mean points breaking ties) and moves the
distribution to their mean and spread. The run starts from the values Hard
ships with; everything is drawn from ``--seed``, and Hard's choices are
deterministic without a time budget, so the same command prints the same
figures. Prints a line per setting (stderr) and the run as JSON (stdout),
the last generation's mean being the proposal. A proposal is adopted only
after a larger arena (``bench/bots.py``) confirms it.

The weights (:data:`WEIGHTS`): ``first_bonus`` (:data:`tienlen.bots.hard.FIRST_BONUS`),
``prior`` (:data:`~tienlen.bots.hard.DEFAULT_PRIOR`, Medium's head start),
``candidates`` (:data:`~tienlen.bots.hard.MAX_CANDIDATES`), ``chains``,
``burn_in`` and ``likelihood`` (:data:`~tienlen.bots.sampling.CHAINS`,
:func:`~tienlen.bots.sampling.chain_pace`'s burn-in and
:data:`~tienlen.bots.sampling.CHAINS_LIKELIHOOD`, its deals' inference and
what it costs the search's step budget; the likelihood is searched on a log
scale).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from tienlen.bots import hard, sampling
from tienlen.bots.arena import ArenaConfig, run_arena


@dataclass(frozen=True, slots=True)
class Weight:
    """A tuned constant: its range (on the scale searched), whether it is whole, and how it is read and set."""

    name: str
    low: float
    high: float
    whole: bool
    read: Callable[[], float]
    scale: Callable[[float], float] = float  # searched value -> the constant's value


def _chains_setting() -> dict[str, Any]:
    """The keyword arguments Hard's deal source is built with (none when it is the shipped one unchanged)."""
    source = hard.DEAL_SOURCE
    return dict(source.keywords) if isinstance(source, functools.partial) else {}


WEIGHTS = (
    Weight("first_bonus", 0.0, 40.0, False, lambda: hard.FIRST_BONUS),
    Weight("prior", 0.0, 1.0, False, lambda: hard.DEFAULT_PRIOR),
    Weight("candidates", 2, 8, True, lambda: hard.MAX_CANDIDATES),
    Weight("chains", 2, 24, True, lambda: _chains_setting().get("chains", sampling.CHAINS)),
    Weight("burn_in", 1, 24, True, lambda: sampling.chain_pace().burn_in_per_event),
    Weight(
        "likelihood",
        -3.0,
        -0.5,
        False,
        lambda: math.log10(_chains_setting().get("likelihood", sampling.CHAINS_LIKELIHOOD)),
        lambda x: 10.0**x,
    ),
)


def shipped() -> dict[str, float]:
    """The weights as Hard ships with them (on the searched scale)."""
    return {w.name: float(w.read()) for w in WEIGHTS}


@contextmanager
def weights_in_place(setting: dict[str, float]) -> Iterator[None]:
    """Hard plays with ``setting`` inside the block (arena workers forked there inherit it); restored after."""
    kept = (hard.FIRST_BONUS, hard.DEFAULT_PRIOR, hard.MAX_CANDIDATES, hard.DEAL_SOURCE)
    paces = (sampling.PYTHON_PACE, sampling.COMPILED_PACE)
    values = {w.name: w.scale(setting[w.name]) for w in WEIGHTS}
    hard.FIRST_BONUS = values["first_bonus"]
    hard.DEFAULT_PRIOR = values["prior"]
    hard.MAX_CANDIDATES = int(values["candidates"])
    burn_in = int(values["burn_in"])  # the chains' burn-in on either build
    sampling.PYTHON_PACE, sampling.COMPILED_PACE = (replace(pace, burn_in_per_event=burn_in) for pace in paces)
    chains = functools.partial(sampling.DealChains, chains=int(values["chains"]), likelihood=values["likelihood"])
    vars(hard)["DEAL_SOURCE"] = chains  # a DealSource built as the shipped one, with other arguments
    try:
        yield
    finally:
        hard.FIRST_BONUS, hard.DEFAULT_PRIOR, hard.MAX_CANDIDATES = kept[:3]
        vars(hard)["DEAL_SOURCE"] = kept[3]
        sampling.PYTHON_PACE, sampling.COMPILED_PACE = paces


def draw(mean: dict[str, float], spread: dict[str, float], rng: random.Random) -> dict[str, float]:
    """A setting drawn around ``mean``: each weight normal, kept in its range, whole weights rounded."""
    out = {}
    for w in WEIGHTS:
        value = min(w.high, max(w.low, rng.gauss(mean[w.name], spread[w.name])))
        out[w.name] = value if w.whole else round(value, 4)
    return _in_steps(out)


def refit(elite: list[dict[str, float]], floor: dict[str, float]) -> tuple[dict[str, float], dict[str, float]]:
    """The distribution of the next generation: the elite's mean and spread (never below ``floor``)."""
    mean = {w.name: statistics.fmean(s[w.name] for s in elite) for w in WEIGHTS}
    spread = {
        w.name: max(floor[w.name], statistics.pstdev([s[w.name] for s in elite]) if len(elite) > 1 else 0.0)
        for w in WEIGHTS
    }
    return mean, spread


def score(setting: dict[str, float], deals: int, seed: int, processes: int) -> dict[str, Any]:
    """Hard with ``setting`` vs 3× Medium on the deals of ``seed``: the arena's summary."""
    with weights_in_place(setting):
        config = ArenaConfig("hard", "medium", deals=deals, preset="standard", seed=seed)
        return run_arena(config, processes=processes, progress=False)


def tune(generations: int, population: int, elite: int, deals: int, seed: int, processes: int) -> dict[str, Any]:
    """Run the cross-entropy method; every setting's figures and the proposal."""
    rng = random.Random(seed)
    mean = shipped()
    spread = {w.name: (w.high - w.low) / 4 for w in WEIGHTS}
    floor = {w.name: (w.high - w.low) / 40 for w in WEIGHTS}
    history = []
    for generation in range(generations):
        settings = [_in_steps(mean)] + [draw(mean, spread, rng) for _ in range(population - 1)]
        deal_seed = seed * 1000 + generation
        rows = []
        for index, setting in enumerate(settings):
            row = score(setting, deals, deal_seed, processes)
            rows.append({"setting": setting, "first_rate": row["first_rate"], "mean_points": row["mean_points"]})
            shown = ", ".join(f"{k} {v:.3g}" for k, v in setting.items())
            print(
                f"gen {generation} #{index}: 1st {row['first_rate']:.3f} pts {row['mean_points']:.3f}  {shown}",
                file=sys.stderr,
                flush=True,
            )
        ranked = sorted(rows, key=lambda r: (r["first_rate"], r["mean_points"]), reverse=True)
        mean, spread = refit([r["setting"] for r in ranked[:elite]], floor)
        history.append({"generation": generation, "deal_seed": deal_seed, "rows": rows})
    return {"shipped": shipped(), "proposal": _in_steps(mean), "generations": history}


def _in_steps(setting: dict[str, float]) -> dict[str, float]:
    """``setting`` as it is played: whole weights rounded."""
    return {w.name: float(round(setting[w.name])) if w.whole else setting[w.name] for w in WEIGHTS}


def main(argv: list[str]) -> int:
    """Parse the options, tune, print the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=3)
    parser.add_argument("--population", type=int, default=6)
    parser.add_argument("--elite", type=int, default=2)
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals a setting (4 games each)")
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    if not 1 <= args.elite <= args.population:
        parser.error("--elite must be between 1 and --population")
    multiprocessing.set_start_method("fork", force=True)  # the workers inherit the weights in place
    run = tune(args.generations, args.population, args.elite, args.deals, args.seed, args.processes)
    machine = {"machine_cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps({**machine, **vars(args), **run}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
