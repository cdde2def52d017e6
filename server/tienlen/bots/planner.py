"""Hand planning: split a hand into the fewest plays (runs, runs of pairs, groups, singles).

Plans are computed on rank counts (suits do not change how a hand splits) and
cached; cards are then allocated to the pieces, runs taking the lower suits.
A piece is ``(start_rank, length, per_rank)``: ``length`` 1 is a same-rank group
of ``per_rank`` cards, otherwise a straight (``per_rank`` 1) or consecutive pairs
(``per_rank`` 2).
"""

from __future__ import annotations

from itertools import product
from operator import itemgetter

from ..engine.cards import ACE_RANK, NIBBLE_COUNT, TWO_RANK
from ..engine.combos import Combination, classify
from ..engine.kinds import Kind
from ..engine.legal import answer_masks, bomb_targets
from ..engine.rules import Bombs
from .memo import BoundedCache

Piece = tuple[int, int, int]


# ``_CHUNK[x]``: the counts of the four ranks of 16 bits ``x``, low rank first (product's last element turns fastest,
# so it is the lowest nibble's count: each tuple reversed)
_CHUNK: tuple[tuple[int, ...], ...] = tuple(map(itemgetter(3, 2, 1, 0), product(NIBBLE_COUNT, repeat=4)))


def rank_counts(hand: int) -> tuple[int, ...]:
    """How many cards of each rank the hand holds (13 values, 3 … 2)."""
    chunk = _CHUNK
    return (
        chunk[hand & 0xFFFF] + chunk[(hand >> 16) & 0xFFFF] + chunk[(hand >> 32) & 0xFFFF] + (NIBBLE_COUNT[hand >> 48],)
    )


def piece_cost(piece: Piece) -> float:
    """The planning cost of keeping one piece: about 10 a piece, less for controls, more for low singles."""
    start, length, per = piece
    top = start + length - 1
    if length == 1 and per == 4:
        return 4.0
    if length >= 3 and per == 2:
        return 4.0 if length >= 4 else 5.0
    if top == TWO_RANK:
        return 6.0
    if length == 1:
        low = max(0, 8 - top)
        return 10.0 + (0.45 if per == 1 else 0.3 if per == 2 else 0.1) * low
    return 10.0 - 0.2 * length


_plans: BoundedCache[tuple[int, ...], tuple[float, tuple[Piece, ...]]] = BoundedCache()
_costs: BoundedCache[int, float] = BoundedCache()
_masks: BoundedCache[int, tuple[int, ...]] = BoundedCache()


def best_plan(counts: tuple[int, ...]) -> tuple[float, tuple[Piece, ...]]:
    """The cheapest split of these rank counts into pieces, and its cost (memoized)."""
    found = _plans.get(counts)
    return found if found is not None else _plans.put(counts, _best_plan(counts))


def _best_plan(counts: tuple[int, ...]) -> tuple[float, tuple[Piece, ...]]:
    rank = 0
    while rank < 13 and counts[rank] == 0:
        rank += 1
    if rank == 13:
        return 0.0, ()
    c = counts[rank]
    rest = (*counts[:rank], 0, *counts[rank + 1 :])
    cost, pieces = best_plan(rest)
    group: Piece = (rank, 1, c)
    best_cost, best_pieces = cost + piece_cost(group), (group, *pieces)
    for per in (1, 2):
        if c < per:
            break
        work = list(counts)
        end = rank
        while end <= ACE_RANK and counts[end] >= per:
            work[end] -= per
            if end - rank >= 2:
                piece: Piece = (rank, end - rank + 1, per)
                sub_cost, sub_pieces = best_plan(tuple(work))
                total = sub_cost + piece_cost(piece)
                if total < best_cost:
                    best_cost, best_pieces = total, (piece, *sub_pieces)
            end += 1
    return best_cost, best_pieces


# Rank counts packed one per nibble (rank r in bits 4r..4r+3), the planner's hot key.
_PACKED_COSTS: BoundedCache[int, float] = BoundedCache()
# ``_PIECE_COSTS[(start * 13 + length) * 5 + per]``: :func:`piece_cost` of every piece the planner forms.
_PIECE_COSTS = {
    (start * 13 + length) * 5 + per: piece_cost((start, length, per))
    for start in range(13)
    for length in range(1, 14 - start)
    for per in range(1, 5)
}


