"""How a match ended is one value: its cause, and the engine's outcome when it was played out.

It is read from what a match record holds (``ended``, the engine's outcome) and written back, and each end has
the one event that tells its followers.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tienlen.engine import Outcome
from tienlen.events import (
    ABANDONED,
    CANCELLED,
    FINAL_EVENTS,
    FINAL_TYPES,
    MATCH_EVENTS,
    EndCause,
    Event,
    MatchAbandoned,
    MatchCancelled,
    MatchEnd,
    MatchEnded,
    end_of_event,
    ended_text,
    match_end,
)

from .strategies import events_of

WON = Outcome((2,), (5, 9, 30))
SHARED = Outcome((0, 1), (20, 20))

# (record.ended, engine outcome) -> the end they make
RECORDS: list[tuple[str | None, Outcome | None, MatchEnd | None]] = [
    (None, None, None),  # waiting or playing
    (None, WON, MatchEnd(EndCause.FINISHED, WON)),
    (None, SHARED, MatchEnd(EndCause.FINISHED, SHARED)),
    ("abandoned", None, ABANDONED),
    ("cancelled", None, CANCELLED),
]


@pytest.mark.parametrize(("ended", "outcome", "end"), RECORDS)
def test_a_record_says_how_its_match_ended(ended: str | None, outcome: Outcome | None, end: MatchEnd | None) -> None:
    """Rule: ``ended`` and the outcome read as one end, and the end writes back the same ``ended``."""
    assert match_end(ended, outcome) == end
    assert ended_text(end) == ended


def test_abandoned_is_what_records_compared_to() -> None:
    """Rule: ``end.abandoned`` is true exactly where a record's ``ended == "abandoned"`` was."""
    for ended, _outcome, end in RECORDS:
        assert (end is not None and end.abandoned) == (ended == "abandoned")


def test_an_unknown_ended_is_refused() -> None:
    """Rule: a record's ``ended`` that is no cause is a ValueError, not a match going on."""
    with pytest.raises(ValueError):
        match_end("lost", None)


@pytest.mark.parametrize(
    ("cause", "outcome"),
    [(EndCause.FINISHED, None), (EndCause.ABANDONED, WON), (EndCause.CANCELLED, SHARED)],
)
def test_an_outcome_exactly_when_played_out(cause: EndCause, outcome: Outcome | None) -> None:
    """Rule: a finished match has an outcome; an abandoned or cancelled one has none."""
    with pytest.raises(ValueError):
        MatchEnd(cause, outcome)


@pytest.mark.parametrize("end", [MatchEnd.finished(WON), MatchEnd.finished(SHARED), ABANDONED, CANCELLED])
def test_each_end_has_its_final_event(end: MatchEnd) -> None:
    """Rule: an end's event is a final event, and that event tells the same end."""
    assert isinstance(end.event, FINAL_EVENTS)
    assert end_of_event(end.event) == end


def test_the_final_events() -> None:
    """Rule: match_ended (with its winner), match_abandoned and match_cancelled are the final events."""
    assert MatchEnd.finished(WON).event == MatchEnded(2, (2,), (5, 9, 30))
    assert MatchEnd.finished(SHARED).event == MatchEnded(None, (0, 1), (20, 20))
    assert ABANDONED.event == MatchAbandoned() and CANCELLED.event == MatchCancelled()
    assert set(FINAL_EVENTS) == {MatchEnded, MatchAbandoned, MatchCancelled}
    assert {"match_ended", "match_abandoned", "match_cancelled"} == FINAL_TYPES  # what a follower tells the end by


@settings(max_examples=100, deadline=None)
@given(event=st.one_of([events_of(cls) for cls in MATCH_EVENTS if cls not in FINAL_EVENTS]))
def test_no_other_event_ends_a_match(event: Event) -> None:
    """Rule: any event but the final ones ends nothing."""
    assert end_of_event(event) is None
