"""The state machine's questions the service asks: is the round over, is the tournament finished."""

from __future__ import annotations

from collections.abc import Sequence

from .results import TableResult
from .seating import Table
from .terms import Terms


def round_over(tables: Sequence[Table], results: Sequence[TableResult]) -> bool:
    """Whether every table has a result."""
    raise NotImplementedError


def finished(terms: Terms, round_no: int, now: float, started_at: float) -> bool:
    """Whether the tournament is over."""
    raise NotImplementedError
