"""Hard: determinized Monte Carlo search over a few candidate moves, and an exact endgame.

It deals the unseen cards to the other seats consistently with their card
counts (with fewer than four players the rest stay out of play), drawing deals
by how likely the other seats' plays and passes this hand were under the Medium
policy, from independent chains handed out in turn (:mod:`.sampling`,
:mod:`.infer`; :data:`DEAL_SOURCE`), plays each candidate out on those deals with
the Medium policy for all seats until the first seat is out, and picks the
candidate with the best mean value: points for the (estimated) finishing place
plus a large first-place bonus. Candidates are compared by sequential halving
on shared deals: all of them on a few deals, then the better half on more.

When few cards remain (every hand at most :data:`ENDGAME_CARDS` cards, or the
seat's own hand splits into two plays) it first searches sampled deals exactly
(:mod:`.endgame`): a move that forces a first place on every sampled deal is
played at once. The search stops at fixed counts of playouts, simulated
actions and searched positions (all reproducible) and, when ``budget_s`` is
given, at that wall-clock budget, checked inside the loops.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from ..engine.combos import classify
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from . import compiled
from .base import PASS_ACTION, Action, play_action
from .endgame import forced_moves
from .infer import ActionEvent, action_events
from .medium import answer_score, choose_medium
from .planner import plan_combos, plan_cost, plan_size
from .playouts import Playouts, playouts_for
from .sampling import DealChains


class DealSource(Protocol):
    """Where the search's deals come from: a deal a call, and the actions judged so far (charged as steps)."""

    @property
    def work(self) -> int:
        """The actions judged so far (the search charges them to its step budget)."""
        ...

    def __init__(
        self, view: SeatView, events: list[ActionEvent], rng: random.Random, *, deadline: float | None = None
    ) -> None: ...

    def next_deal(self) -> list[int]:
        """The next deal: a hand a seat, the seat's own hand as it is."""
        ...


DEFAULT_ITERATIONS = 300  # playouts a decision, times the search scale (see COMPILED_SEARCH_SCALE)
# What makes a search's playouts from a position and the first place's bonus (:func:`.playouts.playouts_for`).
PlayoutsFor = Callable[[SeatView, float], Playouts]
MAX_CANDIDATES = 5
# First place is what Hard plays for; the later places' estimate is rough, so weighing it less helps (the bonus
# went from 6 to 20: docs/bots.md, figures in docs/benchmarks.md, make bench-bots and make bench-hard-decisions).
FIRST_BONUS = 20.0
MAX_STEPS = 7000  # simulated actions (and deals judged) a decision; sets the p99 decision time
DEFAULT_PRIOR = 0.1
ENDGAME_CARDS = 6
ENDGAME_SAMPLES = 8
ENDGAME_NODES = 3000  # positions searched per sampled deal
ENDGAME_STEP_COST = 1  # simulated actions charged per searched position
# Independent Metropolis chains over every action of the hand: stronger than the one chain over the last 12
# actions they replaced; the card model's particles (.particles) measured no better (docs/bots.md).
DEAL_SOURCE: type[DealSource] = DealChains
DEAL_EVENTS = 60  # the other seats' actions the deals are judged by: every action of a hand (a hand has fewer)
# The compiled loops (.compiled) run the same search many times faster, so with them Hard searches this many times
# its counts (playouts and steps) within about the same clock (docs/bots.md; the scales tried and their figures are
# in docs/benchmarks.md, make bench-bots).
COMPILED_SEARCH_SCALE = 5


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


def in_endgame(view: SeatView) -> bool:
    """Few cards remain: every hand holds at most :data:`ENDGAME_CARDS`, or the seat's hand is two plays."""
    if view.start_card is not None:
        return False
    if all(count <= ENDGAME_CARDS for count in view.cards_left):
        return True
    return plan_size(view.hand) <= 2


def hidden_cards_known(view: SeatView) -> bool:
    """Whether the other hands are determined: every unseen card is held by the one other seat holding cards."""
    holding = view.opponents
    return len(holding) <= 1 and sum(view.cards_left[s] for s in holding) == view.unseen.bit_count()


def endgame_move(
    view: SeatView, legal: LegalPlays, deals: DealSource, deadline: float | None
) -> tuple[int | None, int]:
    """A move (mask, 0 = pass) that forces a first place on every sampled deal, or None; also the work done.

    Deals come from the same chain as the playouts' deals; one deal suffices
    when the hidden cards are known. Among several forcing moves Medium's own
    order decides: the one shedding the most cards, then the lowest. Past the
    ``deadline`` no more deals are drawn (drawing one burns a chain in) and
    no move is known to force a first place: None.
    """
    allowed = {p.mask for p in legal.plays} | ({0} if legal.can_pass else set())
    always: set[int] | None = None
    work = 0
    for _ in range(1 if hidden_cards_known(view) else ENDGAME_SAMPLES):
        if deadline is not None and time.perf_counter() > deadline:
            return None, work
        hands = deals.next_deal()
        result, nodes = forced_moves(
            hands,
            view.seat,
            view.table,
            view.table_seat,
            view.locked,
            view.rules.bombs,
            view.rules.pass_reentry_with_bomb,
            node_limit=ENDGAME_NODES,
            deadline=deadline,
        )
        work += nodes * ENDGAME_STEP_COST
        forcing = {move for move, wins in result.items() if wins and move in allowed}
        always = forcing if always is None else always & forcing
        if not always:
            return None, work
    if not always:
        return None, work
    return min(always, key=lambda m: (-m.bit_count(), m)), work


