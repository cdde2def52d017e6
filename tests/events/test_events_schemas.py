"""The API's event schemas are derived from the event dataclasses: one schema per event, one property per field.

A field or an event added to the vocabulary appears in the schemas (and the OpenAPI document) with nothing else
to write; the tables of descriptions and named values name only fields that exist; and what the schemas send is
what the wire codec writes, for any event.
"""

from __future__ import annotations

from hypothesis import given, settings

from tienlen.api.schemas import EventSchema
from tienlen.api.schemas.events import DESCRIPTIONS, ENUMS, EVENT_SCHEMAS
from tienlen.api.schemas.inbox import ABOUT, INBOX_EVENT_DOC, InboxEventSchema
from tienlen.api.schemas.inbox import ENUMS as INBOX_ENUMS
from tienlen.engine.event_codec import event_fields, event_type
from tienlen.events import INBOX_EVENTS, MATCH_EVENTS, STORE, WIRE, Event, Notice, Numbered

from .strategies import NOTICE, NUMBERED


def _keys(cls: type[Event]) -> list[str]:
    return [field.key for field in event_fields(cls)]


def test_every_match_event_has_its_schema_with_exactly_its_fields() -> None:
    """Rule: the event union's cases are the match events, in order; each has seq, type and the event's keys."""
    assert list(EventSchema.tags()) == [event_type(cls) for cls in MATCH_EVENTS]
    for cls in MATCH_EVENTS:
        schema = EventSchema.tags()[event_type(cls)]
        assert schema is EVENT_SCHEMAS[cls]
        assert schema.__name__ == f"{cls.__name__}EventSchema"  # the OpenAPI component is <Name>Event
        assert list(schema().fields) == ["seq", "type", *_keys(cls)]
        assert all(field.required for field in schema().fields.values())


def test_a_nullable_field_is_nullable_in_its_schema() -> None:
    """Rule: a field typed ``X | None`` takes null in the schema, and no other does."""
    for cls in MATCH_EVENTS:
        declared = EVENT_SCHEMAS[cls]().fields
        for field in event_fields(cls):
            assert declared[field.key].allow_none == field.nullable, (cls, field.key)


def test_the_description_tables_name_only_fields_that_exist() -> None:
    """Rule: a description or named enum of a field that was renamed or removed fails here (no stale entry)."""
    for cls, described in DESCRIPTIONS.items():
        assert cls in MATCH_EVENTS and set(described) <= set(_keys(cls)), cls
    for cls, key in ENUMS:
        assert cls in MATCH_EVENTS and key in _keys(cls), (cls, key)
    for cls, key in INBOX_ENUMS:
        assert cls in INBOX_EVENTS and key in _keys(cls), (cls, key)
    assert set(ABOUT) == set(INBOX_EVENTS)


def test_the_inbox_schema_has_every_inbox_field() -> None:
    """Rule: the inbox schema holds seq, type, at and every key of every inbox event (optional), nothing else."""
    declared = InboxEventSchema().fields
    keys = {key for cls in INBOX_EVENTS for key in _keys(cls)}
    assert set(declared) == {"seq", "type", "at"} | keys
    assert {name for name, field in declared.items() if field.required} == {"seq", "type", "at"}
    for cls in INBOX_EVENTS:
        assert f"- `{event_type(cls)}`: {', '.join(f'`{key}`' for key in _keys(cls))}: " in INBOX_EVENT_DOC
        for field in event_fields(cls):
            assert declared[field.key].allow_none or not field.nullable, (cls, field.key)


@settings(max_examples=300, deadline=None)
@given(numbered=NUMBERED)
def test_the_schema_sends_what_the_wire_codec_writes(numbered: Numbered[Event]) -> None:
    """Rule: any stored match event, written by its schema (planned or by marshmallow), is the wire codec's dict,
    and the schema finds it valid."""
    stored = STORE.dump(numbered)
    assert EventSchema().dump(stored) == WIRE.dump(numbered)
    case = EventSchema.tags()[numbered.event.type]()
    assert case.dump(stored) == WIRE.dump(numbered)
    assert EventSchema().validate(WIRE.dump(numbered)) == {}


@settings(max_examples=300, deadline=None)
@given(notice=NOTICE)
def test_the_inbox_schema_sends_what_the_wire_codec_writes(notice: Notice) -> None:
    """Rule: any stored inbox event, written by the inbox schema (planned or by marshmallow), is the wire codec's."""
    stored = STORE.dump_notice(notice)
    assert InboxEventSchema().dump(stored) == WIRE.dump_notice(notice)
    assert InboxEventSchema().reference_dump(stored) == WIRE.dump_notice(notice)
