"""Who sits where: Swiss rounds, arena tables and the duplicate schedule.

Swiss
    Round 1 orders the field by rating (higher first, then entrant number);
    later rounds by the standings so far. Tables of ``players`` are filled
    from the top of that order, table-mates chosen to repeat as few pairs
    that already shared a table as possible, then as near in the order as
    possible (:mod:`.grouping`; exhaustive on small fields). When the field
    is not a multiple of ``players``, house bots fill the shortfall, one a
    table from the lowest table up (so no table has two before every table of
    the shortfall has one). Withdrawn entrants are not seated. Within a table
    entrants sit in the order, house bots last.
Arena
    See :func:`arena_tables`.
Duplicate
    See :func:`duplicate_schedule`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import permutations

from .entrants import Entrant
from .grouping import met_counts, partition, repeats
from .results import Sitter, TableResult
from .standings import arena_scores, standings
from .terms import Terms

__all__ = [
    "ARENA_BASE_WINDOW",
    "ARENA_FILL_S",
    "ARENA_WIDEN_PER_S",
    "Entrant",
    "Table",
    "arena_tables",
    "duplicate_entrants",
    "duplicate_schedule",
    "swiss_round",
    "table_sizes",
]

ARENA_BASE_WINDOW = 2.0  # arena points: how far from its score an entrant accepts a table-mate at first
ARENA_WIDEN_PER_S = 0.2  # ... wider by this much each second it waits
ARENA_FILL_S = 30.0  # after this long waiting, the nearest waiting entrants whatever their score, then house bots


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: its number (from 1), sitters by seat, and (duplicate only) the deal numbers it plays."""

    number: int
    sitters: tuple[Sitter, ...]
    deals: tuple[int, ...] | None


