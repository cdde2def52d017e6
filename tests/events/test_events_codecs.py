"""Every event reads back exactly what was written, through the store's codec and the wire's, JSON included.

The store keeps a match's events numbered (``seq`` from 1, given at seal time: :func:`number`) and an inbox's
events with their number and time; card text is written from masks in one place (the engine's event codec).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from tienlen import wire
from tienlen.engine import Match, resolve_rules
from tienlen.engine.event_codec import event_fields, event_type
from tienlen.engine.events import played_event
from tienlen.events import (
    INBOX_EVENTS,
    INBOX_TYPES,
    MATCH_EVENTS,
    MATCH_TYPES,
    STORE,
    WIRE,
    Event,
    EventCodec,
    Notice,
    Numbered,
    Played,
    SeatJoined,
    TimedOut,
    UnknownEventError,
    YourTurn,
    number,
)

from .strategies import MATCH_EVENT, NOTICE, NUMBERED

CODECS = pytest.mark.parametrize("codec", [STORE, WIRE], ids=["store", "wire"])


@CODECS
@settings(max_examples=300, deadline=None)
@given(numbered=NUMBERED)
def test_a_numbered_match_event_round_trips(codec: EventCodec, numbered: Numbered[Event]) -> None:
    """Rule: what a codec writes (as JSON bytes) reads back as the same numbered event."""
    written = wire.loads(wire.dumps(codec.dump(numbered)))
    assert written["seq"] == numbered.seq and written["type"] == numbered.event.type
    assert codec.load(written) == numbered


@CODECS
@settings(max_examples=300, deadline=None)
@given(notice=NOTICE)
def test_an_inbox_notice_round_trips(codec: EventCodec, notice: Notice) -> None:
    """Rule: an inbox event with its number and time reads back exactly (times to the millisecond on the wire)."""
    assert codec.load_notice(wire.loads(wire.dumps(codec.dump_notice(notice)))) == notice


@settings(max_examples=200, deadline=None)
@given(notice=NOTICE)
def test_the_store_numbers_an_inbox_event_by_putting_seq_in_front(notice: Notice) -> None:
    """Rule: what the inbox store is given (no seq: it numbers) plus the seq it splices in is the stored notice."""
    told = STORE.dump_told(notice.event, notice.at)
    assert "seq" not in told
    assert STORE.load_notice({"seq": notice.seq, **told}) == notice


@settings(max_examples=200, deadline=None)
@given(event=MATCH_EVENT)
def test_to_dict_is_the_store_form(event: Event) -> None:
    """Rule: an event's ``to_dict`` (still used by older callers) is the store's unnumbered form."""
    assert event.to_dict() == STORE.dump_event(event)


@pytest.mark.parametrize("last_seq", [0, 1, 41])
def test_numbering_follows_the_last_seq(last_seq: int) -> None:
    """Rule: a write's events are numbered on from the match's last seq, one apart, in order."""
    events = [SeatJoined(1, "bo"), played_event(1, 0b1, "single", False), TimedOut(2, 0)]
    numbered = number(events, last_seq)
    assert [n.seq for n in numbered] == [last_seq + 1, last_seq + 2, last_seq + 3]
    assert [n.event for n in numbered] == events
    assert number([], last_seq) == []


def test_an_engine_match_writes_its_events_as_it_always_did() -> None:
    """Rule: the engine's events of a dealt match, through the store codec, are what the engine's dicts were."""
    match, opening = Match.new(resolve_rules({"preset": "standard", "players": 2}), random.Random(3))
    seat = match.turn
    assert seat is not None
    events = opening + match.play(seat, match.legal_masks()[0])
    for n in number(events, 0):
        stored = STORE.dump(n)
        assert STORE.load(stored) == n
        if isinstance(n.event, Played):
            assert stored["cards"] == n.event.cards and "mask" not in stored


@pytest.mark.parametrize(
    "data",
    [
        {"seq": 1, "type": "your_turn", "match_id": "m", "seat": 0, "version": 1},  # an inbox event
        {"seq": 1, "type": "dealt"},
        {"seq": 1},
    ],
)
def test_a_match_feed_refuses_what_is_not_a_match_event(data: dict[str, object]) -> None:
    """Rule: reading a dict whose type is no match event is an UnknownEventError, not a wrong event."""
    with pytest.raises(UnknownEventError):
        STORE.load(data)


def test_an_inbox_refuses_a_match_event() -> None:
    """Rule: reading a match event as an inbox notice is an UnknownEventError."""
    with pytest.raises(UnknownEventError):
        STORE.load_notice({"seq": 1, "at": 1.0, "type": "passed", "seat": 0})


def test_every_event_has_one_type_and_no_field_named_like_the_envelope() -> None:
    """Rule: types are unique within a feed and across feeds; no event field is written as seq, type or at."""
    assert len(MATCH_TYPES) == len(MATCH_EVENTS) and len(INBOX_TYPES) == len(INBOX_EVENTS)
    assert not set(MATCH_TYPES) & set(INBOX_TYPES)
    for cls in (*MATCH_EVENTS, *INBOX_EVENTS):
        assert event_type(cls)
        keys = [f.key for f in event_fields(cls)]
        assert len(set(keys)) == len(keys)
        assert not {"seq", "type", "at"} & set(keys), cls


def test_the_inbox_time_is_rfc3339_on_the_wire_and_seconds_in_the_store() -> None:
    """Rule: ``at`` is epoch seconds as stored and RFC 3339 with milliseconds as sent."""
    notice = Notice(3, 1764586711.25, YourTurn("m1", 2, 9))
    assert STORE.dump_notice(notice)["at"] == 1764586711.25
    assert WIRE.dump_notice(notice)["at"] == "2025-12-01T10:58:31.250Z"
