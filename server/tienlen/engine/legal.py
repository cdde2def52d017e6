"""The legal-play generator: every distinct play a hand may make on a table.

This is the single source of truth for what is legal; the match accepts a
play exactly when its mask is in the generated list. Hands are bit masks and
each rank's four suits are one 4-bit nibble, so the generator works from small
precomputed tables: the sub-nibbles of each rank, every same-rank group of two
ranks at once (one byte of the hand), and which ranks of three are present or
paired (twelve bits of the hand).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from .accel import CORE, CompiledCore
from .cards import ACE_RANK, FIRST_TWO, NIBBLE_COUNT, TWO_RANK
from .combos import Combination
from .kinds import Kind
from .rules import BOMB_TABLE, Bombs

# Enum members read through the class cost a lookup each time; the hot paths use these aliases.
_SINGLE, _PAIR, _TRIPLE, _FOUR, _STRAIGHT = Kind.SINGLE, Kind.PAIR, Kind.TRIPLE, Kind.FOUR_OF_A_KIND, Kind.STRAIGHT


def _subsets(size: int) -> list[list[list[int]]]:
    """``table[rank][nibble]``: masks of ``size`` cards of that rank within the nibble."""
    table: list[list[list[int]]] = []
    for rank in range(13):
        row: list[list[int]] = []
        for nibble in range(16):
            suits = [s for s in range(4) if nibble >> s & 1]
            row.append([sum(1 << (rank * 4 + s) for s in chosen) for chosen in combinations(suits, size)])
        table.append(row)
    return table


SINGLES = _subsets(1)
PAIRS = _subsets(2)
TRIPLES = _subsets(3)
QUADS = _subsets(4)
# ``_RANK_GROUPS[rank][nibble]``: the rank's singles, pairs, triples and four of a kind, in that order.
_RANK_GROUPS = [[SINGLES[r][n] + PAIRS[r][n] + TRIPLES[r][n] + QUADS[r][n] for n in range(16)] for r in range(13)]
# ``_BYTE_GROUPS[k][byte]``: the same-rank groups of ranks 2k and 2k + 1 (the hand's k-th byte), low rank first.
_BYTE_GROUPS = [[_RANK_GROUPS[2 * k][b & 15] + _RANK_GROUPS[2 * k + 1][b >> 4] for b in range(256)] for k in range(6)]
_TWO_GROUPS = _RANK_GROUPS[TWO_RANK]
# Of three ranks (twelve bits of a hand): bit i set when rank i holds at least one card, or at least two.
_PRESENT3 = [sum(1 << i for i in range(3) if x >> (4 * i) & 15) for x in range(1 << 12)]
_PAIRED3 = [sum(1 << i for i in range(3) if NIBBLE_COUNT[x >> (4 * i) & 15] >= 2) for x in range(1 << 12)]
_NIBBLE_LOW_BITS = sum(1 << (4 * rank) for rank in range(13))  # the lowest suit bit of every rank


def _chunk_singles(k: int) -> list[list[int]]:
    """``[x] ->`` the one-card masks of bits ``x`` placed as the hand's k-th 13 bits, low to high."""
    shift = 13 * k
    table: list[list[int]] = [[]]
    for x in range(1, 8192):  # x's lowest bit, then the singles of x without it (built before x)
        table.append([(x & -x) << shift, *table[x & (x - 1)]])
    return table


# ``_CHUNK_SINGLES[k][x]``: the one-card masks of the hand's k-th 13 bits, low to high.
_CHUNK_SINGLES = [_chunk_singles(k) for k in range(4)]


def nibbles(hand: int) -> list[int]:
    """The hand's suits present at each rank, as 13 four-bit values."""
    return [(hand >> shift) & 15 for shift in range(0, 52, 4)]


def _rank_bits(hand: int, table: list[int]) -> int:
    """A bit per rank 3 … A (bit 0 = 3) set by ``table`` (:data:`_PRESENT3` or :data:`_PAIRED3`)."""
    low = table[hand & 4095] | table[hand >> 12 & 4095] << 3
    return low | table[hand >> 24 & 4095] << 6 | table[hand >> 36 & 4095] << 9


def lead_masks(hand: int) -> list[int]:
    """Every combination the hand can lead (docs/rules.md §2), as masks.

    Order: rank by rank its singles, pairs, triples and four of a kind; then
    the straights and then the runs of pairs, each by lowest rank and length.
    """
    g = _BYTE_GROUPS
    out = [
        *g[0][hand & 255],
        *g[1][hand >> 8 & 255],
        *g[2][hand >> 16 & 255],
        *g[3][hand >> 24 & 255],
        *g[4][hand >> 32 & 255],
        *g[5][hand >> 40 & 255],
        *_TWO_GROUPS[hand >> 48],
    ]
    p = _PRESENT3
    present = p[hand & 4095] | p[hand >> 12 & 4095] << 3 | p[hand >> 24 & 4095] << 6 | p[hand >> 36 & 4095] << 9
    if present & present >> 1 & present >> 2:
        _all_runs(hand, present, SINGLES, out)
        paired = _rank_bits(hand, _PAIRED3)
        if paired & paired >> 1 & paired >> 2:
            _all_runs(hand, paired, PAIRS, out)
    return out