def table_sizes(entrants: int, players: int) -> list[int]:
    """Entrants a table seats, top table first: full tables, the shortfall one a table from the lowest up."""
    tables = -(-entrants // players)
    sizes = [players] * tables
    for i in range(tables * players - entrants):
        sizes[tables - 1 - i % tables] -= 1
    return sizes


def swiss_round(
    terms: Terms,
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    round_no: int,
    house: Callable[[int], Sitter],
) -> tuple[Table, ...]:
    """A Swiss round's tables (the module's rules); ``house(i)`` gives the i-th house bot filling a seat."""
    active = [e for e in entrants if not e.withdrawn]
    if round_no <= 1 or not results:
        order = sorted(active, key=lambda e: (-e.rating, e.number))
    else:
        rank = {s.account_id: s.rank for s in standings(terms, entrants, results)}
        order = sorted(active, key=lambda e: rank[e.account_id])
    index = {e.account_id: i for i, e in enumerate(order)}
    met = met_counts(([s.entrant for s in r.sitters if s.entrant is not None] for r in results), index)
    sizes = table_sizes(len(order), terms.players)
    groups = partition(len(order), sizes, met)
    tables: list[Table] = []
    filler = 0
    for number, group in enumerate(groups, start=1):
        sitters = [order[i].sitter for i in group]
        for _ in range(terms.players - len(group)):
            sitters.append(house(filler))
            filler += 1
        tables.append(Table(number, tuple(sitters), None))
    return tuple(tables)


def arena_tables(
    terms: Terms, waiting: Sequence[tuple[Entrant, float]], results: Sequence[TableResult], now: float
) -> tuple[tuple[Entrant, ...], ...]:
    """The arena tables to make now from the entrants waiting (each with the time it began to wait).

    Like quick play's pairing (service/pairing.py): an entrant's *window* is
    :data:`ARENA_BASE_WINDOW` arena points at first, wider by
    :data:`ARENA_WIDEN_PER_S` each second it waits; two entrants may share a
    table when their scores are within the wider of their two windows. The
    longest waiting chooses first: the ``players - 1`` nearest its score that
    fit it and each other. When that many do not fit and it has waited
    :data:`ARENA_FILL_S` (30 s), it takes the nearest waiting entrants whatever
    their score; and when fewer than ``players - 1`` others wait at all, its
    table is short and the service fills the seats left with house bots
    (never before 30 s). Otherwise it waits and the next longest waiting
    chooses. Each entrant appears in at most one table; withdrawn entrants
    are not seated. A table lists the chooser first, then its mates by
    waiting time.
    """
    scores = arena_scores(results)
    free = sorted((pair for pair in waiting if not pair[0].withdrawn), key=lambda p: (p[1], p[0].number))
    seen: set[str] = set()
    unique = []
    for entrant, since in free:
        if entrant.account_id not in seen:
            seen.add(entrant.account_id)
            unique.append((entrant, since))
    free = unique

    def score(entrant: Entrant) -> float:
        return float(scores.get(entrant.account_id, 0))

    def window(since: float) -> float:
        return ARENA_BASE_WINDOW + ARENA_WIDEN_PER_S * max(0.0, now - since)

    def fits(a: tuple[Entrant, float], b: tuple[Entrant, float]) -> bool:
        return abs(score(a[0]) - score(b[0])) <= max(window(a[1]), window(b[1]))

    tables: list[tuple[Entrant, ...]] = []
    while free:
        first = free[0]
        near = sorted(free[1:], key=lambda p: (abs(score(p[0]) - score(first[0])), p[1], p[0].number))
        mates: list[tuple[Entrant, float]] = []
        for candidate in near:
            if fits(first, candidate) and all(fits(candidate, other) for other in mates):
                mates.append(candidate)
                if len(mates) == terms.players - 1:
                    break
        if len(mates) < terms.players - 1 and now - first[1] >= ARENA_FILL_S:
            mates = near[: terms.players - 1]
        if len(mates) == terms.players - 1 or now - first[1] >= ARENA_FILL_S:
            chosen = [first, *sorted(mates, key=lambda p: (p[1], p[0].number))]
            tables.append(tuple(entrant for entrant, _ in chosen))
            taken = {entrant.account_id for entrant, _ in chosen}
            free = [p for p in free if p[0].account_id not in taken]
        else:
            free = free[1:]
    return tuple(tables)


def duplicate_entrants(terms: Terms, entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Who a duplicate event seats: the entrants not withdrawn, by number, as many as fill whole tables.

    Terms make the entry limits multiples of ``players``; should withdrawals
    leave a field that is not, the latest to join sit out (and stand with
    nothing played).
    """
    active = sorted((e for e in entrants if not e.withdrawn), key=lambda e: e.number)
    return tuple(active[: len(active) - len(active) % terms.players])


DUPLICATE_TRIES = 8  # orders tried for a round's tables until one repeats no pair


def _fewest_repeats(
    field: Sequence[Entrant], players: int, history: list[list[str]], r: int
) -> tuple[list[Entrant], list[tuple[int, ...]]]:
    """A round's tables over the field: the seating repeating fewest pairs among a few seeded orders."""
    best: tuple[int, list[Entrant], list[tuple[int, ...]]] | None = None
    mates: dict[str, set[str]] = {e.account_id: set() for e in field}
    for group in history:
        for who in group:
            mates[who].update(group)
    # When someone has fewer unmet others left than a table's other seats, repeats are unavoidable: one order.
    tries = 1 if any(len(field) - len(m) < players - 1 for m in mates.values()) else DUPLICATE_TRIES
    for attempt in range(tries):
        order = list(field)
        if r or attempt:
            random.Random(f"tienlen-duplicate:{len(field)}:{r}:{attempt}").shuffle(order)
        index = {e.account_id: i for i, e in enumerate(order)}
        met = met_counts(history, index)
        groups = partition(len(order), [players] * (len(order) // players), met)
        count = repeats(groups, met)
        if best is None or count < best[0]:
            best = (count, order, groups)
        if count == 0:
            break
    assert best is not None
    return best[1], best[2]


def duplicate_schedule(
    terms: Terms, entrants: Sequence[Entrant], upto: int | None = None
) -> tuple[tuple[Table, ...], ...]:
    """Every round of a duplicate event at once (deals / hands rounds of ``hands`` deals each), or its first
    ``upto`` rounds (each round is planned from the ones before it only, so they are the same).

    Every table of a round plays the same deals (the service gives the tables
    of a round one match seed), so seat s at every table holds hand s of each
    deal: the schedule rotates seats. Each round's tables are chosen with as
    few pairs meeting again as possible (:func:`.grouping.partition` over the
    field in orders shuffled by fixed seeds, the best of
    :data:`DUPLICATE_TRIES`, so the schedule is the same for the same field); then at each table the seats are given
    so that each entrant has held each hand index as evenly as possible
    (the permutation with the fewest repeats of a seat already held, counted
    squared). Each (deal, hand index) is held once by every table, so by
    distinct entrants at distinct tables. Only :func:`duplicate_entrants` are seated.
    """
    field = duplicate_entrants(terms, entrants)
    players = terms.players
    rounds = terms.duplicate_rounds if upto is None else min(upto, terms.duplicate_rounds)
    held = {e.account_id: [0] * players for e in field}
    history: list[list[str]] = []
    schedule: list[tuple[Table, ...]] = []
    for r in range(rounds):
        order, groups = _fewest_repeats(field, players, history, r)
        deals = tuple(range(r * terms.hands, (r + 1) * terms.hands))
        tables = []
        for number, group in enumerate(groups, start=1):
            members = [order[i] for i in group]
            seating = min(
                permutations(members),
                key=lambda p: sum((held[e.account_id][seat] + 1) ** 2 for seat, e in enumerate(p)),
            )
            for seat, entrant in enumerate(seating):
                held[entrant.account_id][seat] += 1
            history.append([e.account_id for e in seating])
            tables.append(Table(number, tuple(e.sitter for e in seating), deals))
        schedule.append(tuple(tables))
    return tuple(schedule)
