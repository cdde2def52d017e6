"""Medium's planner: fewest plays, whole pieces, and the rule-shaped pieces of docs/rules.md §2."""

from __future__ import annotations

import random

from tienlen.bots.planner import best_plan, plan_combos, plan_cost, plan_masks, plan_size, rank_counts
from tienlen.engine import format_mask, mask_of, parse_cards


def _hand(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def test_plan_partitions_the_hand_into_combinations() -> None:
    """Every plan piece is a combination (docs/rules.md §2) and the pieces partition the hand."""
    rng = random.Random(3)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[: rng.randint(1, 13)])
        masks = plan_masks(hand)
        assert len(plan_combos(hand)) == len(masks) == plan_size(hand)
        union = 0
        for mask in masks:
            assert union & mask == 0
            union |= mask
        assert union == hand


def test_plan_uses_the_fewest_plays() -> None:
    """3 4 5 5 6 7 splits into two runs, not a long run plus a stray 5."""
    pieces = [format_mask(m) for m in plan_masks(_hand("3S 4D 5C 5H 6S 7D"))]
    assert len(pieces) == 2
    assert all(len(p) == 3 for p in pieces)


def test_plan_keeps_consecutive_pairs_and_fours_together() -> None:
    """Runs of pairs and four of a kind (the bombs of docs/rules.md §4) stay whole."""
    pieces = [format_mask(m) for m in plan_masks(_hand("6S 6D 7S 7D 8S 8C JS JC JD JH 3S"))]
    assert ["6S", "6D", "7S", "7D", "8S", "8C"] in pieces
    assert ["JS", "JC", "JD", "JH"] in pieces


def test_2s_never_join_a_run() -> None:
    """2s never appear in a straight (docs/rules.md §2): Q-K-A stays a run, the 2 a single."""
    pieces = [format_mask(m) for m in plan_masks(_hand("QS KD AH 2C"))]
    assert ["QS", "KD", "AH"] in pieces
    assert ["2C"] in pieces


def test_the_fast_plan_cost_is_the_cost_of_the_plan() -> None:
    """plan_cost (packed rank counts, no pieces built) is exactly best_plan's cost, the same float, for any hand."""
    rng = random.Random(5)
    for _ in range(500):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = sum(1 << c for c in deck[: rng.randint(0, 13)])
        assert plan_cost(hand) == best_plan(rank_counts(hand))[0]