def _all_runs(hand: int, ranks: int, table: list[list[list[int]]], out: list[int]) -> None:
    """Append every run (3+ consecutive ranks below 2) of the ranks in ``ranks``, cards from ``table``."""
    starts = ranks & ranks >> 1 & ranks >> 2
    start = 0
    while starts >> start:
        if not starts >> start & 1:
            start += 1
            continue
        partial = table[start][hand >> (4 * start) & 15]
        rank = start + 1
        while rank <= ACE_RANK and ranks >> rank & 1:
            options = table[rank][hand >> (4 * rank) & 15]
            partial = [p | c for p in partial for c in options]
            if rank >= start + 2:
                out += partial
            rank += 1
        start += 1


def _runs_of_length(
    hand: int, ranks: int, table: list[list[list[int]]], length: int, above: int, out: list[int]
) -> None:
    """Append runs of exactly ``length`` of the ranks in ``ranks`` whose top card beats card number ``above``.

    ``above`` = -1 takes every run of that length. Runs come by top rank, low first.
    """
    top_rank = above >> 2 if above >= 0 else -1
    window = (1 << length) - 1
    for end in range(max(length - 1, top_rank), ACE_RANK + 1):
        start = end - length + 1
        if ranks >> start & window != window:
            continue
        partial = table[start][hand >> (4 * start) & 15]
        for rank in range(start + 1, end + 1):
            options = table[rank][hand >> (4 * rank) & 15]
            partial = [p | c for p in partial for c in options]
        if end == top_rank:
            partial = [p for p in partial if p.bit_length() - 1 > above]
        out += partial


def _same_rank_above(hand: int, table: list[list[list[int]]], above: int, out: list[int]) -> None:
    """Append same-rank groups from ``table`` whose highest card beats card ``above``."""
    top_rank = above >> 2
    for play in table[top_rank][hand >> (4 * top_rank) & 15]:
        if play.bit_length() - 1 > above:
            out.append(play)
    rest = hand >> (4 * top_rank + 4)
    rank = top_rank + 1
    while rest:
        nib = rest & 15
        if nib:
            out += table[rank][nib]
        rest >>= 4
        rank += 1


def _all_quads(hand: int, out: list[int]) -> None:
    """Append every four of a kind of the hand, low rank first."""
    full = hand & hand >> 1 & hand >> 2 & hand >> 3 & _NIBBLE_LOW_BITS
    while full:
        low = full & -full
        out.append(low * 15)
        full ^= low


def singles_above(hand: int, top: int) -> list[int]:
    """Each card of the hand above card number ``top``, as one-card masks, low to high."""
    rest = hand >> (top + 1) << (top + 1)
    c0, c1, c2, c3 = _CHUNK_SINGLES
    return [*c0[rest & 8191], *c1[rest >> 13 & 8191], *c2[rest >> 26 & 8191], *c3[rest >> 39]]


def ordinary_answers(hand: int, table: Combination) -> list[int]:
    """Plays of the table's kind and length with a higher deciding card (docs/rules.md §3)."""
    kind = table.kind
    if kind is _SINGLE:
        return singles_above(hand, table.top)
    out: list[int] = []
    if kind is _PAIR:
        _same_rank_above(hand, PAIRS, table.top, out)
    elif kind is _TRIPLE:
        _same_rank_above(hand, TRIPLES, table.top, out)
    elif kind is _FOUR:
        for rank in range((table.top >> 2) + 1, 13):
            if hand >> (4 * rank) & 15 == 15:
                out.append(15 << (rank * 4))
    elif kind is _STRAIGHT:
        _runs_of_length(hand, _rank_bits(hand, _PRESENT3), SINGLES, table.length, table.top, out)
    else:
        _runs_of_length(hand, _rank_bits(hand, _PAIRED3), PAIRS, table.length, table.top, out)
    return out


def _targets_of(rows: dict[Kind, dict[tuple[int, bool], tuple[bool, tuple[int, ...]]]], bombs: Bombs) -> None:
    for shape, targets in BOMB_TABLE[bombs].items():
        for target in targets:
            for twos in (True,) if target.twos else (True, False):
                quads, lengths = rows.setdefault(target.kind, {}).get((target.length, twos), (False, ()))
                if shape.kind is _FOUR:
                    quads = True
                else:
                    lengths = tuple(sorted({*lengths, shape.length}))
                rows[target.kind][target.length, twos] = quads, lengths


