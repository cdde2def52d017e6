"""The legal-play generator: every distinct play a hand may make on a table.

This is the single source of truth for what is legal; the match accepts a
play exactly when its mask is in the generated list. Hands are bit masks and
each rank's four suits are one 4-bit nibble, so the generator works from small
precomputed tables of sub-nibbles.
"""

from __future__ import annotations

from itertools import combinations

from .cards import ACE_RANK, NIBBLE_COUNT, TWO_RANK
from .combos import Combination
from .kinds import Kind
from .rules import BOMB_TABLE, Bombs


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
_GROUPS = (SINGLES, PAIRS, TRIPLES, QUADS)


def nibbles(hand: int) -> list[int]:
    """The hand's suits present at each rank, as 13 four-bit values."""
    return [(hand >> shift) & 15 for shift in range(0, 52, 4)]


def lead_masks(hand: int) -> list[int]:
    """Every combination the hand can lead (docs/rules.md §2), as masks."""
    nibs = nibbles(hand)
    out: list[int] = []
    for rank in range(13):
        nib = nibs[rank]
        if nib:
            out += SINGLES[rank][nib]
            out += PAIRS[rank][nib]
            out += TRIPLES[rank][nib]
            out += QUADS[rank][nib]
    _all_runs(nibs, SINGLES, 1, out)
    _all_runs(nibs, PAIRS, 2, out)
    return out


def _all_runs(nibs: list[int], table: list[list[list[int]]], per_rank: int, out: list[int]) -> None:
    """Append every run (3+ consecutive ranks below 2) with ``per_rank`` cards a rank."""
    count = NIBBLE_COUNT
    for start in range(ACE_RANK - 1):
        if count[nibs[start]] < per_rank or count[nibs[start + 1]] < per_rank or count[nibs[start + 2]] < per_rank:
            continue
        partial = table[start][nibs[start]]
        for rank in range(start + 1, ACE_RANK + 1):
            nib = nibs[rank]
            if count[nib] < per_rank:
                break
            partial = [p | c for p in partial for c in table[rank][nib]]
            if rank >= start + 2:
                out += partial


def _runs_of_length(
    nibs: list[int], table: list[list[list[int]]], per_rank: int, length: int, above: int, out: list[int]
) -> None:
    """Append runs of exactly ``length`` ranks whose top card beats card number ``above``.

    ``above`` = -1 takes every run of that length.
    """
    count = NIBBLE_COUNT
    top_rank = above >> 2 if above >= 0 else -1
    first_end = max(length - 1, top_rank)
    streak = 0
    for end in range(ACE_RANK + 1):
        streak = streak + 1 if count[nibs[end]] >= per_rank else 0
        if streak < length or end < first_end:
            continue
        start = end - length + 1
        partial = table[start][nibs[start]]
        for rank in range(start + 1, end + 1):
            options = table[rank][nibs[rank]]
            partial = [p | c for p in partial for c in options]
        if end == top_rank:
            partial = [p for p in partial if p.bit_length() - 1 > above]
        out += partial


def _same_rank_above(nibs: list[int], table: list[list[list[int]]], above: int, out: list[int]) -> None:
    """Append same-rank groups from ``table`` whose highest card beats card ``above``."""
    top_rank = above >> 2
    for play in table[top_rank][nibs[top_rank]]:
        if play.bit_length() - 1 > above:
            out.append(play)
    for rank in range(top_rank + 1, 13):
        nib = nibs[rank]
        if nib:
            out += table[rank][nib]


def _all_quads(nibs: list[int], out: list[int]) -> None:
    for rank in range(13):
        if nibs[rank] == 15:
            out.append(15 << (rank * 4))


