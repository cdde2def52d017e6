"""Hypothesis strategies of every event, worked out from its dataclass fields (so a new event or field is covered)."""

from __future__ import annotations

import typing
from typing import Any

from hypothesis import strategies as st

from tienlen.api.schemas.events import ENUMS as MATCH_ENUMS
from tienlen.api.schemas.inbox import ENUMS as INBOX_ENUMS
from tienlen.engine.event_codec import ACTION, CARDS, HANDS, LIST, TIME, VALUE, EventField, event_fields
from tienlen.events import INBOX_EVENTS, MATCH_EVENTS, Event, Notice, Numbered

ENUMS = MATCH_ENUMS | INBOX_ENUMS
MASKS = st.integers(0, (1 << 52) - 1)
# Moments in eighths of a second: exact in binary and to the millisecond, so RFC 3339 text reads back exactly.
TIMES = st.integers(0, 2**35).map(lambda eighths: eighths / 8)
TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=12)
PLAIN: dict[Any, st.SearchStrategy[Any]] = {
    int: st.integers(-(2**53), 2**53),
    str: TEXT,
    bool: st.booleans(),
    float: TIMES,
}


def _values(cls: type[Event], field: EventField) -> st.SearchStrategy[Any]:
    enum = ENUMS.get((cls, field.key))
    if enum is not None:
        found: st.SearchStrategy[Any] = st.sampled_from(enum[1])
    elif field.kind in (CARDS, ACTION):
        found = MASKS
    elif field.kind == TIME:
        found = TIMES
    elif field.kind == HANDS:
        found = st.lists(MASKS, max_size=4).map(tuple)
    elif field.kind == LIST:
        found = st.lists(PLAIN[typing.get_args(field.hint)[0]], max_size=5).map(tuple)
    else:
        assert field.kind == VALUE, f"no strategy for {field.kind} fields"
        found = PLAIN[field.hint]
    return st.none() | found if field.nullable else found


def events_of(cls: type[Event]) -> st.SearchStrategy[Event]:
    """Any event of the class, its fields holding what their types say."""
    return st.builds(cls, **{field.name: _values(cls, field) for field in event_fields(cls)})


MATCH_EVENT = st.one_of([events_of(cls) for cls in MATCH_EVENTS])
INBOX_EVENT = st.one_of([events_of(cls) for cls in INBOX_EVENTS])
NUMBERED = st.builds(Numbered, st.integers(1, 2**63 - 1), MATCH_EVENT)
NOTICE = st.builds(Notice, st.integers(1, 2**53 - 1), TIMES, INBOX_EVENT)
