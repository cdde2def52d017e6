"""How well Hard's inference places the unseen cards (`make bench-inference`), against a uniform guess.

Held-out deals (standard preset, four seats, a seed not used in training) are
played by Medium in every seat. At every decision, each inference model gives
each unseen card a probability per other seat; the benchmark scores the
probability of the card's true holder:

- ``log_loss``: mean −ln p(true holder) over the cards (lower is better);
- ``accuracy``: share of cards whose most likely holder is the true one;
- ``gain``: 1 − log_loss / uniform log_loss (the issue asks ≥ 0.15 in the middle phase).

Models: ``uniform`` (each seat by its count of cards), ``model`` (the learned card
model, :mod:`tienlen.bots.cardmodel`) and ``chain`` (the marginals of
``--chain-deals`` deals of the Metropolis chain Hard used before, :mod:`tienlen.bots.sampling`;
slow, so it scores every ``--chain-every``-th decision only) and ``chains`` (``--chains N``
independent chains over every action of the hand, ``--chain-rounds`` deals each (default 4), at the same
decisions; Hard's search draws about 24 a chain: ``--chains 12 --chain-rounds 24``). Phases are those of
``bench/hard_decisions.py``: the fewest cards another seat holds (``late`` ≤ 2,
``middle`` 3–8, ``early`` ≥ 9). Prints a table (stderr) and JSON (stdout).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

from tienlen.bots import deal_seed, driver
from tienlen.bots.cardmodel import MAX_EVENTS, card_probabilities, holder_count, holders
from tienlen.bots.hard import DEAL_EVENTS, DealSource
from tienlen.bots.infer import action_events
from tienlen.bots.medium import choose_medium
from tienlen.bots.particles import ParticleDeals
from tienlen.bots.sampling import DealChain, DealChains
from tienlen.engine.cards import indices
from tienlen.engine.match import Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView, seat_view

PHASES = ("early", "middle", "late")
PRIOR_DEALS = 4.0
EVAL_SEED = 1  # the training script uses other seeds (bench/train_infer.py)
CHAIN_ROUNDS = 4  # deals drawn from each of the independent chains (--chain-rounds)
Probabilities = tuple[list[int], list[int], list[list[float]]]


def phase_of(view: SeatView) -> str:
    """``late`` when another seat holds at most 2 cards, ``middle`` at most 8, else ``early``."""
    fewest = min(view.cards_left[s] for s in view.opponents)
    return "late" if fewest <= 2 else "middle" if fewest <= 8 else "early"


def decisions(deal: int, seed: int) -> Iterator[tuple[SeatView, list[int]]]:
    """Every decision of one deal played by Medium in all four seats: the seat's view and the true hands."""
    rules = resolve_rules({"preset": "standard", "hands": 1}, players=4)
    match, _ = Match.new(rules, random.Random(deal_seed(seed, deal)))
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        view = seat_view(match, seat)
        if view.opponents and view.unseen:
            yield view, list(match.hands)
        action = choose_medium(view, match.legal_plays(), driver.bot_rng(match, seat))
        match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)


def uniform(view: SeatView) -> Probabilities:
    """Each holder in proportion to its count of cards."""
    unseen, seats = list(indices(view.unseen)), holders(view)
    counts = [holder_count(view, h) for h in seats]
    total = sum(counts)
    return unseen, seats, [[c / total] * len(unseen) for c in counts]


def deal_shares(view: SeatView, source: DealSource, deals: int) -> Probabilities:
    """The share of ``deals`` deals of ``source`` that give each card to each holder (a little of the uniform
    guess mixed in, so that a card never dealt to its holder does not score infinity)."""
    unseen, seats = list(indices(view.unseen)), holders(view)
    tally = [[0.0] * len(unseen) for _ in seats]
    for _ in range(deals):
        hands = source.next_deal()
        for h, seat in enumerate(seats):
            held = hands[seat] if seat < view.players else view.unseen & ~sum(hands[s] for s in view.opponents)
            for i, card in enumerate(unseen):
                tally[h][i] += held >> card & 1
    base = uniform(view)[2]
    return (
        unseen,
        seats,
        [
            [(t / deals) * 0.95 + 0.05 * b for t, b in zip(row, brow, strict=True)]
            for row, brow in zip(tally, base, strict=True)
        ],
    )


def chain_marginals(view: SeatView, deals: int) -> Probabilities:
    """The shares of ``deals`` deals of the one Metropolis chain Hard had (over the last 12 actions)."""
    return deal_shares(view, DealChain(view, action_events(view), random.Random(7)), deals)


def chains_marginals(view: SeatView, chains: int, rounds: int = CHAIN_ROUNDS) -> Probabilities:
    """The shares of ``rounds`` deals per chain of ``chains`` independent chains over every action of the
    hand (:class:`DealChains`, Hard's source of deals, with its chain count given)."""
    source = DealChains(view, action_events(view, DEAL_EVENTS), random.Random(7), chains)
    return deal_shares(view, source, chains * rounds)


def particle_marginals(view: SeatView, particles: int) -> Probabilities:
    """The weighted share of the particles (:class:`ParticleDeals`) giving each card to each holder.

    The particles' shares are shrunk towards the card model's own probabilities
    as if those were :data:`PRIOR_DEALS` more deals, against the particles'
    effective count (so that a card no particle gives its holder does not score infinity).
    """
    deals = ParticleDeals(view, action_events(view, MAX_EVENTS), random.Random(7), particles)
    deals.next_deal()
    unseen, seats, base = card_probabilities(view)
    tally = [[0.0] * len(unseen) for _ in seats]
    total = sum(deals.weights)
    for hands, weight in zip(deals.deals, deals.weights, strict=True):
        for h, seat in enumerate(seats):
            held = hands[seat] if seat < view.players else view.unseen & ~sum(hands[s] for s in view.opponents)
            for i, card in enumerate(unseen):
                if held >> card & 1:
                    tally[h][i] += weight / total
    ess = total * total / sum(w * w for w in deals.weights)
    keep = ess / (ess + PRIOR_DEALS)
    return (
        unseen,
        seats,
        [
            [t * keep + (1 - keep) * b for t, b in zip(row, brow, strict=True)]
            for row, brow in zip(tally, base, strict=True)
        ],
    )


