"""The engine's fast paths give exactly what the plain code they replace gave.

Deals are shuffled with random.shuffle's own draws (a stored match's later
hands must not change), the fast event constructors build equal frozen events,
and classification answers the same whether or not it was cached.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from tienlen.engine import classify, shuffled_deal
from tienlen.engine.combos import _classify
from tienlen.engine.events import (
    Passed,
    Played,
    TableCleared,
    passed_event,
    played_event,
    shared_played,
    table_cleared_event,
)


def _reference_deal(deal_seed: int, hand_number: int, players: int) -> list[int]:
    deck = list(range(52))
    random.Random(f"tienlen-deal:{deal_seed}:{hand_number}").shuffle(deck)
    return [sum(1 << card for card in deck[13 * seat : 13 * seat + 13]) for seat in range(players)]


def test_deal_is_the_shuffle_of_the_seed() -> None:
    """Deals (docs/rules.md §5: each hand dealt from the match seed) equal random.shuffle's deck for the same seed."""
    rng = random.Random(13)
    for _ in range(500):
        seed, hand, players = rng.getrandbits(63), rng.randrange(1, 30), rng.randrange(2, 5)
        assert shuffled_deal(seed, hand, players) == _reference_deal(seed, hand, players)


def test_fast_events_equal_the_dataclass_events() -> None:
    """The played, passed and table_cleared events built on the hot path equal, hash and freeze like the plain ones."""
    pairs = [
        (played_event(2, 0b1011, "single", True), Played(2, 0b1011, "single", True)),
        (passed_event(1), Passed(1)),
        (table_cleared_event(3), TableCleared(3)),
        (shared_played(1, 0b11 << 8, "pair", False), Played(1, 0b11 << 8, "pair", False)),
        (passed_event(9), Passed(9)),
        (table_cleared_event(11), TableCleared(11)),
    ]
    for fast, plain in pairs:
        assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
        assert fast.to_dict() == plain.to_dict()
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(fast, dataclasses.fields(fast)[0].name, 0)


def test_cached_classification_is_the_plain_one() -> None:
    """classify (docs/rules.md §2) answers the same from its cache as computed afresh, for random card sets."""
    rng = random.Random(2)
    for _ in range(3000):
        mask = sum(1 << card for card in rng.sample(range(52), rng.randrange(1, 9)))
        first, again = classify(mask), classify(mask)
        assert first == again == _classify(mask)


def test_shared_events_are_equal_values_for_each_seat_and_play() -> None:
    """Shared events (events are frozen values) differ exactly where the plain events differ."""
    assert passed_event(0) is passed_event(0) and passed_event(0) != passed_event(1)
    assert table_cleared_event(2) != table_cleared_event(3)
    # The cache is keyed by (mask, seat, bomb): a mask's kind is a function of the mask, so the
    # cases use a real straight (3♠ 4♠ 5♠) and a real triple (three 3s), as the engine would.
    straight, triple = 1 << 0 | 1 << 4 | 1 << 8, 0b1011
    first = shared_played(2, straight, "straight", False)
    assert shared_played(2, straight, "straight", False) is first
    assert shared_played(3, straight, "straight", False) == Played(3, straight, "straight", False) != first
    assert shared_played(2, straight, "straight", True) == Played(2, straight, "straight", True) != first
    assert shared_played(2, triple, "triple", False) == Played(2, triple, "triple", False) != first
