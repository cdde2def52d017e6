"""The one match writer (service/writer.py), on the tests' Redis: what every write of a match is promised.

- a lost compare-and-set is retried from a fresh read, the change applied again to what was read then;
- a call with a key it answered already is answered what was kept, the change not applied;
- the accounts are told (notices) and a finished match kept once a commit, never for a lost race;
- a refusal (a domain error) changes nothing, also when the change had already touched the record read.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from flask import Flask

from tests.support.api import Api
from tests.support.lifecycle import service_of
from tienlen.engine import Event, IllegalActionError
from tienlen.events import Rematch
from tienlen.service import MatchNotFound
from tienlen.service.errors import IdempotencyKeyReused, MatchFull
from tienlen.service.writer import Done, Keyed, Write, found
from tienlen.store import AnswerKey, Loaded, MatchRecord


def a_match(api: Api) -> str:
    """A match in play between two remote seats (nothing happens in it unless the test does it)."""
    created = api.create(seats=[{"name": "A"}, {"name": "B"}])
    match_id: str = created["match_id"]
    return match_id


def noted(record: MatchRecord, what: str) -> Write[int]:
    """A write that adds one event to the match and answers the version it was made on."""
    return Write(record, [Rematch(what)], lambda _: record.version)  # any event of a match will do


def test_a_lost_race_is_retried_from_a_fresh_read_and_the_change_applied_again(app: Flask, api: Api) -> None:
    service = service_of(app)
    match_id = a_match(api)
    start = service.reads.get(match_id).version
    seen: list[int] = []

    def change(loaded: Loaded) -> Write[int]:
        record = found(loaded, match_id)
        seen.append(record.version)
        if len(seen) == 1:  # another request commits between this one's read and its commit
            service.core.writer.write(match_id, lambda other: noted(found(other, match_id), "first"))
        return noted(record, "second")

    assert service.core.writer.write(match_id, change) == start + 2
    assert seen == [start, start + 1], "read again after the lost race, and changed again"
    events = service.core.store.all_events(match_id)
    assert [e.get("next_match_id") for e in events[-2:]] == ["first", "second"], "both applied, each once"
    assert service.reads.get(match_id).version == start + 2


def test_a_keyed_call_answered_already_is_answered_again_without_applying(app: Flask, api: Api) -> None:
    service = service_of(app)
    match_id = a_match(api)
    applied: list[int] = []
    keyed = Keyed(AnswerKey("test", str(uuid.uuid4())), "digest", "address:here", lambda _, first: first["n"])

    def change(loaded: Loaded) -> Write[Any]:
        record = found(loaded, match_id)
        applied.append(record.version)
        return Write(record, [Rematch("noted")], lambda _: 1, keep={"n": 1})

    assert service.core.writer.write(match_id, change, keyed) == 1
    version = service.reads.get(match_id).version
    assert service.core.writer.write(match_id, change, keyed) == 1, "the kept answer"
    assert len(applied) == 1 and service.reads.get(match_id).version == version, "applied once"
    other = Keyed(keyed.key, "digest", "address:elsewhere", keyed.again)
    with pytest.raises(IdempotencyKeyReused):
        service.core.writer.write(match_id, change, other)
    assert len(applied) == 1, "another caller's use of the key applies nothing either"


def test_a_refusal_under_a_key_is_kept_and_answered_again_without_applying(app: Flask, api: Api) -> None:
    service = service_of(app)
    match_id = a_match(api)
    tried: list[int] = []
    keyed: Keyed[int] = Keyed(AnswerKey("test", str(uuid.uuid4())), "digest")

    def change(loaded: Loaded) -> Write[int]:
        tried.append(1)
        raise IllegalActionError("does_not_beat", "refused")

    for _ in range(2):
        with pytest.raises(IllegalActionError) as refused:
            service.core.writer.write(match_id, change, keyed)
        assert refused.value.reason == "does_not_beat"
    assert tried == [1], "the retry was answered the kept refusal"


def test_notices_and_keeping_happen_once_per_commit_and_never_for_a_lost_race(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_of(app)
    match_id = a_match(api)
    told: list[int] = []
    kept: list[int] = []
    heard: list[Event] = []
    committed, finished = service.core.writer.notices.committed, service.core.writer.history.finished

    def telling(record: MatchRecord, events: Sequence[Event]) -> None:
        told.append(record.version)
        heard.extend(events)
        committed(record, events)

    def keeping(record: MatchRecord, events: Sequence[Event]) -> None:
        kept.append(record.version)
        finished(record, events)

    monkeypatch.setattr(service.core.writer.notices, "committed", telling)
    monkeypatch.setattr(service.core.writer.history, "finished", keeping)
    raced: list[int] = []

    def change(loaded: Loaded) -> Write[int]:
        record = found(loaded, match_id)
        if not raced:
            raced.append(1)
            service.core.writer.write(match_id, lambda other: noted(found(other, match_id), "racer"))
        return noted(record, "mine")

    version = service.core.writer.write(match_id, change)
    assert told == [version - 1, version] == kept, "the racer's commit and this one's, each told once"
    assert heard == [Rematch("racer"), Rematch("mine")], "told the events as the vocabulary's values"
    service.core.writer.write(match_id, lambda loaded: Done(0))
    assert len(told) == 2, "nothing written, nothing told"


def test_a_refusal_changes_nothing_even_after_the_change_touched_the_record(app: Flask, api: Api) -> None:
    service = service_of(app)
    match_id = a_match(api)
    before = service.core.store.load(match_id).record
    assert before is not None
    events = service.core.store.all_events(match_id)

    def change(loaded: Loaded) -> Write[None]:
        record = found(loaded, match_id)
        record.seats[0].name = "Changed"
        record.listed = True
        raise MatchFull("refused after touching the record")

    with pytest.raises(MatchFull):
        service.core.writer.write(match_id, change)
    after = service.core.store.load(match_id).record
    assert after is not None and after.to_json() == before.to_json()
    assert service.core.store.all_events(match_id) == events
    with pytest.raises(MatchNotFound):
        service.core.writer.write("no" + match_id, change)
