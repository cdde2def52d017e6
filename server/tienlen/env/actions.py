"""The action space: one fixed index for pass and for every class of combination (docs/env.md).

There are :data:`ACTION_COUNT` = 518 indices, in this order:

========= ======= ==========================================================
indices   count   what
========= ======= ==========================================================
0         1       pass
1–52      52      a single: index ``1 + card`` (card number 0 = 3S … 51 = 2H)
53–130    78      a pair: rank by rank, its six pairs in ascending mask order
131–182   52      a triple: rank by rank, its four triples in ascending mask order
183–195   13      four of a kind, by rank
196–415   220     a straight: by length 3 … 12, then by top card
416–517   102     consecutive pairs: by length 3 … 6 pairs, then by top card
========= ======= ==========================================================

Singles, pairs, triples and four of a kind are indexed card for card, so an
index names exactly one play. A straight or a run of pairs is indexed by its
kind, length and deciding (top) card: what decides every comparison and bomb
(docs/rules.md §3–§4). Indexing every suit choice of its lower cards is out of
reach for a fixed space (a straight of 12 alone has 4^12 suit choices), so
:func:`play_of` takes the *canonical* member of the class: at each lower rank
the lowest suits the hand holds (and, for the top pair, the lowest partner of
the top card). The canonical member is the smallest mask of the class and
never worse to play than another member: the cards kept are, rank by rank,
the same number of higher suits, so every later play stays possible with a
deciding card as high or higher. It is legal whenever any member is (the
opening lead's start card is the lowest card dealt, so the lowest suit of its
rank), so the action mask is exactly the set of classes of the engine's legal
plays (tests/env/test_actions.py checks all of this on many positions).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ..engine.cards import ACE_RANK, CARD_TEXT
from ..engine.combos import CLASSIFIED, classify
from ..engine.kinds import Kind

PASS = 0
"""The index of a pass."""

MAX_STRAIGHT = ACE_RANK + 1  # 3 … A: twelve ranks
MAX_PAIR_RUN = 6  # thirteen cards hold at most six pairs


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One index of the action space: ``kind`` (None for pass), ``length`` and deciding card ``top``.

    ``length`` is the engine's (cards, or pairs for consecutive pairs).
    ``mask`` is the exact cards for singles, pairs, triples and four of a kind,
    and 0 for pass and the runs (whose lower cards depend on the hand).
    """

    index: int
    kind: Kind | None
    length: int
    top: int
    mask: int

    @property
    def exact(self) -> bool:
        """Whether the index names exactly one set of cards (pass and the same-rank kinds)."""
        return self.kind is None or self.mask != 0

    def __str__(self) -> str:
        if self.kind is None:
            return "pass"
        if self.mask:
            cards = " ".join(CARD_TEXT[c] for c in range(52) if self.mask >> c & 1)
            return f"{self.kind.value} {cards}"
        return f"{self.kind.value} of {self.length} to {CARD_TEXT[self.top]}"


def _specs() -> tuple[ActionSpec, ...]:
    """Every index, in the documented order."""
    found: list[tuple[Kind | None, int, int, int]] = [(None, 0, -1, 0)]
    found += [(Kind.SINGLE, 1, card, 1 << card) for card in range(52)]
    for kind, size in ((Kind.PAIR, 2), (Kind.TRIPLE, 3), (Kind.FOUR_OF_A_KIND, 4)):
        for rank in range(13):
            masks = sorted(sum(1 << (4 * rank + s) for s in suits) for suits in combinations(range(4), size))
            found += [(kind, size, mask.bit_length() - 1, mask) for mask in masks]
    for length in range(3, MAX_STRAIGHT + 1):
        for top in range(4 * (length - 1), 4 * (ACE_RANK + 1)):
            found.append((Kind.STRAIGHT, length, top, 0))
    for length in range(3, MAX_PAIR_RUN + 1):
        for top in range(4 * (length - 1), 4 * (ACE_RANK + 1)):
            if top & 3:  # the top card of a pair is never a spade
                found.append((Kind.CONSECUTIVE_PAIRS, length, top, 0))
    return tuple(ActionSpec(i, kind, length, top, mask) for i, (kind, length, top, mask) in enumerate(found))


