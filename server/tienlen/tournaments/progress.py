"""The state machine's questions the service asks: is the round over, is the tournament finished."""

from __future__ import annotations

from collections.abc import Sequence

from .results import TableResult
from .seating import Table
from .terms import Format, Terms


def round_over(tables: Sequence[Table], results: Sequence[TableResult]) -> bool:
    """Whether every table of a round has its result (``results`` of that round, matched by table number)."""
    done = {r.table for r in results}
    return all(t.number in done for t in tables)


def arena_open(terms: Terms, now: float, started_at: float) -> bool:
    """Arena: whether new tables may still start (the window has not closed)."""
    return now < started_at + (terms.window_s or 0.0)


def finished(terms: Terms, round_no: int, now: float, started_at: float, playing: int = 0) -> bool:
    """Whether the tournament is over, ``round_no`` being the last round over (0 before any).

    Swiss: ``rounds`` rounds are over. Duplicate: deals / hands rounds are
    over. Arena: the window (``started_at + window_s``) has closed and no
    table is still ``playing`` (the count of arena tables not yet ended; no
    table starts once the window closed, see :func:`arena_open`).
    """
    if terms.format is Format.SWISS:
        return round_no >= (terms.rounds or 0)
    if terms.format is Format.DUPLICATE:
        return round_no >= terms.duplicate_rounds
    return not arena_open(terms, now, started_at) and playing == 0
