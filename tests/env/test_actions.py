"""The action space (tienlen.env.actions): every legal play has an index and comes back from it.

Rule (docs/env.md, "The action space"): pass and every single, pair, triple and four of a kind have
an index of their own; a straight or a run of pairs is indexed by its length and top card and is
played as the canonical member of its class (the lowest suits at each lower rank). The action mask
of a position is exactly the set of indices of the engine's legal plays (and pass when allowed).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from tests.env.positions import SETUPS, random_positions
from tienlen.engine import PRESET_NAMES, Bombs, Kind, classify, seat_legal_masks
from tienlen.engine.cards import FULL_DECK
from tienlen.env.actions import ACTION_COUNT, ACTIONS, PASS, action_mask, describe, index_of, play_of


def _class_of(play: int) -> tuple[Kind, int, int]:
    combo = classify(play)
    assert combo is not None
    return combo.kind, combo.length, combo.top


def test_the_space_has_the_documented_blocks_in_order() -> None:
    """Rule: 518 indices: pass, 52 singles, 78 pairs, 52 triples, 13 fours, 220 straights, 102 runs of pairs."""
    assert ACTION_COUNT == 518 and [spec.index for spec in ACTIONS] == list(range(ACTION_COUNT))
    blocks = Counter(None if spec.kind is None else spec.kind for spec in ACTIONS)
    assert blocks == {
        None: 1,
        Kind.SINGLE: 52,
        Kind.PAIR: 78,
        Kind.TRIPLE: 52,
        Kind.FOUR_OF_A_KIND: 13,
        Kind.STRAIGHT: 220,
        Kind.CONSECUTIVE_PAIRS: 102,
    }
    firsts = {kind: min(s.index for s in ACTIONS if s.kind is kind) for kind in Kind}
    assert firsts == {
        Kind.SINGLE: 1,
        Kind.PAIR: 53,
        Kind.TRIPLE: 131,
        Kind.FOUR_OF_A_KIND: 183,
        Kind.STRAIGHT: 196,
        Kind.CONSECUTIVE_PAIRS: 416,
    }
    assert ACTIONS[1 + 51].mask == 1 << 51 and describe(52) == "single 2H" and describe(PASS) == "pass"
    assert describe(196) == "straight of 3 to 5S" and describe(517) == "consecutive_pairs of 6 to AH"


def test_every_index_played_from_the_whole_deck_is_its_class_and_indexes_back() -> None:
    """Rule: each index names one class (kind, length, top card); from a hand holding every card,
    its play is a combination of that class whose index is the index itself."""
    assert play_of(PASS, FULL_DECK) == 0 and index_of(0) == PASS
    for spec in ACTIONS[1:]:
        play = play_of(spec.index, FULL_DECK)
        combo = classify(play)
        assert combo is not None, spec
        assert (combo.kind, combo.length, combo.top) == (spec.kind, spec.length, spec.top), spec
        assert index_of(play) == spec.index
        if spec.exact:
            assert play == spec.mask


def test_a_hand_that_cannot_make_an_index_is_refused() -> None:
    """Rule: play_of raises ValueError for an index out of range or a play the hand cannot make."""
    hand = 0b1111  # the four 3s
    with pytest.raises(ValueError):
        play_of(ACTION_COUNT, hand)
    with pytest.raises(ValueError):
        play_of(1 + 4, hand)  # 4S
    with pytest.raises(ValueError):
        play_of(196, hand)  # a straight to 5S
    with pytest.raises(ValueError):
        index_of(0b1 | 1 << 8)  # 3S 5S: no combination


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_the_mask_is_exactly_the_engines_legal_set_and_every_play_comes_back(preset: str, players: int) -> None:
    """Rule: in every position of random play, each legal play has a masked index; the mask holds
    nothing else; an exact index plays back the very play; a run's index plays back the canonical
    member of its class (the smallest mask of the legal plays of that class), itself legal."""
    positions = runs = 0
    for match in random_positions(preset, players, matches=80, seed=10 * PRESET_NAMES.index(preset) + players):
        seat = match.turn
        assert seat is not None
        hand = match.hands[seat]
        legal = match.legal_masks()
        can_pass = match.table is not None
        mask = action_mask(legal, can_pass)
        by_index: dict[int, list[int]] = {}
        for play in legal:
            by_index.setdefault(index_of(play), []).append(play)
        assert set(np.flatnonzero(mask)) == set(by_index) | ({PASS} if can_pass else set())
        assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
        legal_set = set(legal)
        for index, plays in by_index.items():
            back = play_of(index, hand)
            assert back in legal_set, describe(index)
            if ACTIONS[index].exact:
                assert plays == [back], describe(index)
            else:
                runs += 1
                assert back == min(plays), describe(index)
                spec = ACTIONS[index]
                assert {_class_of(p) for p in plays} == {(spec.kind, spec.length, spec.top)}, describe(index)
        positions += 1
    assert positions > 1000 and runs > 0


def test_crafted_hands_with_long_runs_and_bombs_map_exactly() -> None:
    """Rule: hands rich in straights, runs of pairs and fours (random 13-card hands drawn from few ranks)
    have every lead and every answer to each of their own plays in the mask, and back."""
    rng = random.Random(5)
    checked = 0
    for _ in range(60):
        ranks = rng.sample(range(13), rng.randint(5, 12))
        cards = [4 * r + s for r in ranks for s in range(4)]
        hand = sum(1 << c for c in rng.sample(cards, min(13, len(cards))))
        leads = seat_legal_masks(hand, None, Bombs.LADDER)
        for play in leads:
            index = index_of(play)
            back = play_of(index, hand)
            assert classify(back) is not None
            same_class = [p for p in leads if index_of(p) == index]
            assert back == min(same_class)
            checked += 1
    assert checked > 1000
