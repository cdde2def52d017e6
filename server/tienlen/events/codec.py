"""Events to JSON-able dicts and back: :data:`STORE` (as Redis keeps them) and :data:`WIRE` (as the API sends them).

A match's events are numbered in the match (``seq`` from 1: :class:`Numbered`, :func:`number`); an account's
inbox events are numbered in the inbox by the store itself and carry the time they were told (:class:`Notice`).

The store's form is the one events have always been kept in (cards as their text, times as epoch seconds), so
events stored before read back, and a stored match event is sent as it is. The wire's form is the same for a
match's events (the API's event schemas are derived from these classes and send exactly :meth:`EventCodec.dump`
of :data:`WIRE`); an inbox event's times are written in RFC 3339 there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from ..engine.event_codec import PLAIN, TIME, EventForm, event_type
from ..engine.events import Event
from ..wire import epoch_seconds, rfc3339
from .inbox import INBOX_EVENTS, InboxEvent
from .table import MATCH_EVENTS, MatchEvent

E = TypeVar("E", bound=Event)


class UnknownEventError(ValueError):
    """A dict whose ``type`` is no event of its feed."""


@dataclass(frozen=True, slots=True)
class Numbered(Generic[E]):
    """An event with its number in its match: ``seq`` is 1 for the match's first event, then +1 each."""

    seq: int
    event: E


@dataclass(frozen=True, slots=True)
class Notice:
    """An inbox event as told: its number in the account's inbox (``seq``, from 1) and when (``at``, epoch s)."""

    seq: int
    at: float
    event: InboxEvent


def number(events: Iterable[E], last_seq: int) -> list[Numbered[E]]:
    """Number events that follow the event numbered ``last_seq`` (the first gets ``last_seq + 1``)."""
    return [Numbered(seq, event) for seq, event in enumerate(events, last_seq + 1)]


MATCH_TYPES: dict[str, type[Event]] = {event_type(cls): cls for cls in MATCH_EVENTS}
INBOX_TYPES: dict[str, type[Event]] = {event_type(cls): cls for cls in INBOX_EVENTS}


def _class(types: Mapping[str, type[Event]], data: Mapping[str, Any]) -> type[Event]:
    found = types.get(data.get("type"))  # type: ignore[arg-type]
    if found is None:
        raise UnknownEventError(f"no event of type {data.get('type')!r} here")
    return found


@dataclass(frozen=True)
class EventCodec:
    """One form of writing events (:data:`STORE` or :data:`WIRE`); ``time`` writes ``at`` and reads it back."""

    form: EventForm

    def dump_event(self, event: Event) -> dict[str, Any]:
        """An event without a number: ``{"type": ..., <fields>}``."""
        return self.form.encode(event)

    def dump(self, numbered: Numbered[MatchEvent]) -> dict[str, Any]:
        """A numbered match event: ``{"seq": ..., "type": ..., <fields>}``."""
        return {"seq": numbered.seq, **self.form.encode(numbered.event)}

    def load(self, data: Mapping[str, Any]) -> Numbered[MatchEvent]:
        """A numbered match event written by :meth:`dump` (:class:`UnknownEventError` for an unknown type)."""
        event = self.form.decode(_class(MATCH_TYPES, data), data)
        return Numbered(data["seq"], cast(MatchEvent, event))

    def dump_told(self, event: InboxEvent, at: float) -> dict[str, Any]:
        """An inbox event told at ``at``, not yet numbered (the store numbers it when it keeps it)."""
        return {**self.form.encode(event), "at": self._at(at)}

    def dump_notice(self, notice: Notice) -> dict[str, Any]:
        """An inbox event as told and numbered: ``{"seq", "type", "at", <fields>}``."""
        event = self.form.encode(notice.event)
        return {"seq": notice.seq, "type": event.pop("type"), "at": self._at(notice.at), **event}

    def load_notice(self, data: Mapping[str, Any]) -> Notice:
        """An inbox event written by :meth:`dump_notice` (:class:`UnknownEventError` for an unknown type)."""
        event = self.form.decode(_class(INBOX_TYPES, data), data)
        read = self.form.readers.get(TIME)
        at = data["at"] if read is None else read(data["at"])
        return Notice(data["seq"], at, cast(InboxEvent, event))

    def _at(self, at: float) -> Any:
        write = self.form.writers.get(TIME)
        return at if write is None else write(at)


STORE = EventCodec(PLAIN)
"""Events as the store keeps them (cards as text, times as epoch seconds): what ``MatchStore.commit`` and
``InboxStore.push`` take and what their reads give."""

WIRE = EventCodec(
    EventForm(
        writers={**PLAIN.writers, TIME: rfc3339},
        readers={**PLAIN.readers, TIME: epoch_seconds},
    )
)
"""Events as the API sends them (times in RFC 3339, to the millisecond)."""
