"""Medium: plans its hand into the fewest plays and sheds the weakest pieces first.

It keeps 2s and bombs to win back the lead or to stop a player who is nearly
out, watches the opponents' card counts, and bombs 2s (also on a bomb re-entry
turn). :func:`decide` works on plain values so Hard's playouts can call it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..engine.cards import TWO_RANK
from ..engine.combos import Combination
from ..engine.kinds import Kind
from ..engine.match import LegalPlays
from ..engine.rules import Bombs
from ..engine.views import SeatView
from .base import PASS_ACTION, Action, play_action
from .planner import is_boss, is_control, plan_combos, plan_cost

PLAY_THRESHOLD = -2.5  # answer unless it costs the plan more than this (tuned against Easy: docs/benchmarks.md)


SINGLE_LEAD_DELAY = 7


def _lead_key(combo: Combination) -> tuple[bool, int, int]:
    low_rank = ((combo.mask & -combo.mask).bit_length() - 1) >> 2
    size = combo.mask.bit_count()
    return (is_control(combo), low_rank + (SINGLE_LEAD_DELAY if size == 1 else 0), -size)


def decide_lead(hand: int, unseen: int, bombs: Bombs, min_opp: int, start_card: int | None) -> int:
    """The piece Medium leads: the weakest, unless the endgame or a nearly-out opponent says otherwise."""
    pieces = plan_combos(hand)
    if start_card is not None:
        with_start = [p for p in pieces if p.mask >> start_card & 1]
        if with_start:
            return with_start[0].mask
        return 1 << start_card
    if len(pieces) == 1:
        return pieces[0].mask
    if len(pieces) <= 4:
        bosses = [p for p in pieces if is_boss(p, unseen, bombs)]
        if bosses and len(pieces) - len(bosses) <= 1:
            return max(bosses, key=lambda p: p.mask.bit_count()).mask
    if min_opp == 1:
        multi = [p for p in pieces if p.mask.bit_count() > 1]
        if multi:
            return min(multi, key=_lead_key).mask
        return max(pieces, key=lambda p: p.top).mask
    if min_opp == 2:
        not_pairs = [p for p in pieces if p.kind is not Kind.PAIR]
        if not_pairs:
            return min(not_pairs, key=_lead_key).mask
        return max(pieces, key=lambda p: p.top).mask
    return min(pieces, key=_lead_key).mask


def answer_score(hand: int, hand_cost: float, mask: int, table: Combination, urgent: bool) -> float:
    """How much Medium likes answering ``table`` with the legal answer ``mask`` (a pass scores 0).

    A legal answer with a different card count than the table is a bomb (docs/rules.md §4).
    """
    rest = hand & ~mask
    if rest == 0:
        return 1000.0
    top = mask.bit_length() - 1
    score = hand_cost - plan_cost(rest) - 0.05 * (top >> 2)
    if mask.bit_count() != table.mask.bit_count():
        return score + 6.0
    twos = (mask >> (4 * TWO_RANK)) & 15
    if twos and not urgent:
        spent = twos.bit_count()
        table_rank = table.top >> 2
        penalty = 6.0 if table_rank < 10 else 4.5 if table_rank < 12 else 3.0
        if rest.bit_count() <= 4:
            penalty -= 3.0
        score -= penalty * spent
    return score


def decide(
    seat: int,
    hand: int,
    table: Combination | None,
    table_seat: int | None,
    cards_left: Sequence[int],
    bombs: Bombs,
    unseen: int,
    answers: Sequence[int],
    start_card: int | None = None,
) -> int:
    """Medium's choice as a mask (0 = pass) from plain values; ``answers`` are the legal answers."""
    opp = [c for s, c in enumerate(cards_left) if s != seat and c > 0]
    min_opp = min(opp) if opp else 99
    if table is None:
        return decide_lead(hand, unseen, bombs, min_opp, start_card)
    if not answers:
        return 0
    owner_left = cards_left[table_seat] if table_seat is not None else 99
    urgent = 0 < owner_left <= 2 or min_opp <= 1
    hand_cost = plan_cost(hand)
    best, best_score = 0, PLAY_THRESHOLD if not urgent else -1e9
    for mask in answers:
        score = answer_score(hand, hand_cost, mask, table, urgent)
        if score > best_score:
            best, best_score = mask, score
    return best


def choose_medium(view: SeatView, legal: LegalPlays, rng: random.Random) -> Action:
    """Medium's choice for a seat's situation and legal plays."""
    masks = [p.mask for p in legal.plays]
    if not masks:
        return PASS_ACTION
    mask = decide(
        view.seat,
        view.hand,
        view.table,
        view.table_seat,
        view.cards_left,
        view.rules.bombs,
        view.unseen,
        masks,
        view.start_card,
    )
    if mask == 0 and legal.can_pass:
        return PASS_ACTION
    if mask in masks:
        return play_action(mask)
    return play_action(min(masks, key=lambda m: (m.bit_length(), -m.bit_count())))
