"""Combinations (RULES.md §2), ordinary comparison (§3) and bombs (§4)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import CARD_TEXT, Card, cards_of, indices
from .rules import Bombs

TWO_RANK = 12
_NIBBLE_COUNT = tuple(bin(n).count("1") for n in range(16))


class Kind(StrEnum):
    """The six kinds of combination, by wire name."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT = "straight"
    CONSECUTIVE_PAIRS = "consecutive_pairs"


_SAME_RANK_KINDS = (None, Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR_OF_A_KIND)


@dataclass(frozen=True, slots=True)
class Combination:
    """A classified play: its kind, length, deciding card number and cards.

    ``length`` is the card count, except for consecutive pairs where it is the
    number of pairs (RULES.md §2). ``top`` is the deciding card's number.
    """

    kind: Kind
    length: int
    top: int
    mask: int

    @property
    def cards(self) -> list[Card]:
        """The cards, low to high."""
        return cards_of(self.mask)

    @property
    def text(self) -> list[str]:
        """Canonical wire text of the cards, low to high."""
        return [CARD_TEXT[i] for i in indices(self.mask)]

    @property
    def is_twos(self) -> bool:
        """A single, pair or triple of 2s."""
        return self.top >> 2 == TWO_RANK and self.kind in _TWOS_KINDS

    def __str__(self) -> str:
        return f"{self.kind.value} {' '.join(self.text)}"


_TWOS_KINDS = frozenset({Kind.SINGLE, Kind.PAIR, Kind.TRIPLE})


def classify(mask: int) -> Combination | None:
    """The combination these cards form, or None when they form none."""
    count = mask.bit_count()
    if count == 0:
        return None
    top = mask.bit_length() - 1
    if count == 1:
        return Combination(Kind.SINGLE, 1, top, mask)
    top_rank = top >> 2
    low_rank = ((mask & -mask).bit_length() - 1) >> 2
    if low_rank == top_rank:
        return Combination(_SAME_RANK_KINDS[count], count, top, mask)  # type: ignore[arg-type]
    if top_rank == TWO_RANK:
        return None
    span = top_rank - low_rank + 1
    if span < 3:
        return None
    if count == span:
        per_rank = 1
    elif count == 2 * span:
        per_rank = 2
    else:
        return None
    shifted = mask >> (4 * low_rank)
    for _ in range(span):
        if _NIBBLE_COUNT[shifted & 15] != per_rank:
            return None
        shifted >>= 4
    if per_rank == 1:
        return Combination(Kind.STRAIGHT, count, top, mask)
    return Combination(Kind.CONSECUTIVE_PAIRS, span, top, mask)


def beats_ordinarily(play: Combination, table: Combination) -> bool:
    """Same kind, same length, higher deciding card (RULES.md §3)."""
    return play.kind is table.kind and play.length == table.length and play.top > table.top


def bomb_beats(play: Combination, table: Combination, bombs: Bombs) -> bool:
    """Whether ``play`` beats ``table`` through a row of the bomb table (RULES.md §4)."""
    if bombs is Bombs.OFF:
        return False
    two = table.top >> 2 == TWO_RANK
    single_two = two and table.kind is Kind.SINGLE
    pair_two = two and table.kind is Kind.PAIR
    if play.kind is Kind.FOUR_OF_A_KIND:
        if single_two:
            return True
        if bombs is Bombs.LADDER:
            return pair_two or (table.kind is Kind.CONSECUTIVE_PAIRS and table.length == 3)
        return False
    if play.kind is not Kind.CONSECUTIVE_PAIRS:
        return False
    length = play.length
    if bombs is Bombs.EXACT:
        triple_two = two and table.kind is Kind.TRIPLE
        return (length == 3 and single_two) or (length == 4 and pair_two) or (length == 5 and triple_two)
    if bombs is Bombs.CLASSIC:
        return (length == 3 and single_two) or (length == 4 and (single_two or pair_two))
    # ladder
    if length == 3:
        return single_two
    return (
        single_two
        or pair_two
        or table.kind is Kind.FOUR_OF_A_KIND
        or (table.kind is Kind.CONSECUTIVE_PAIRS and table.length < length)
    )


def beats(play: Combination, table: Combination | None, bombs: Bombs) -> bool:
    """Whether ``play`` may be played on ``table`` (None: a fresh lead, anything goes)."""
    if table is None:
        return True
    return beats_ordinarily(play, table) or bomb_beats(play, table, bombs)


def is_bomb(play: Combination, table: Combination | None, bombs: Bombs) -> bool:
    """Whether this play beats the table as a bomb rather than ordinarily."""
    return table is not None and not beats_ordinarily(play, table) and bomb_beats(play, table, bombs)


def bombable_twos(table: Combination | None, bombs: Bombs) -> bool:
    """A single, pair or triple of 2s that some bomb of this rule can beat.

    This is the condition for a bomb re-entry turn (RULES.md §5).
    """
    if table is None or not table.is_twos or bombs is Bombs.OFF:
        return False
    if table.kind is Kind.TRIPLE:
        return bombs is Bombs.EXACT
    return True
