"""Dealing: shuffled hands from a seed, and explicit deals checked against the deal rules."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import Card, cards_mask
from .errors import DealError


def shuffled_deal(deal_seed: int, hand_number: int, players: int) -> list[int]:
    """Thirteen shuffled cards a seat for this hand, reproducible from the seed."""
    deck = list(range(52))
    random.Random(f"tienlen-deal:{deal_seed}:{hand_number}").shuffle(deck)
    hands = []
    for seat in range(players):
        mask = 0
        for card in deck[13 * seat : 13 * seat + 13]:
            mask |= 1 << card
        hands.append(mask)
    return hands


def parse_deal(deal: Sequence[Iterable[str | Card]], players: int) -> list[int]:
    """Masks of an explicit deal; raise :class:`DealError` or :class:`UnknownCardError`."""
    if len(deal) != players:
        raise DealError(f"the deal needs one list of cards for each of the {players} seats")
    masks: list[int] = []
    seen = 0
    for seat, cards in enumerate(deal):
        listed = list(cards)
        mask = cards_mask(listed, strict=True)
        if not 1 <= len(listed) <= 13:
            raise DealError(f"seat {seat} must be dealt 1 to 13 cards")
        if mask & seen:
            raise DealError(f"seat {seat} is dealt a card another seat holds")
        seen |= mask
        masks.append(mask)
    return masks
