"""Checks the bot tests share."""

from __future__ import annotations

from collections.abc import Sequence

from tienlen.engine import SeatView


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
