"""Dealing: shuffled hands from a seed, and explicit deals checked against the deal rules."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from .cards import Card, cards_mask
from .errors import DealError

# (position, bits drawn) of each step of a 52-card Fisher-Yates shuffle, last position first.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))
_BIT = tuple(1 << card for card in range(52))


def shuffled_deal(deal_seed: int, hand_number: int, players: int) -> list[int]:
    """Thirteen shuffled cards a seat for this hand, reproducible from the seed."""
    deck = list(range(52))
    getrandbits = random.Random(f"tienlen-deal:{deal_seed}:{hand_number}").getrandbits
    # random.shuffle's Fisher-Yates with its rejection sampling, spelled out (same draws, same deck; no method calls).
    for i, bits in _SHUFFLE_STEPS:
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]
    bit = _BIT.__getitem__
    return [sum(map(bit, deck[13 * seat : 13 * seat + 13])) for seat in range(players)]


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
