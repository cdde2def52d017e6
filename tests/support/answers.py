"""A match's answers as the API writes them, straight from an engine match (no server, no Redis).

Each is written twice, by the schema's planned dump and by marshmallow's own,
and the two must agree: every test that reads an answer here checks that too.
"""

from __future__ import annotations

from typing import Any

from tienlen.api.schemas import MatchSchema, SeatViewSchema
from tienlen.api.schemas.dumping import AnswerSchema
from tienlen.engine import Match
from tienlen.service import match_state, seat_state
from tienlen.store import MatchRecord, SeatRecord

# One instance of each (a schema is reusable): a new one a call would build and copy its nested schemas each time.
MATCH_SCHEMA = MatchSchema()
SEAT_VIEW_SCHEMA = SeatViewSchema()


def record_of(match: Match) -> MatchRecord:
    """A stored match holding ``match``, with a remote seat in every place."""
    seats = [SeatRecord(name=f"Seat {i}", token_sha256="0" * 64) for i in range(match.players)]
    return MatchRecord("0" * 20, 1, seats, match.rules, engine=match, created_at=1.5e9, updated_at=1.5e9 + 0.25)


def written(schema: AnswerSchema, state: Any) -> dict[str, Any]:
    """``state`` as ``schema`` writes it; the planned dump must equal marshmallow's own."""
    planned = schema.dump(state)
    assert planned == schema.reference_dump(state), type(schema).__name__
    assert isinstance(planned, dict)
    return planned


def public_answer(match: Match) -> dict[str, Any]:
    """The public ``Match`` answer of ``match``."""
    return written(MATCH_SCHEMA, match_state(record_of(match)))


def seat_answer(match: Match, seat: int) -> dict[str, Any]:
    """The seat view answer of one seat of ``match``."""
    return written(SEAT_VIEW_SCHEMA, seat_state(record_of(match), seat))
