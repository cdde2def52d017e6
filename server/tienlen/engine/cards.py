"""Cards of the 52-card deck: ranks, suits, wire notation and hand bit masks.

A card is numbered ``rank * 4 + suit`` (0 = 3S … 51 = 2H), so a card's number is
also its strength (docs/rules.md §1) and a hand is a 52-bit integer mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum

from .errors import DealError, IllegalActionError


class Rank(IntEnum):
    """Card ranks, low to high: 3 … A, then 2."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12


class Suit(IntEnum):
    """Suits, low to high: spades < clubs < diamonds < hearts."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3


ACE_RANK = int(Rank.ACE)
TWO_RANK = int(Rank.TWO)
FIRST_TWO = 4 * TWO_RANK  # the number of the weakest 2 (2S): a card is a 2 exactly when its number is at least this
# How many cards a rank's 4-bit suit nibble holds (a hand mask is 13 such nibbles).
NIBBLE_COUNT = tuple(bin(n).count("1") for n in range(16))

RANK_SYMBOLS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUIT_SYMBOLS = ("S", "C", "D", "H")
FULL_DECK = (1 << 52) - 1

# Input text of ranks and suits, upper and lower case spelled out (ASCII only:
# ``str.upper`` would also map e.g. the long s "ſ" to "S").
_RANK_INPUT = {sym: Rank(i) for i, sym in enumerate(RANK_SYMBOLS)} | {"T": Rank.TEN}
_RANK_INPUT |= {sym.lower(): rank for sym, rank in _RANK_INPUT.items()}
_SUIT_INPUT = {sym: Suit(i) for i, sym in enumerate(SUIT_SYMBOLS)}
_SUIT_INPUT |= {sym.lower(): suit for sym, suit in _SUIT_INPUT.items()} | {
    "♠": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
}


class UnknownCardError(ValueError):
    """Raised for text that is not a card in the wire notation of docs/rules.md §1."""

    reason = "unknown_card"

    def __init__(self, text: object) -> None:
        super().__init__(f"unknown card {text!r}: expected a rank 3-10, J, Q, K, A or 2 then a suit S, C, D or H")
        self.text = text


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card. Ordering is by strength: rank first, then suit."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < 52:
            raise UnknownCardError(self.index)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of this rank and suit."""
        return CARDS[rank * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse wire notation (``3S``, ``10d``, ``TH``, ``t♥``); raise :class:`UnknownCardError`."""
        return CARDS[parse_index(text)]

    @property
    def rank(self) -> Rank:
        """The card's rank."""
        return Rank(self.index >> 2)

    @property
    def suit(self) -> Suit:
        """The card's suit."""
        return Suit(self.index & 3)

    def __str__(self) -> str:
        return CARD_TEXT[self.index]

    def __repr__(self) -> str:
        return f"Card({CARD_TEXT[self.index]})"


CARD_TEXT = tuple(r + s for r in RANK_SYMBOLS for s in SUIT_SYMBOLS)
CARDS = tuple(Card(i) for i in range(52))
_INDEX_OF_TEXT = {text: i for i, text in enumerate(CARD_TEXT)}


def parse_index(text: str) -> int:
    """The card number of one card in wire notation; raise :class:`UnknownCardError`."""
    if not isinstance(text, str):
        raise UnknownCardError(text)
    found = _INDEX_OF_TEXT.get(text)
    if found is not None:
        return found
    rank = _RANK_INPUT.get(text[:-1])
    suit = _SUIT_INPUT.get(text[-1:])
    if rank is None or suit is None:
        raise UnknownCardError(text)
    return rank * 4 + suit


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Parse several cards, keeping their order and any repeats."""
    return [CARDS[parse_index(t)] for t in texts]


def mask_of(cards: Iterable[Card | int]) -> int:
    """The hand mask holding these cards (repeats collapse)."""
    mask = 0
    for card in cards:
        mask |= 1 << (card if isinstance(card, int) else card.index)
    return mask


def indices(mask: int) -> Iterator[int]:
    """Card numbers in a mask, low to high."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[Card]:
    """The cards in a mask, sorted low to high."""
    return [CARDS[i] for i in indices(mask)]


def format_mask(mask: int) -> list[str]:
    """Canonical wire text of the cards in a mask, low to high."""
    return [CARD_TEXT[i] for i in indices(mask)]


def format_cards(cards: Iterable[Card]) -> list[str]:
    """Canonical wire text of cards, sorted low to high."""
    return [str(c) for c in sorted(cards)]


def lowest_card(mask: int) -> int:
    """The number of the lowest card in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def cards_mask(cards: Iterable[str | Card], strict: bool = False) -> int:
    """The mask of listed cards; unknown cards first, then repeats, are refused.

    Refusals are :class:`IllegalActionError` (``unknown_card``,
    ``duplicate_cards``), or with ``strict`` the deal errors.
    """
    try:
        numbers = [c.index if isinstance(c, Card) else parse_index(c) for c in cards]
    except UnknownCardError as error:
        if strict:
            raise
        raise IllegalActionError("unknown_card", str(error)) from None
    mask = 0
    for number in numbers:
        mask |= 1 << number
    if mask.bit_count() != len(numbers):
        if strict:
            raise DealError("a card is listed twice")
        raise IllegalActionError("duplicate_cards", "a card is listed more than once")
    return mask