def ordinary_answers(hand: int, table: Combination, nibs: list[int] | None = None) -> list[int]:
    """Plays of the table's kind and length with a higher deciding card (docs/rules.md §3)."""
    kind = table.kind
    if kind is Kind.SINGLE:
        out: list[int] = []
        rest = hand >> (table.top + 1) << (table.top + 1)
        while rest:
            low = rest & -rest
            out.append(low)
            rest ^= low
        return out
    if nibs is None:
        nibs = nibbles(hand)
    out = []
    if kind is Kind.PAIR:
        _same_rank_above(nibs, PAIRS, table.top, out)
    elif kind is Kind.TRIPLE:
        _same_rank_above(nibs, TRIPLES, table.top, out)
    elif kind is Kind.FOUR_OF_A_KIND:
        for rank in range((table.top >> 2) + 1, 13):
            if nibs[rank] == 15:
                out.append(15 << (rank * 4))
    elif kind is Kind.STRAIGHT:
        _runs_of_length(nibs, SINGLES, 1, table.length, table.top, out)
    else:
        _runs_of_length(nibs, PAIRS, 2, table.length, table.top, out)
    return out


def _targets_of(rows: dict[Kind, dict[tuple[int, bool], tuple[bool, tuple[int, ...]]]], bombs: Bombs) -> None:
    for shape, targets in BOMB_TABLE[bombs].items():
        for target in targets:
            for twos in (True,) if target.twos else (True, False):
                quads, lengths = rows.setdefault(target.kind, {}).get((target.length, twos), (False, ()))
                if shape.kind is Kind.FOUR_OF_A_KIND:
                    quads = True
                else:
                    lengths = tuple(sorted({*lengths, shape.length}))
                rows[target.kind][target.length, twos] = quads, lengths


# For each rule: table kind → (table length, table is 2s) → (four of a kind bombs it, run-of-pairs lengths that do).
_BOMB_TARGETS: dict[Bombs, dict[Kind, dict[tuple[int, bool], tuple[bool, tuple[int, ...]]]]] = {}
for _bombs in Bombs:
    _targets_of(_BOMB_TARGETS.setdefault(_bombs, {}), _bombs)
_NO_BOMB: tuple[bool, tuple[int, ...]] = (False, ())


def bomb_targets(table: Combination, bombs: Bombs) -> tuple[bool, tuple[int, ...]]:
    """What may bomb the table: (whether four of a kind may, the run-of-pairs lengths that may)."""
    by_length = _BOMB_TARGETS[bombs].get(table.kind)
    if by_length is None:
        return _NO_BOMB
    return by_length.get((table.length, table.top >> 2 == TWO_RANK), _NO_BOMB)


def bomb_answers(hand: int, table: Combination, bombs: Bombs, nibs: list[int] | None = None) -> list[int]:
    """Plays of another kind or length that bomb the table (docs/rules.md §4)."""
    quads, pair_lengths = bomb_targets(table, bombs)
    if not quads and not pair_lengths:
        return []
    if nibs is None:
        nibs = nibbles(hand)
    out: list[int] = []
    if quads:
        _all_quads(nibs, out)
    for length in pair_lengths:
        _runs_of_length(nibs, PAIRS, 2, length, -1, out)
    return out


def answer_masks(hand: int, table: Combination, bombs: Bombs) -> list[int]:
    """Every play that beats the table: ordinary answers then bombs."""
    if bomb_targets(table, bombs) is _NO_BOMB:
        return ordinary_answers(hand, table)
    nibs = nibbles(hand)
    return ordinary_answers(hand, table, nibs) + bomb_answers(hand, table, bombs, nibs)


def seat_legal_masks(
    hand: int, table: Combination | None, bombs: Bombs, *, locked: bool = False, start_card: int | None = None
) -> list[int]:
    """Every legal play of the seat on turn, from what that seat itself can see.

    ``table`` is the play to beat (None when the seat leads), ``locked`` whether
    the seat passed in this battle (then only a bomb re-enters), ``start_card``
    the card index an opening lead must include. The match and any client
    holding only its own view call this same function, so they always agree.
    """
    if table is None:
        plays = lead_masks(hand)
        if start_card is not None:
            bit = 1 << start_card
            plays = [m for m in plays if m & bit]
        return plays
    if locked:
        return bomb_answers(hand, table, bombs)
    return answer_masks(hand, table, bombs)


def play_order(combo: Combination) -> tuple[int, int, int]:
    """Sort key of plays, lowest first: fewest cards, then lowest deciding card."""
    return combo.mask.bit_count(), combo.top, combo.mask
