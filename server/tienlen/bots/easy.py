"""Easy: the lowest play that beats the table, keeping rank groups whole when it can."""

from __future__ import annotations

import random

from ..engine.cards import TWO_RANK
from ..engine.combos import Combination, is_bomb
from ..engine.kinds import Kind
from ..engine.legal import nibbles
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from .base import PASS_ACTION, Action, play_action


def _breaks(hand: int, play: Combination) -> int:
    """How many rank groups of the hand this play splits (cards left behind at a used rank)."""
    nibs = nibbles(hand)
    used = nibbles(play.mask)
    return sum(1 for r in range(13) if used[r] and nibs[r] != used[r])


def choose_easy(view: SeatView, legal: LegalPlays, rng: random.Random) -> Action:
    """A plain choice: lead the lowest card in its largest group, answer as low as possible."""
    plays = list(legal.plays)
    if not plays:
        return PASS_ACTION
    if view.table is None:
        low = view.hand & -view.hand
        anchor = low if view.start_card is None else 1 << view.start_card
        with_low = [p for p in plays if p.mask & anchor] or plays
        if rng.random() < 0.15:
            return play_action(rng.choice(with_low).mask)
        best = max(with_low, key=lambda p: (p.mask.bit_count(), -_breaks(view.hand, p), -p.top))
        return play_action(best.mask)
    table = view.table
    if legal.can_pass and rng.random() < 0.08:
        return PASS_ACTION
    bombs = [p for p in plays if is_bomb(p, table, view.rules.bombs)]
    ordinary = [p for p in plays if p not in bombs]
    if ordinary:
        whole = [p for p in ordinary if _breaks(view.hand, p) == 0]
        pool = whole or ordinary
        cheap = [p for p in pool if p.top >> 2 != TWO_RANK or view.hand.bit_count() <= 4]
        if not cheap and legal.can_pass and rng.random() < 0.5:
            return PASS_ACTION
        pick = min(cheap or pool, key=lambda p: p.top)
        return play_action(pick.mask)
    if bombs and (rng.random() < 0.7 or not legal.can_pass):
        return play_action(min(bombs, key=lambda p: (p.kind is Kind.FOUR_OF_A_KIND, p.top)).mask)
    return PASS_ACTION if legal.can_pass else play_action(plays[0].mask)