ACTIONS: tuple[ActionSpec, ...] = _specs()
"""Every index's meaning, ``ACTIONS[i].index == i``."""
ACTION_COUNT = len(ACTIONS)

# Exact plays by mask, runs by (kind, length, top): the two ways an index is found.
_EXACT: dict[int, int] = {spec.mask: spec.index for spec in ACTIONS if spec.mask}
_RUNS: dict[tuple[Kind, int, int], int] = {
    (spec.kind, spec.length, spec.top): spec.index for spec in ACTIONS if spec.kind is not None and not spec.mask
}
_INDEX_OF: dict[int, int] = dict(_EXACT) | {0: PASS}
_INDEX_LIMIT = 1 << 16
_STRAIGHT, _PAIRS = Kind.STRAIGHT, Kind.CONSECUTIVE_PAIRS


def index_of(mask: int) -> int:
    """The index of a play (a card mask; 0 is a pass); ValueError when the cards form no combination."""
    found = _INDEX_OF.get(mask)
    if found is not None:
        return found
    combo = CLASSIFIED.get(mask) or classify(mask)
    if combo is None:
        raise ValueError(f"cards {mask:#x} form no combination")
    found = _RUNS[combo.kind, combo.length, combo.top]
    if len(_INDEX_OF) >= _INDEX_LIMIT:
        _INDEX_OF.clear()
        _INDEX_OF.update(_EXACT)
        _INDEX_OF[0] = PASS
    _INDEX_OF[mask] = found
    return found


def play_of(index: int, hand: int) -> int:
    """The cards (a mask) of ``index`` played from ``hand``: 0 for pass, the canonical member for a run.

    ValueError when the index is out of range or the hand cannot make it.
    """
    if not 0 <= index < ACTION_COUNT:
        raise ValueError(f"action {index} is not in 0..{ACTION_COUNT - 1}")
    spec = ACTIONS[index]
    if spec.kind is None:
        return 0
    if spec.mask:
        if spec.mask & ~hand:
            raise ValueError(f"the hand does not hold {spec}")
        return spec.mask
    top = spec.top
    if not hand >> top & 1:
        raise ValueError(f"the hand does not hold the top card of {spec}")
    top_rank = top >> 2
    mask = 1 << top
    per_rank = 1 if spec.kind is _STRAIGHT else 2
    if per_rank == 2:
        below = hand >> (4 * top_rank) & ((1 << (top & 3)) - 1)  # suits of the top rank under the top card
        if not below:
            raise ValueError(f"the hand holds no partner for the top card of {spec}")
        mask |= (below & -below) << (4 * top_rank)
    for rank in range(top_rank - spec.length + 1, top_rank):
        nibble = hand >> (4 * rank) & 15
        low = nibble & -nibble
        second = nibble ^ low
        pick = low if per_rank == 1 else low | (second & -second)
        if not pick or (per_rank == 2 and not second):
            raise ValueError(f"the hand cannot make {spec}")
        mask |= pick << (4 * rank)
    return mask


def action_mask(legal: Iterable[int], can_pass: bool) -> npt.NDArray[np.int8]:
    """The action mask (1 = allowed) of the engine's legal plays (card masks) and whether a pass is allowed."""
    allowed = bytearray(ACTION_COUNT)  # written byte by byte, then read by numpy as is: no per-step index list
    known = _INDEX_OF.get
    for play in legal:
        index = known(play)
        allowed[index_of(play) if index is None else index] = 1
    allowed[PASS] = can_pass
    return np.frombuffer(allowed, dtype=np.int8)


def describe(index: int) -> str:
    """An index in words, e.g. ``pair 5S 5H`` or ``straight of 5 to 9H``."""
    return str(ACTIONS[index])
