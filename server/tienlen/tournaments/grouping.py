"""Splitting an ordered field into tables with as few repeated table-mates as possible (Swiss and duplicate).

A depth-first branch and bound over the field in its order of preference
(Swiss: the standings): the table being filled always takes the first
entrant not yet seated, and its table-mates from the next
:data:`WINDOW` entrants, the options tried best first by (repeated pairs,
spread in the order). The first complete seating is the greedy one; the
search then improves on it until :data:`BUDGET` options were weighed or a
seating without any repeated pair is found. On small fields (up to
``WINDOW + 1`` entrants left at each table) it is exhaustive, so the answer
has the fewest repeated pairs possible, ties going to the seating nearest
the order.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

WINDOW = 12
BUDGET = 60_000

K = TypeVar("K", bound=Hashable)

Met = Mapping[tuple[int, int], int]


def met_counts(groups: Iterable[Sequence[K]], index: Mapping[K, int]) -> dict[tuple[int, int], int]:
    """How often each pair (by position in ``index``) already shared a table; keys not in ``index`` are skipped."""
    met: dict[tuple[int, int], int] = {}
    for group in groups:
        seats = sorted(index[key] for key in group if key in index)
        for pair in combinations(seats, 2):
            met[pair] = met.get(pair, 0) + 1
    return met


def repeats(groups: Iterable[Sequence[int]], met: Met) -> int:
    """The repeated pairs a seating makes: each pair of table-mates counts the times it met before."""
    return sum(met.get(pair, 0) for group in groups for pair in combinations(sorted(group), 2))


def partition(
    n: int, sizes: Sequence[int], met: Met, *, window: int = WINDOW, budget: int = BUDGET
) -> list[tuple[int, ...]]:
    """Positions ``0..n-1`` split into groups of ``sizes`` (in order), fewest repeated pairs first, then nearest.

    ``sum(sizes)`` must be ``n``; each group lists its positions ascending.
    """
    if sum(sizes) != n:
        raise ValueError("the table sizes must seat the field exactly")
    lower = [0] * (len(sizes) + 1)
    for t in range(len(sizes) - 1, -1, -1):
        lower[t] = lower[t + 1] + max(0, sizes[t] - 1)
    # met[(i, j)] as a table (i < j filled, the hot loop's lookups): the search weighs up to ``budget`` options
    seen = [[0] * n for _ in range(n)]
    for (i, j), count in met.items():
        if 0 <= i < j < n:
            seen[i][j] = count
    best: list[tuple[int, ...]] = []
    best_key = (float("inf"), float("inf"))
    work = 0

    def search(t: int, remaining: list[int], chosen: list[tuple[int, ...]], rep: int, spread: int) -> None:
        nonlocal best, best_key, work
        if t == len(sizes):
            if (rep, spread) < best_key:
                best, best_key = list(chosen), (rep, spread)
            return
        if rep > best_key[0] or (rep == best_key[0] and spread + lower[t] >= best_key[1]):
            return
        head, k = remaining[0], sizes[t]
        with_head = seen[head]
        options = []
        for mates in combinations(remaining[1 : 1 + window], k - 1):
            r = 0
            for at, mate in enumerate(mates):  # ascending, like the positions: each pair (lower, higher) once
                r += with_head[mate]
                row = seen[mate]
                for other in mates[at + 1 :]:
                    r += row[other]
            options.append((r, (mates[-1] - head) if mates else 0, (head, *mates)))
        work += len(options)
        options.sort()
        for r, s, group in options:
            if best and (work > budget or best_key[0] == 0):
                return
            # the next level's bound, checked here: options come in (repeats, spread) order, so once one cannot
            # beat the best seating none after it can (and the search would only have returned at once)
            if rep + r > best_key[0] or (rep + r == best_key[0] and spread + s + lower[t + 1] >= best_key[1]):
                return
            taken = set(group)
            chosen.append(group)
            search(t + 1, [x for x in remaining if x not in taken], chosen, rep + r, spread + s)
            chosen.pop()

    if n:
        search(0, list(range(n)), [], 0, 0)
    return best
