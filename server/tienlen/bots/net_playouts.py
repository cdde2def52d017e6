"""Hard's playouts with the searching seat's next moves chosen by Master's network: the reference of the core's.

In Master's search (:mod:`.master`) a playout plays the candidate, then every
seat by Medium until one is out, as Hard's do, but for the searching seat's
next ``moves`` moves: those are the network's best among Hard's candidates in
that position (:func:`net_move`), read from what the seat would see then (its
hand, the cards each seat played this hand, the counts, the locks, the
table). The compiled core has the same playouts (native/src/netplay.rs,
search.rs), the same numbers (the network's lanes, :meth:`.MasterNet.blocked_logits`)
and so the same values; ``tests/bots/test_master_compiled.py`` checks both.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import FULL_DECK
from ..engine.combos import Combination
from ..engine.legal import legal_masks_of
from ..engine.views import SeatView
from . import compiled
from .hard import MAX_CANDIDATES
from .master_features import action_inputs_of, situation_of
from .master_net import MasterNet, sigmoid
from .medium import answer_score
from .planner import plan_combos, plan_cost
from .playouts import Playouts, estimated_place, played_by_seat, playouts_for, start_simulation
from .policy import classify_cached, policy_answer, policy_lead


def sight_candidates(hand: int, table: Combination | None, legal: Sequence[int], medium: int) -> list[int]:
    """Hard's candidates (:func:`.hard.candidates`) in a playout: Medium's choice first, then the plan's plays (and
    the plays of three cards or more with the lowest card) on a lead, or the answers by Medium's score with a pass
    second; at most :data:`.hard.MAX_CANDIDATES`. (No start card: the hand's first lead is never a later move.)"""
    out = [medium]
    if table is None:
        pool = [p.mask for p in plan_combos(hand) if p.mask in legal]
        lowest = hand & -hand
        pool += [m for m in legal if m.bit_count() >= 3 and m & lowest]
    else:
        cost = plan_cost(hand)
        scored = [(answer_score(hand, cost, m, table, True), m) for m in legal]
        scored.sort(key=lambda t: -t[0])
        pool = [m for _, m in scored]
        pool.insert(1, 0)
    for mask in pool:
        if len(out) >= MAX_CANDIDATES:
            break
        if mask not in out:
            out.append(mask)
    return out


def net_move(
    net: MasterNet,
    first_bonus: float,
    seat: int,
    hand: int,
    played_by: Sequence[int],
    cards_left: Sequence[int],
    locked: int,
    table: Combination | None,
    table_seat: int | None,
    legal: Sequence[int],
    medium: int,
) -> int:
    """The candidate the network values most (its worth: place points plus ``first_bonus`` times the chance of
    first place; the first of equals); Medium's choice when it is the only candidate."""
    candidates = sight_candidates(hand, table, legal, medium)
    if len(candidates) < 2:
        return medium
    unseen = FULL_DECK & ~hand
    for mask in played_by:
        unseen &= ~mask
    shared = situation_of(
        seat, played_by, cards_left, locked, unseen, None if table is None else table.mask, table_seat
    )
    situation = net.first_layer32(shared)
    top_unseen = unseen.bit_length() - 1
    best, best_worth = medium, float("-inf")
    for mask in candidates:
        combo = None if mask == 0 else classify_cached(mask)
        kind = None if combo is None else combo.kind
        first, points = net.blocked_logits(situation, action_inputs_of(hand, candidates, top_unseen, mask, kind))
        worth = (len(cards_left) - 1) * sigmoid(points) + first_bonus * sigmoid(first)
        if worth > best_worth:
            best, best_worth = mask, worth
    return best


def led_playout_value(
    view: SeatView, hands: list[int], move: int, first_bonus: float, net: MasterNet, moves: int
) -> tuple[float, int]:
    """:func:`.playouts.playout_value` with the seat's next ``moves`` moves after ``move`` the network's
    (:func:`net_move`), Medium's after them: the points and the simulated actions."""
    sim = start_simulation(view, list(hands))
    played_by = played_by_seat(view)
    if move == 0:
        sim.pass_turn()
    else:
        played_by[view.seat] |= move
        sim.play(move)
    cards_left = [h.bit_count() for h in sim.hands]
    bombs = sim.bombs
    for _ in range(400):
        if sim.places or sim.done:
            break
        seat, hand, table = sim.turn, sim.hands[sim.turn], sim.table
        locked = bool(sim.locked >> seat & 1)
        if table is None:
            chosen = policy_lead(hand, cards_left, seat, bombs, FULL_DECK & ~hand & ~sim.played, sim.start_card)
        else:
            assert sim.table_seat is not None
            chosen = policy_answer(hand, table, sim.table_seat, cards_left, seat, bombs, locked)
        if seat == view.seat and moves > 0:
            moves -= 1
            legal = legal_masks_of(hand, table, bombs, locked, sim.start_card)
            seen = (seat, hand, played_by, cards_left, sim.locked, table, sim.table_seat)
            chosen = net_move(net, first_bonus, *seen, legal, chosen)
        sim.steps += 1
        if chosen:
            cards_left[seat] -= chosen.bit_count()
            played_by[seat] |= chosen
            sim.play(chosen)
        else:
            sim.pass_turn()
    place = estimated_place(sim, view.seat)
    return float(view.players - 1 - place) + (first_bonus if place == 0 else 0.0), sim.steps


class NetLedPlayouts:
    """:func:`led_playout_value` for each move: the reference the core's network-led playouts match."""

    def __init__(self, view: SeatView, first_bonus: float, net: MasterNet, moves: int) -> None:
        """Playouts from ``view``'s position, the seat's next ``moves`` moves the network's."""
        self.view, self.first_bonus, self.net, self.moves = view, first_bonus, net, moves

    def values(self, hands: list[int], moves: list[int]) -> list[tuple[float, int]]:
        """For each move on this deal: (points, simulated actions)."""
        return [led_playout_value(self.view, hands, m, self.first_bonus, self.net, self.moves) for m in moves]


def led_playouts_for(view: SeatView, first_bonus: float, net: MasterNet, moves: int) -> Playouts:
    """Playouts from ``view``'s position with the seat's next ``moves`` moves the network's: in the compiled core
    when the engine uses it and the network has its compiled copy, else :class:`NetLedPlayouts`."""
    runner = playouts_for(view, first_bonus)
    if net.compiled is None or not isinstance(runner, compiled.CompiledPlayouts):
        return NetLedPlayouts(view, first_bonus, net, moves)
    runner.use_net(net.compiled, played_by_seat(view), first_bonus, moves)
    return runner
