"""Event records: what each accepted action did, in order (frozen values).

How an event is written as JSON is worked out from its fields by :mod:`.event_codec` (one way for every event,
the match's and the inbox's too: see :mod:`tienlen.events`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from .cards import format_mask
from .event_codec import Cards, event_to_dict, key


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events; ``type`` is the wire name."""

    type: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        """The event as a JSON-able dict with its ``type`` (:func:`~.event_codec.event_to_dict`)."""
        return event_to_dict(self)


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand was dealt; ``leader`` leads its first battle."""

    type: ClassVar[str] = "hand_started"
    hand_number: int
    leader: int


@dataclass(frozen=True, slots=True)
class Played(Event):
    """A seat played cards; ``bomb`` when they beat the table as a bomb."""

    type: ClassVar[str] = "played"
    seat: int
    mask: Annotated[Cards, key("cards")]
    kind: str
    bomb: bool

    @property
    def cards(self) -> list[str]:
        """The cards played, canonical and low to high."""
        return format_mask(self.mask)


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A seat passed and is locked out of the battle."""

    type: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class TableCleared(Event):
    """A battle was won; the table is clear and ``leader`` leads next."""

    type: ClassVar[str] = "table_cleared"
    leader: int


@dataclass(frozen=True, slots=True)
class WentOut(Event):
    """A seat played its last card (or was left last) and took ``place`` (1-based)."""

    type: ClassVar[str] = "went_out"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """A hand ended: seats first to last and points by seat."""

    type: ClassVar[str] = "hand_ended"
    hand_number: int
    places: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match ended; ``winner`` is None only for a shared win (see ``winners``)."""

    type: ClassVar[str] = "match_ended"
    winner: int | None
    winners: tuple[int, ...]
    scores: tuple[int, ...]


# Fast constructors for the events of every action (the match's hot path): the
# frozen dataclass ``__init__`` sets each field through ``object.__setattr__``;
# these set the slots directly and build equal, equally frozen values. Events
# are immutable values, so equal ones are shared: a pass or a cleared table per
# seat, and a bounded cache of plays.
_new = object.__new__
_PLAYED_SETTERS = tuple(Played.__dict__[name].__set__ for name in ("seat", "mask", "kind", "bomb"))
_PASSED_SEAT = Passed.__dict__["seat"].__set__
_CLEARED_LEADER = TableCleared.__dict__["leader"].__set__
SHARED_SEATS = 8  # seats 0..7 get shared pass and table-cleared events (a match has at most 4)
_PLAYED_LIMIT = 1 << 16


def played_event(seat: int, mask: int, kind: str, bomb: bool) -> Played:
    """``Played(seat, mask, kind, bomb)``, built faster."""
    event = _new(Played)
    set_seat, set_mask, set_kind, set_bomb = _PLAYED_SETTERS
    set_seat(event, seat)
    set_mask(event, mask)
    set_kind(event, kind)
    set_bomb(event, bomb)
    return event


def _passed(seat: int) -> Passed:
    event = _new(Passed)
    _PASSED_SEAT(event, seat)
    return event


def _cleared(leader: int) -> TableCleared:
    event = _new(TableCleared)
    _CLEARED_LEADER(event, leader)
    return event


PASSED_BY_SEAT = tuple(_passed(seat) for seat in range(SHARED_SEATS))
CLEARED_BY_SEAT = tuple(_cleared(seat) for seat in range(SHARED_SEATS))
# ``(mask << 3 | seat) << 1 | bomb`` → the shared event (seats below SHARED_SEATS); emptied when full.
PLAYED_CACHE: dict[int, Played] = {}


def shared_played(seat: int, mask: int, kind: str, bomb: bool) -> Played:
    """``Played(seat, mask, kind, bomb)``, shared with earlier equal plays when cached."""
    if seat >= SHARED_SEATS:
        return played_event(seat, mask, kind, bomb)
    key = (mask << 3 | seat) << 1 | bomb
    event = PLAYED_CACHE.get(key)
    if event is None:
        if len(PLAYED_CACHE) >= _PLAYED_LIMIT:
            PLAYED_CACHE.clear()
        event = PLAYED_CACHE[key] = played_event(seat, mask, kind, bomb)
    return event


def passed_event(seat: int) -> Passed:
    """``Passed(seat)``, shared for the usual seats."""
    return PASSED_BY_SEAT[seat] if 0 <= seat < SHARED_SEATS else _passed(seat)


def table_cleared_event(leader: int) -> TableCleared:
    """``TableCleared(leader)``, shared for the usual seats."""
    return CLEARED_BY_SEAT[leader] if 0 <= leader < SHARED_SEATS else _cleared(leader)
