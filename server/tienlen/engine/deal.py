"""Dealing: fair deals (protocol ``tienlen-deal/1``), shuffled hands from a seed, and explicit deals checked.

A fair deal (docs/fair-deals.md) is a shuffle of a hash of the server's secret, the match id, the hand
number and every seat's entropy; the secret's SHA-256 (the commitment) is public from the match's creation
and the secret once it is finished, so anyone can recompute every hand's deal.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .cards import Card, cards_mask
from .errors import DealError

# (position, bits drawn) of each step of a 52-card Fisher-Yates shuffle, last position first.
_SHUFFLE_STEPS = tuple((i, (i + 1).bit_length()) for i in range(51, 0, -1))
_BIT = tuple(1 << card for card in range(52))

FAIR_PROTOCOL = "tienlen-deal/1"
SECRET_BYTES = 32
MAX_ENTROPY = 64  # characters of a seat's entropy, printable ASCII (0x20-0x7E)


def commitment(secret: bytes) -> str:
    """The public commitment to a fair deal's secret: lower-case hex of its SHA-256."""
    return hashlib.sha256(secret).hexdigest()


def hand_key(secret: bytes, match_id: str, hand_number: int, entropy: Sequence[str]) -> bytes:
    """K_n of ``tienlen-deal/1``: SHA-256 over the protocol name, the secret, the match id, the hand and the
    seats' entropy (lengths big-endian: u16 for texts, u32 for the hand, u8 for the number of seats)."""
    mid = match_id.encode("ascii")
    parts = [FAIR_PROTOCOL.encode("ascii"), secret, struct.pack(">H", len(mid)), mid]
    parts += [struct.pack(">IB", hand_number, len(entropy))]
    for text in entropy:
        given = text.encode("utf-8")
        parts += [struct.pack(">H", len(given)), given]
    return hashlib.sha256(b"".join(parts)).digest()


def _words(key: bytes) -> Iterator[int]:
    """The hand key's stream of 32-bit words: SHA-256(key || u32be(block)), eight big-endian words a block."""
    block = 0
    while True:
        yield from struct.unpack(">8I", hashlib.sha256(key + struct.pack(">I", block)).digest())
        block += 1


def fair_deck(key: bytes) -> list[int]:
    """The 52 cards shuffled by a hand key: Fisher-Yates from the top, each draw by rejection (no modulo bias)."""
    deck = list(range(52))
    words = _words(key)
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True, slots=True)
class FairDeal:
    """What a fair-dealt match's hands are dealt from: the secret (never in a repr), match id, seats' entropy."""

    secret: bytes = field(repr=False)
    match_id: str
    entropy: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.secret) != SECRET_BYTES:
            raise DealError(f"a fair deal's secret is {SECRET_BYTES} bytes")
        if not 2 <= len(self.entropy) <= 4:
            raise DealError("a fair deal has an entropy text for each of 2 to 4 seats")
        if not all(len(text) <= MAX_ENTROPY and all(" " <= c <= "~" for c in text) for text in self.entropy):
            raise DealError(f"a seat's entropy is 0 to {MAX_ENTROPY} printable ASCII characters")
        if not self.match_id.isascii() or len(self.match_id) > 0xFFFF:
            raise DealError("a fair deal's match id is not an ASCII text")

    @property
    def commitment(self) -> str:
        """The secret's commitment (hex)."""
        return commitment(self.secret)

    def hand(self, hand_number: int) -> list[int]:
        """The masks dealt to the seats in hand ``hand_number`` (1, 2, ...)."""
        return _dealt(fair_deck(hand_key(self.secret, self.match_id, hand_number, self.entropy)), len(self.entropy))


def _dealt(deck: list[int], players: int) -> list[int]:
    """The masks of a shuffled deck dealt thirteen cards a seat, from the top."""
    bit = _BIT.__getitem__
    return [sum(map(bit, deck[13 * seat : 13 * seat + 13])) for seat in range(players)]


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
    return _dealt(deck, players)


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