def compare_candidates(
    view: SeatView,
    cands: list[int],
    deals: DealSource,
    playouts: int,
    step_budget: int,
    deadline: float | None,
    head_starts: list[float] | None = None,
    playouts_of: PlayoutsFor | None = None,
) -> int:
    """The index of the candidate with the best mean playout value, by sequential halving.

    Each round plays every candidate still in the race out on the same fresh
    deals (common deals make the comparison fairer), then keeps the better
    half; the ``playouts`` are split evenly over the rounds, so the last two
    candidates are compared on many more deals than the first ones. Medium's
    own choice (index 0) gets a small head start per deal (``head_starts``: a
    head start a deal for each candidate instead). Stops early when the
    simulated actions (deals drawn included) pass ``step_budget`` or at the
    ``deadline``. With the compiled chains and playouts a round is one call of
    the core (the same deals, values and stops). ``playouts_of`` makes the
    playouts (default: :func:`.playouts.playouts_for`).
    """
    active = list(range(len(cands)))
    totals = [0.0] * len(cands)
    rounds = max(1, (len(cands) - 1).bit_length())
    seen = steps = 0

    starts = head_starts or [DEFAULT_PRIOR, *([0.0] * (len(cands) - 1))]

    def score(i: int) -> tuple[float, int]:
        return totals[i] + starts[i] * seen, -i

    start_work = deals.work
    runner = (playouts_of or playouts_for)(view, FIRST_BONUS)
    chains = deals.compiled if isinstance(deals, DealChains) else None
    for round_index in range(rounds):
        round_deals = max(1, playouts // (len(active) * rounds))
        if chains is not None and isinstance(runner, compiled.CompiledPlayouts):
            # The same round in one call of the compiled core: its chains' deals, its playouts, the same stops.
            progress = compiled.SearchProgress(seen, steps, start_work, step_budget)
            round_totals = [totals[i] for i in active]
            seconds = None if deadline is None else deadline - time.perf_counter()
            stopped = runner.search_round(
                chains, [cands[i] for i in active], round_totals, round_deals, progress, seconds
            )
            for i, total in zip(active, round_totals, strict=True):
                totals[i] = total
            seen, steps = progress.seen, progress.steps
            if stopped:
                return max(active, key=score)
        else:
            for _ in range(round_deals):
                out_of_time = deadline is not None and time.perf_counter() > deadline
                if seen > 0 and (steps + deals.work - start_work > step_budget or out_of_time):
                    return max(active, key=score)
                values = runner.values(deals.next_deal(), [cands[i] for i in active])
                for i, (value, used) in zip(active, values, strict=True):
                    totals[i] += value
                    steps += used
                seen += 1
        if round_index < rounds - 1:
            active = sorted(active, key=score, reverse=True)[: (len(active) + 1) // 2]
    return max(active, key=score)


def search_scale() -> int:
    """How many times its fixed counts Hard searches on this build: :data:`COMPILED_SEARCH_SCALE` with the
    compiled loops (:data:`.compiled.CORE`), else 1. The same seed and scale give the same choice on either build."""
    return COMPILED_SEARCH_SCALE if compiled.CORE is not None else 1


def choose_hard(
    view: SeatView,
    legal: LegalPlays,
    rng: random.Random,
    *,
    budget_s: float | None = None,
    iterations: int | None = None,
    effort: int = 1,
    first: list[int] | None = None,
    head_start: Callable[[list[int]], list[float]] | None = None,
    playouts: PlayoutsFor | None = None,
) -> Action:
    """Hard's choice: a move forcing first place in the endgame, else Medium's candidates compared by playouts.

    ``effort`` multiplies the fixed search counts (playouts and the step
    budget), as does the build's :func:`search_scale`: the Expert level is
    Hard at a higher effort. ``budget_s`` and ``iterations``, when given, are
    taken as they are. ``first`` (legal moves, 0 = pass) go before Medium's
    candidates, the first of them with Medium's head start; ``head_start``
    gives each candidate its own head start a deal instead (Master's network);
    ``playouts`` makes the search's playouts instead of :func:`.playouts.playouts_for`
    (Master's, led by its network).
    """
    medium = choose_medium(view, legal, rng)
    if not legal.plays:
        return medium
    deadline = None if budget_s is None else time.perf_counter() + budget_s
    deals = DEAL_SOURCE(view, action_events(view, DEAL_EVENTS), rng, deadline=deadline)
    steps = 0
    if in_endgame(view):
        forced, searched = endgame_move(view, legal, deals, deadline)
        if forced is not None:
            return PASS_ACTION if forced == 0 else play_action(forced)
        steps = searched + deals.work  # the positions searched and the actions judged to draw their deals
    cands = candidates(view, legal, medium)
    if first:
        cands = list(dict.fromkeys([*first, *cands]))[: MAX_CANDIDATES + 1]
    if len(cands) == 1:
        return medium
    scale = effort * search_scale()
    total = DEFAULT_ITERATIONS * scale if iterations is None else iterations
    starts = None if head_start is None else head_start(cands)
    best = compare_candidates(view, cands, deals, total, MAX_STEPS * scale - steps, deadline, starts, playouts)
    move = cands[best]
    if move == 0:
        return PASS_ACTION if legal.can_pass else medium
    return play_action(move) if classify(move) is not None else medium
