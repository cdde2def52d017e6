"""Where Hard's strength is capped: Hard vs 3× Medium with more or less knowledge of the hidden hands.

Hard searches on deals of the unseen cards (:data:`tienlen.bots.hard.DEAL_SOURCE`).
This benchmark swaps that source of deals and plays the same arena
(standard preset, duplicate deals) once per mode:

- ``uniform``: deals drawn without any inference (every deal of the counts alike);
- ``inferred``: Hard as it ships (its own source of deals, whatever :data:`tienlen.bots.hard.DEAL_SOURCE` names);
- ``chain``: the one Metropolis chain Hard searched until 2026-12-04 (deals weighted by the other seats' last 12
  plays and passes, :mod:`tienlen.bots.sampling`);
- ``chains``: independent chains over every action of the hand, their deals in turn
  (:class:`~tienlen.bots.sampling.DealChains`, what Hard ships with);
- ``posterior``: as ``chains``, with many more, longer chains whose work is not charged to the search: a ceiling of
  what inference from the other seats' actions (with Medium as their model) could give this search;
- ``model``: deals drawn from the learned card model (:mod:`tienlen.bots.cardmodel`);
- ``particles``: the card model's deals reweighted by Medium's choices (:mod:`tienlen.bots.particles`);
- ``true_in_endgame``: the true hands once Hard's endgame search starts, inferred deals before;
- ``true_hands``: the true hands at every decision.

The gap between ``inferred`` and ``true_hands`` is what knowing the hidden cards
would be worth to the same search; ``true_in_endgame`` shows how much of it lies
in the endgame. The true hands exist only here, in a diagnostic that swaps the
bot's deal source: no server path can give them to a bot. Prints a table (stderr)
and the rows as JSON (stdout).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
from typing import Any

from tienlen.bots import driver, hard
from tienlen.bots.arena import ArenaConfig, format_table, run_arena
from tienlen.bots.cardmodel import ModelDeals
from tienlen.bots.hard import DealSource
from tienlen.bots.infer import MAX_EVENTS, ActionEvent, action_events
from tienlen.bots.particles import ParticleDeals
from tienlen.bots.sampling import DealChain, DealChains, sample_hands
from tienlen.engine.match import Match
from tienlen.engine.views import SeatView, seat_view

MODES = ("uniform", "inferred", "true_in_endgame", "true_hands", "chain", "chains", "posterior", "model", "particles")
# posterior: as near the exact posterior of the deals given Medium opponents as affordable here, its work not charged
POSTERIOR_CHAINS, POSTERIOR_LIKELIHOOD, POSTERIOR_BURN_IN = 48, 0.01, 200
SHIPPED_SOURCE = hard.DEAL_SOURCE  # Hard's own source, before use_mode swaps it
_playing: list[Match] = []  # the match whose seat views are being made (one at a time per process)


def _recording_seat_view(match: Match, seat: int) -> SeatView:
    """``seat_view``, remembering the match so the diagnostic deal sources can read its true hands."""
    _playing[:] = [match]
    return seat_view(match, seat)


class _Deals:
    """A deal source for Hard: true hands, uniform deals or the shipped chain, by mode."""

    mode = "inferred"

    def __init__(
        self, view: SeatView, events: list[ActionEvent], rng: random.Random, *, deadline: float | None = None
    ) -> None:
        self.view, self.rng = view, rng
        true = self.mode == "true_hands" or (self.mode == "true_in_endgame" and hard.in_endgame(view))
        named = self.mode in ("uniform", "chain", "chains", "posterior", "model", "particles")
        self.source = "true" if true else self.mode if named else "ship"
        self.chain: DealChain | DealChains | ModelDeals | DealSource | None = None
        if self.source == "chain":
            self.chain = DealChain(view, events[-MAX_EVENTS:], rng)  # the one chain Hard had: the last 12 actions
        elif self.source == "chains":
            self.chain = DealChains(view, action_events(view, hard.DEAL_EVENTS), rng)
        elif self.source == "posterior":
            every = action_events(view, hard.DEAL_EVENTS)
            self.chain = DealChains(view, every, rng, POSTERIOR_CHAINS, POSTERIOR_LIKELIHOOD, burn_in=POSTERIOR_BURN_IN)
        elif self.source == "model":
            self.chain = ModelDeals(view, events, rng)
        elif self.source == "particles":
            self.chain = ParticleDeals(view, events, rng, deadline=deadline)
        elif self.source == "ship":
            self.chain = SHIPPED_SOURCE(view, events, rng, deadline=deadline)

    @property
    def work(self) -> int:
        """The chain's judged actions (what Hard charges to its step budget); none for the other sources."""
        return self.chain.work if self.chain is not None and self.source != "posterior" else 0

    def next_deal(self) -> list[int]:
        """The next deal: the match's own hands, a uniform deal, or the chain's next deal."""
        if self.chain is not None:
            return self.chain.next_deal()
        if self.source == "true":
            return list(_playing[0].hands)
        return sample_hands(self.view, self.rng)


def use_mode(mode: str) -> None:
    """Give Hard this mode's source of deals (and record each match whose seat views the bot loop makes)."""
    _Deals.mode = mode
    # The two seams the diagnostic swaps: the view-maker of the bot loop and Hard's deal source.
    vars(driver)["seat_view"] = _recording_seat_view
    vars(hard)["DEAL_SOURCE"] = _Deals


def mode_parser(doc: str | None, deals: int, modes: str) -> argparse.ArgumentParser:
    """The options of a benchmark run once per mode: ``--deals``, ``--seed``, ``--processes``, ``--mode``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--deals", type=int, default=deals, help=f"deals per mode (default {deals})")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--mode", choices=MODES, action="append", help=f"run only these modes (default {modes})")
    return parser


def run_mode(mode: str, deals: int, seed: int, processes: int, progress: bool = True) -> dict[str, Any]:
    """Hard vs 3× Medium with this source of deals (the workers are forked with it in place)."""
    use_mode(mode)
    row = run_arena(
        ArenaConfig("hard", "medium", deals=deals, preset="standard", seed=seed), processes=processes, progress=progress
    )
    return {"mode": mode, **row}


def main(argv: list[str]) -> int:
    """Run the chosen modes and print the table and the JSON rows."""
    args = mode_parser(__doc__, deals=200, modes="all four").parse_args(argv)
    multiprocessing.set_start_method("fork", force=True)  # the workers inherit the swapped deal source
    rows = [run_mode(mode, args.deals, args.seed, args.processes) for mode in args.mode or MODES]
    head, rule, *lines = format_table(rows).splitlines()
    print(f"{'mode':<16} {head}\n{'-' * 17}{rule}", file=sys.stderr)
    for row, line in zip(rows, lines, strict=False):
        print(f"{row['mode']:<16} {line}", file=sys.stderr)
    print(lines[-1], file=sys.stderr)
    machine = {"machine_cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps({**machine, "results": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