# For each rule: table kind → (table length, table is 2s) → (four of a kind bombs it, run-of-pairs lengths that do).
_BOMB_TARGETS: dict[Bombs, dict[Kind, dict[tuple[int, bool], tuple[bool, tuple[int, ...]]]]] = {}
for _bombs in Bombs:
    _targets_of(_BOMB_TARGETS.setdefault(_bombs, {}), _bombs)
_NO_BOMB: tuple[bool, tuple[int, ...]] = (False, ())
# The rules under which some bomb beats a single below the 2s (none today; derived, so a new row cannot be missed).
BOMBS_SINGLE_NON_TWO = frozenset(
    b for b, rows in _BOMB_TARGETS.items() if rows.get(_SINGLE, {}).get((1, False), _NO_BOMB) != _NO_BOMB
)


def bomb_targets(table: Combination, bombs: Bombs) -> tuple[bool, tuple[int, ...]]:
    """What may bomb the table: (whether four of a kind may, the run-of-pairs lengths that may)."""
    by_length = _BOMB_TARGETS[bombs].get(table.kind)
    if by_length is None:
        return _NO_BOMB
    return by_length.get((table.length, table.top >> 2 == TWO_RANK), _NO_BOMB)


def bomb_answers(hand: int, table: Combination, bombs: Bombs) -> list[int]:
    """Plays of another kind or length that bomb the table (docs/rules.md §4)."""
    quads, pair_lengths = bomb_targets(table, bombs)
    out: list[int] = []
    if quads:
        _all_quads(hand, out)
    if pair_lengths:
        paired = _rank_bits(hand, _PAIRED3)
        if paired & paired >> 1 & paired >> 2:
            for length in pair_lengths:
                _runs_of_length(hand, paired, PAIRS, length, -1, out)
    return out


def answer_masks(hand: int, table: Combination, bombs: Bombs) -> list[int]:
    """Every play that beats the table: ordinary answers then bombs."""
    if table.kind is _SINGLE and table.top < FIRST_TWO and bombs not in BOMBS_SINGLE_NON_TWO:
        return singles_above(hand, table.top)
    if bomb_targets(table, bombs) is _NO_BOMB:
        return ordinary_answers(hand, table)
    return ordinary_answers(hand, table) + _bomb_answers(hand, table, bombs)


def seat_legal_masks(
    hand: int, table: Combination | None, bombs: Bombs, *, locked: bool = False, start_card: int | None = None
) -> list[int]:
    """Every legal play of the seat on turn, from what that seat itself can see.

    ``table`` is the play to beat (None when the seat leads), ``locked`` whether
    the seat passed in this battle (then only a bomb re-enters), ``start_card``
    the card index an opening lead must include. The match and any client
    holding only its own view call this same function, so they always agree.
    """
    return legal_masks_of(hand, table, bombs, locked, start_card)


def legal_masks_of(
    hand: int, table: Combination | None, bombs: Bombs, locked: bool, start_card: int | None
) -> list[int]:
    """:func:`seat_legal_masks` with positional arguments (what :meth:`Match.legal_masks` calls)."""
    if table is None:
        plays = _lead_masks(hand)
        if start_card is not None:
            bit = 1 << start_card
            plays = [m for m in plays if m & bit]
        return plays
    if locked:
        return _bomb_answers(hand, table, bombs)
    if table.kind is _SINGLE and table.top < FIRST_TWO and bombs not in BOMBS_SINGLE_NON_TWO:
        return singles_above(hand, table.top)  # the hot case: no bomb reaches a single below the 2s
    return _answer_masks(hand, table, bombs)


def play_order(combo: Combination) -> tuple[int, int, int]:
    """Sort key of plays, lowest first: fewest cards, then lowest deciding card."""
    return combo.mask.bit_count(), combo.top, combo.mask


# ----- the compiled core (accel.py) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Generator:
    """The legal-play functions of one engine, by their names in this module."""

    lead_masks: Callable[[int], list[int]]
    answer_masks: Callable[[int, Combination, Bombs], list[int]]
    bomb_answers: Callable[[int, Combination, Bombs], list[int]]
    legal_masks_of: Callable[[int, Combination | None, Bombs, bool, int | None], list[int]]


# The reference: the pure Python functions above, whichever engine runs. They call one another by these
# private names, which stay theirs when the compiled core takes over the public names below.
PYTHON = Generator(lead_masks, answer_masks, bomb_answers, legal_masks_of)
_lead_masks, _answer_masks, _bomb_answers = lead_masks, answer_masks, bomb_answers


def compiled(core: CompiledCore) -> Generator:
    """The same functions in the compiled core: same plays, in the same order."""
    return Generator(core.lead_masks, core.answer_masks, core.bomb_answers, core.legal_masks)


if CORE is not None:
    # Rebound here, before any other module imports them: the match, the bots and the env call the core.
    lead_masks = CORE.lead_masks
    answer_masks = CORE.answer_masks
    bomb_answers = CORE.bomb_answers
    legal_masks_of = CORE.legal_masks
