"""Helpers of the bot tests: seeded matches, the types of their fixtures and the checks they share."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from tienlen.engine import Match, SeatView, resolve_rules

__all__ = ["Advance", "MatchFactory", "assert_hands_fit", "seeded_match"]


def seeded_match(preset: str = "standard", players: int = 4, seed: int = 1, **overrides: object) -> Match:
    """A fresh one-hand match of a preset (rule overrides applied last), dealt from ``seed``."""
    rules = resolve_rules({"preset": preset, "hands": 1, **overrides}, players=players)
    match, _ = Match.new(rules, random.Random(seed))
    return match


class MatchFactory(Protocol):
    """The type of the ``make_match`` fixture: a seeded one-hand match of a preset, with rule overrides."""

    def __call__(self, preset: str = ..., players: int = ..., seed: int = ..., **overrides: object) -> Match: ...


Advance = Callable[[Match, int, str], None]
"""The type of the ``advance_bots`` fixture: ``advance_bots(match, steps, level)``."""


def assert_hands_fit(view: SeatView, hands: Sequence[int]) -> None:
    """A sampled deal fits what the seat knows: its own hand, every seat's card count, no card
    twice, no card already played, and others' cards only from the unseen ones."""
    assert hands[view.seat] == view.hand
    union = 0
    for seat, hand in enumerate(hands):
        assert hand.bit_count() == view.cards_left[seat]
        assert union & hand == 0
        union |= hand
    assert union & view.played == 0
    assert union & ~view.hand & ~view.unseen == 0
