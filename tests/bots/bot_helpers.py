"""Checks the bot tests share."""

from __future__ import annotations

from collections.abc import Sequence

from tienlen.bots.base import Situation


def assert_hands_fit(sit: Situation, hands: Sequence[int]) -> None:
    """A sampled deal fits what the seat knows: its own hand, every seat's card count, no card
    twice, no card already played, and others' cards only from the unseen ones."""
    assert hands[sit.seat] == sit.hand
    union = 0
    for seat, hand in enumerate(hands):
        assert hand.bit_count() == sit.cards_left[seat]
        assert union & hand == 0
        union |= hand
    assert union & sit.played == 0
    assert union & ~sit.hand & ~sit.unseen == 0