def score(probs: Probabilities, view: SeatView, hands: list[int]) -> tuple[float, int, int]:
    """Summed −ln p(true holder), cards placed right by the most likely holder, and cards scored."""
    unseen, seats, p = probs
    loss, right = 0.0, 0
    for i, card in enumerate(unseen):
        owner = next((h for h, s in enumerate(seats) if s < view.players and hands[s] >> card & 1), len(seats) - 1)
        loss -= math.log(max(p[owner][i], 1e-12))
        best = max(range(len(seats)), key=lambda h: p[h][i])
        right += best == owner
    return loss, right, len(unseen)


def _deal_rows(args: tuple[int, int, int, int, int, int, int]) -> dict[str, list[float]]:
    """Summed log-loss, right guesses and cards of one deal's decisions, by ``model/phase``."""
    deal, seed, chain_deals, chain_every, particles, chains, rounds = args
    models: dict[str, Callable[[SeatView], Probabilities]] = {"uniform": uniform, "model": card_probabilities}
    out: dict[str, list[float]] = {}
    for index, (view, hands) in enumerate(decisions(deal, seed)):
        phase = phase_of(view)
        chosen = dict(models)
        if chain_deals and index % chain_every == 0:
            chosen["chain@chain"] = lambda v: chain_marginals(v, chain_deals)
            chosen["uniform@chain"] = uniform
            chosen["model@chain"] = card_probabilities
        if chains and index % chain_every == 0:
            chosen["chains@sub"] = lambda v: chains_marginals(v, chains, rounds)
            chosen["uniform@sub"] = uniform
        if particles and index % chain_every == 0:
            chosen["particles@sub"] = lambda v: particle_marginals(v, particles)
            chosen["uniform@sub"] = uniform
            chosen["model@sub"] = card_probabilities
        for name, model in chosen.items():
            loss, right, n = score(model(view), view, hands)
            row = out.setdefault(f"{name}/{phase}", [0.0, 0.0, 0.0])
            row[0] += loss
            row[1] += right
            row[2] += n
    return out


def run(
    deals: int,
    seed: int,
    processes: int,
    chain_deals: int,
    chain_every: int,
    particles: int,
    chains: int = 0,
    chain_rounds: int = CHAIN_ROUNDS,
) -> dict[str, Any]:
    """Score every model over ``deals`` held-out deals; rows by model and phase."""
    jobs = [(deal, seed, chain_deals, chain_every, particles, chains, chain_rounds) for deal in range(deals)]
    totals: dict[str, list[float]] = {}
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            parts = pool.map(_deal_rows, jobs, chunksize=4)
    else:
        parts = [_deal_rows(job) for job in jobs]
    for part in parts:
        for key, (loss, right, n) in part.items():
            row = totals.setdefault(key, [0.0, 0.0, 0.0])
            row[0] += loss
            row[1] += right
            row[2] += n
    for key in list(totals):
        name, phase = key.split("/")
        row = totals.setdefault(f"{name}/all", [0.0, 0.0, 0.0])
        if phase != "all":
            for k in range(3):
                row[k] += totals[key][k]
    result: dict[str, Any] = {}
    for key, (loss, right, n) in sorted(totals.items()):
        name, phase = key.split("/")
        base_name = "uniform@" + name.split("@")[1] if "@" in name else "uniform"
        base = totals.get(f"{base_name}/{phase}", [loss, 0.0, n])
        ll = loss / n
        result[key] = {
            "cards": int(n),
            "log_loss": round(ll, 4),
            "accuracy": round(right / n, 4),
            "gain": round(1 - ll / (base[0] / base[2]), 4),
        }
    return result


def main(argv: list[str]) -> int:
    """Score the models and print a table and JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="held-out deals (default 200)")
    parser.add_argument("--seed", type=int, default=EVAL_SEED)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--chain-deals", type=int, default=0, help="chain deals a decision for its marginals (0: off)")
    parser.add_argument("--chain-every", type=int, default=5, help="score chain/particles at every N-th decision")
    parser.add_argument("--particles", type=int, default=0, help="particles a decision (0: off)")
    parser.add_argument("--chains", type=int, default=0, help="independent chains a decision (0: off)")
    parser.add_argument("--chain-rounds", type=int, default=CHAIN_ROUNDS, help="deals drawn from each chain")
    args = parser.parse_args(argv)
    multiprocessing.set_start_method("fork", force=True)
    rows = run(
        args.deals,
        args.seed,
        args.processes,
        args.chain_deals,
        args.chain_every,
        args.particles,
        args.chains,
        args.chain_rounds,
    )
    print(f"{'model/phase':<22} {'cards':>8} {'log-loss':>9} {'accuracy':>9} {'gain':>7}", file=sys.stderr)
    for key, row in rows.items():
        print(
            f"{key:<22} {row['cards']:>8} {row['log_loss']:>9.4f} {row['accuracy']:>9.4f} {row['gain']:>+7.3f}",
            file=sys.stderr,
        )
    machine = {"machine_cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2)}
    print(json.dumps({**machine, "deals": args.deals, "seed": args.seed, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
