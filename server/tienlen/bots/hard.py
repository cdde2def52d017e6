"""Hard: determinized Monte Carlo search over a few candidate moves.

For each sample it deals the unseen cards to the other seats consistently with
their card counts (with fewer than four players the rest stay out of play),
preferring deals that explain the other seats' passes (:mod:`.infer`), plays
every candidate out with the Medium policy for all seats until the first seat
is out, and picks the candidate with the best mean value: points for the
(estimated) finishing place plus a large first-place bonus. Samples are shared
by all candidates. The search stops at a fixed iteration count and a fixed
count of simulated actions (both reproducible) and, when ``budget_s`` is given,
at that wall-clock budget, checked inside the loop.
"""

from __future__ import annotations

import random
import time

from ..engine.cards import indices
from ..engine.combos import classify
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from .base import PASS_ACTION, Action, play_action
from .infer import PassEvent, pass_events, unexplained
from .medium import answer_score, choose_medium
from .planner import plan_combos, plan_cost
from .sim import SimHand

DEFAULT_ITERATIONS = 300
MAX_CANDIDATES = 5
FIRST_BONUS = 2.0
MAX_STEPS = 6000
DEFAULT_PRIOR = 0.1
SAMPLE_TRIES = 4


def candidates(view: SeatView, legal: LegalPlays, medium: Action) -> list[int]:
    """The moves worth searching (masks; 0 = pass), Medium's own choice first."""
    masks = {p.mask for p in legal.plays}
    first = 0 if medium.is_pass else medium.mask
    out = [first]
    if view.table is None:
        pool = [p.mask for p in plan_combos(view.hand) if p.mask in masks]
        if view.start_card is not None:
            pool += sorted((m for m in masks if m >> view.start_card & 1), key=lambda m: -m.bit_count())
        else:
            pool += [p.mask for p in legal.plays if p.mask.bit_count() >= 3 and p.mask & view.hand & -view.hand]
    else:
        hand_cost = plan_cost(view.hand)
        scored = []
        for combo in legal.plays:
            scored.append((answer_score(view.hand, hand_cost, combo.mask, view.table, True), combo.mask))
        scored.sort(key=lambda t: -t[0])
        pool = [m for _, m in scored]
        if legal.can_pass:
            pool.insert(1, 0)
    for mask in pool:
        if mask not in out:
            out.append(mask)
        if len(out) >= MAX_CANDIDATES:
            break
    return out


def sample_hands(view: SeatView, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the other seats by their card counts (the rest stay out of play)."""
    unseen = list(indices(view.unseen))
    rng.shuffle(unseen)
    hands = [0] * view.players
    pos = 0
    for seat in range(view.players):
        if seat == view.seat:
            hands[seat] = view.hand
            continue
        count = view.cards_left[seat]
        mask = 0
        for card in unseen[pos : pos + count]:
            mask |= 1 << card
        pos += count
        hands[seat] = mask
    return hands


def sample_consistent(view: SeatView, rng: random.Random, events: list[PassEvent]) -> tuple[list[int], int]:
    """A sampled deal that best explains the other seats' passes (the first of a few draws explaining all).

    Also returns the work done (pass checks), charged to the search's action budget.
    """
    best = sample_hands(view, rng)
    if not events:
        return best, 0
    best_miss = unexplained(events, best, view, len(events))
    work = len(events)
    for _ in range(SAMPLE_TRIES - 1):
        if best_miss == 0:
            break
        hands = sample_hands(view, rng)
        miss = unexplained(events, hands, view, best_miss)
        work += len(events)
        if miss < best_miss:
            best, best_miss = hands, miss
    return best, work


def start_simulation(view: SeatView, hands: list[int]) -> SimHand:
    """A simulator of the rest of the hand from this situation, with these hands dealt."""
    return SimHand(
        hands=hands,
        turn=view.seat,
        table=view.table,
        table_seat=view.table_seat,
        locked=view.locked,
        bombs=view.rules.bombs,
        reentry_rule=view.rules.pass_reentry_with_bomb,
        end_on_first_out=view.rules.end_on_first_out,
        played=view.played,
        start_card=view.start_card,
    )


def estimated_place(sim: SimHand, seat: int) -> int:
    """The seat's place (0 = first) once the first seat is out: places so far, then by plan cost.

    Playouts stop at the first seat out (first place is what Hard plays for);
    the seats still holding cards are ranked by how many plays their hands still
    need (the planner's cost), fewer cards breaking ties.
    """
    if seat in sim.places:
        return sim.places.index(seat)
    holding = [s for s in range(sim.players) if sim.hands[s] and s not in sim.places]
    holding.sort(key=lambda s: (plan_cost(sim.hands[s]), sim.hands[s].bit_count(), s != seat))
    return len(sim.places) + holding.index(seat)


def playout_value(view: SeatView, hands: list[int], move: int) -> tuple[float, int]:
    """Points (players − 1 − place index, plus a first-place bonus) after ``move`` and Medium play on.

    The playout runs until the first seat is out; later places are estimated
    (:func:`estimated_place`). Also returns how many simulated actions it took.
    """
    sim = start_simulation(view, list(hands))
    if move == 0:
        sim.pass_turn()
    else:
        sim.play(move)
    sim.run_until_first_out()
    place = estimated_place(sim, view.seat)
    return float(view.players - 1 - place) + (FIRST_BONUS if place == 0 else 0.0), sim.steps


def choose_hard(
    view: SeatView,
    legal: LegalPlays,
    rng: random.Random,
    *,
    budget_s: float | None = None,
    iterations: int | None = None,
) -> Action:
    """Hard's choice: Medium's candidates compared by sampled playouts."""
    medium = choose_medium(view, legal, rng)
    if not legal.plays:
        return medium
    cands = candidates(view, legal, medium)
    if len(cands) == 1:
        return medium
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    total = DEFAULT_ITERATIONS if iterations is None else iterations
    totals = [0.0] * len(cands)
    events = pass_events(view)
    samples = steps = 0
    while (samples + 1) * len(cands) <= max(total, len(cands)):
        if samples > 0 and (steps > MAX_STEPS or (deadline is not None and time.perf_counter() > deadline)):
            break
        hands, work = sample_consistent(view, rng, events)
        steps += work
        for i, move in enumerate(cands):
            value, used = playout_value(view, hands, move)
            totals[i] += value
            steps += used
        samples += 1
    totals[0] += DEFAULT_PRIOR * samples
    best = max(range(len(cands)), key=lambda i: (totals[i], -i))
    move = cands[best]
    if move == 0:
        return PASS_ACTION if legal.can_pass else medium
    return play_action(move) if classify(move) is not None else medium
