"""Quick-play pairing: which waiting tickets share a table, and when house bots fill the seats left.

Pure: given the tickets of one pool (rating, time queued) and the time now,
it answers the tables to make. A ticket's *window* is how far from its
rating it accepts a table-mate: :data:`BASE_WINDOW` at first, wider by
:data:`WIDEN_PER_S` each second it waits, so close ratings are preferred and
nobody waits for ever. Two tickets may share a table when their ratings are
within the wider of their two windows. The oldest ticket chooses first: the
``players - 1`` others nearest its rating, when that many fit; else, once it
has waited ``fill_s``, those that fit and house bots for the seats left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..store.queue import Waiting

BASE_WINDOW = 50  # rating points, shown scale
WIDEN_PER_S = 25.0


@dataclass(frozen=True, slots=True)
class Table:
    """A table to make: its tickets (seat order: the oldest first) and how many seats house bots take."""

    tickets: tuple[Waiting, ...]
    bots: int


def window(ticket: Waiting, now: float) -> float:
    """How far from its rating the ticket accepts a table-mate now."""
    return BASE_WINDOW + WIDEN_PER_S * max(0.0, now - ticket.queued_at)


def fits(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether two tickets may share a table now."""
    return abs(a.rating - b.rating) <= max(window(a, now), window(b, now))


def pair(waiting: Sequence[Waiting], players: int, now: float, fill_s: float) -> list[Table]:
    """The tables to make now from one pool's waiting tickets (oldest first in ``waiting``)."""
    free = sorted(waiting, key=lambda t: (t.queued_at, t.ticket))
    tables: list[Table] = []
    while free:
        first = free[0]
        near = sorted(
            (t for t in free[1:] if fits(first, t, now)), key=lambda t: (abs(t.rating - first.rating), t.queued_at)
        )
        mates = _mutual(first, near, players - 1, now)
        if len(mates) == players - 1 or now - first.queued_at >= fill_s:
            chosen = (first, *sorted(mates, key=lambda t: (t.queued_at, t.ticket)))
            tables.append(Table(chosen, players - len(chosen)))
            taken = {t.ticket for t in chosen}
            free = [t for t in free if t.ticket not in taken]
        else:
            free = free[1:]  # it waits; the next oldest may still find a full table
    return tables


def _mutual(first: Waiting, near: list[Waiting], wanted: int, now: float) -> list[Waiting]:
    """Up to ``wanted`` of ``near`` (nearest first) that fit ``first`` and each other."""
    chosen: list[Waiting] = []
    for candidate in near:
        if all(fits(candidate, other, now) for other in chosen):
            chosen.append(candidate)
            if len(chosen) == wanted:
                break
    return chosen