def packed_counts(hand: int) -> int:
    """The hand's count of cards of each rank, packed one per nibble (each nibble's bit count, in place)."""
    pairs = hand - (hand >> 1 & 0x5555555555555)
    return (pairs & 0x3333333333333) + (pairs >> 2 & 0x3333333333333)


def packed_plan_cost(counts: int) -> float:
    """:func:`best_plan`'s cost for packed rank counts (:func:`packed_counts`), without building pieces.

    The same recursion as :func:`best_plan` adding the same numbers in the same
    order, so the cost is exactly the same float.
    """
    found = _PACKED_COSTS.get(counts)
    if found is not None:
        return found
    if counts == 0:
        return _PACKED_COSTS.put(counts, 0.0)
    rank = ((counts & -counts).bit_length() - 1) >> 2
    shift = 4 * rank
    c = counts >> shift & 15
    costs = _PIECE_COSTS
    best_cost = packed_plan_cost(counts & ~(15 << shift)) + costs[(rank * 13 + 1) * 5 + c]
    for per in (1, 2):
        if c < per:
            break
        work = counts
        end = rank
        while end <= ACE_RANK and counts >> (4 * end) & 15 >= per:
            work -= per << (4 * end)
            if end - rank >= 2:
                total = packed_plan_cost(work) + costs[(rank * 13 + end - rank + 1) * 5 + per]
                if total < best_cost:
                    best_cost = total
            end += 1
    return _PACKED_COSTS.put(counts, best_cost)


def plan_cost(hand: int) -> float:
    """The cost of the hand's best plan (lower is better)."""
    found = _costs.get(hand)
    return found if found is not None else _costs.put(hand, packed_plan_cost(packed_counts(hand)))


_sizes: BoundedCache[int, int] = BoundedCache()


def plan_size(hand: int) -> int:
    """How many pieces the hand's best plan has (``len(plan_masks(hand))``, without placing the suits)."""
    found = _sizes.get(hand)
    return found if found is not None else _sizes.put(hand, len(best_plan(rank_counts(hand))[1]))


def plan_masks(hand: int) -> tuple[int, ...]:
    """The hand's best plan as card masks, weakest (lowest top card) first."""
    found = _masks.get(hand)
    return found if found is not None else _masks.put(hand, _plan_masks(hand))


def _plan_masks(hand: int) -> tuple[int, ...]:
    pieces = best_plan(rank_counts(hand))[1]
    suits = [[(hand >> (4 * r + s)) & 1 for s in range(4)] for r in range(13)]
    avail = [[s for s in range(4) if suits[r][s]] for r in range(13)]
    runs = [p for p in pieces if p[1] > 1]
    groups = [p for p in pieces if p[1] == 1]
    masks: list[int] = []
    for start, length, per in runs:
        mask = 0
        for r in range(start, start + length):
            for s in avail[r][:per]:
                mask |= 1 << (4 * r + s)
            avail[r] = avail[r][per:]
        masks.append(mask)
    for start, _, per in groups:
        mask = 0
        for s in avail[start][-per:]:
            mask |= 1 << (4 * start + s)
        avail[start] = avail[start][:-per]
        masks.append(mask)
    masks.sort(key=lambda m: m.bit_length())
    return tuple(masks)


def plan_combos(hand: int) -> list[Combination]:
    """The hand's best plan as classified combinations, weakest first."""
    out = []
    for mask in plan_masks(hand):
        combo = classify(mask)
        if combo is not None:
            out.append(combo)
    return out


def is_boss(combo: Combination, unseen: int, bombs: Bombs) -> bool:
    """Whether no unseen cards could beat this play (so it wins its battle)."""
    if combo.kind is Kind.SINGLE and bomb_targets(combo, bombs) == (False, ()):
        return unseen >> (combo.top + 1) == 0
    return not answer_masks(unseen, combo, bombs)


def is_control(combo: Combination) -> bool:
    """A 2 or a bomb-shaped piece: kept to win back the lead."""
    top_rank = combo.top >> 2
    if top_rank == TWO_RANK:
        return True
    return combo.kind is Kind.FOUR_OF_A_KIND or (combo.kind is Kind.CONSECUTIVE_PAIRS and combo.length >= 3)
