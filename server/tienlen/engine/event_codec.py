"""Events as JSON-able dicts and back, worked out once per class from its dataclass fields.

An event is a frozen dataclass with a ``type`` class variable (its name in JSON). Its dict is ``{"type": ...}``
and then each field, in declaration order, under its own name and as it is, except:

- a tuple is written as a list (and read back as a tuple);
- a field of type :data:`Cards` holds a card mask, written as its cards' text low to high
  (``["3S", "3C"]``, by :func:`~.cards.format_mask`: the one place card text is written);
- a field of type :data:`HandsDealt` holds one card mask a seat (a hand's cards as dealt), written as a list of
  each seat's cards' text;
- a field of type :data:`Action` holds the mask of what a seat did, 0 when it passed, written as
  ``{"type": "play" | "pass", "cards": [...]}``;
- a field of type :data:`Time` holds epoch seconds, written by the form's time writer (as it is unless a form
  says otherwise: the API writes RFC 3339);
- a field may name its own key (``Annotated[str, key("from")]``: a key that is a Python keyword).

A field whose value may be None stays None. :class:`EventForm` is one such way of writing (a set of writers and
readers by kind of field); :data:`PLAIN` is the one every event's ``to_dict`` uses. Pure: standard library only.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from .cards import format_mask, mask_of, parse_cards

VALUE, LIST, CARDS, ACTION, TIME, HANDS = "value", "list", "cards", "action", "time", "hands"


@dataclass(frozen=True, slots=True)
class Written:
    """How a field is written (in its type: ``Annotated[int, Written(CARDS)]``): its kind, and its key when that is
    not the field's name."""

    kind: str | None = None
    key: str | None = None


Cards = Annotated[int, Written(CARDS)]
"""A card mask, written as its cards' text."""
HandsDealt = Annotated[tuple[int, ...], Written(HANDS)]
"""A card mask a seat, written as a list of each seat's cards' text."""
Action = Annotated[int, Written(ACTION)]
"""The mask a seat played, 0 when it passed, written as ``{"type": "play" | "pass", "cards": [...]}``."""
Time = Annotated[float, Written(TIME)]
"""A moment in epoch seconds."""


def key(name: str) -> Written:
    """Write the field under ``name`` instead of its own name (``Annotated[str, key("from")]``)."""
    return Written(key=name)


@dataclass(frozen=True, slots=True)
class EventField:
    """One field of an event class as written: its attribute, its key, its kind, its type, whether it may be None.

    ``hint`` is the field's type without ``None`` (``int`` for ``int | None``; ``tuple[int, ...]``).
    """

    name: str
    key: str
    kind: str
    hint: Any
    nullable: bool


_FIELDS: dict[type, tuple[EventField, ...]] = {}


def event_fields(cls: type) -> tuple[EventField, ...]:
    """The fields of an event class as written, in declaration order (worked out once per class)."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls, include_extras=True)
        found = _FIELDS[cls] = tuple(_event_field(f.name, hints[f.name]) for f in dataclasses.fields(cls))
    return found


def _event_field(name: str, hint: Any) -> EventField:
    kind, written_key = None, name
    if typing.get_origin(hint) is Annotated:
        for mark in hint.__metadata__:
            if isinstance(mark, Written):
                kind = mark.kind or kind
                written_key = mark.key or written_key
        hint = typing.get_args(hint)[0]
    nullable = False
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        nullable = len(rest) < len(typing.get_args(hint))
        if len(rest) != 1:
            raise TypeError(f"field {name}: only one type or None is supported, not {hint}")
        hint = rest[0]
    if kind is None:
        kind = LIST if typing.get_origin(hint) is tuple else VALUE
    return EventField(name, written_key, kind, hint, nullable)


def event_type(cls: type) -> str:
    """The ``type`` an event class is written with."""
    name = getattr(cls, "type", "")
    if not isinstance(name, str) or not name:
        raise TypeError(f"{cls.__name__} has no type name")
    return name


def action_text(mask: int) -> dict[str, Any]:
    """What a seat did, written: ``{"type": "pass", "cards": []}`` for 0, else a play of those cards."""
    return {"type": "play" if mask else "pass", "cards": format_mask(mask)}


def action_mask(data: Mapping[str, Any]) -> int:
    """The mask of an action written by :func:`action_text` (0 for a pass)."""
    return 0 if data["type"] == "pass" else cards_text_mask(data["cards"])


def cards_text_mask(texts: Iterable[str]) -> int:
    """The mask of cards written as text."""
    return mask_of(parse_cards(texts))


def hands_text(masks: Iterable[int]) -> list[list[str]]:
    """Each seat's cards, written (:func:`~.cards.format_mask`)."""
    return [format_mask(mask) for mask in masks]


def hands_masks(texts: Iterable[Iterable[str]]) -> tuple[int, ...]:
    """The masks of each seat's cards written by :func:`hands_text`."""
    return tuple(cards_text_mask(cards) for cards in texts)


Writer = Callable[[Any], Any]


@dataclass(frozen=True)
class EventForm:
    """One way of writing events: a writer and a reader by kind of field (None: the value is written as it is).

    :meth:`encode` and :meth:`decode` are exact inverses for every event whose fields hold what their types say
    (for a form whose readers undo its writers).
    """

    writers: Mapping[str, Writer | None]
    readers: Mapping[str, Writer | None]
    encoders: dict[type, Callable[[Any], dict[str, Any]]] = dataclasses.field(default_factory=dict, repr=False)
    numbered_encoders: dict[type, Callable[[Any, int], dict[str, Any]]] = dataclasses.field(
        default_factory=dict, repr=False
    )
    _decoders: dict[type, Callable[[Mapping[str, Any]], Any]] = dataclasses.field(default_factory=dict, repr=False)

    def encoder(self, cls: type) -> Callable[[Any], dict[str, Any]]:
        """The function that writes events of class ``cls`` (made once; also kept in :attr:`encoders`)."""
        found = self.encoders.get(cls)
        if found is None:
            found = self.encoders[cls] = self._compile(cls, self.writers, encode=True)
        return found

    def encode(self, event: Any) -> dict[str, Any]:
        """The event as a JSON-able dict: ``type`` first, then its fields in declaration order."""
        encoder = self.encoders.get(type(event)) or self.encoder(type(event))
        return encoder(event)

    def encode_numbered(self, event: Any, seq: int) -> dict[str, Any]:
        """:meth:`encode` with ``{"seq": seq}`` first."""
        encoder = self.numbered_encoders.get(type(event))
        if encoder is None:
            encoder = self.numbered_encoders[type(event)] = self._compile(
                type(event), self.writers, encode=True, numbered=True
            )
        return encoder(event, seq)

    def decode(self, cls: type, data: Mapping[str, Any]) -> Any:
        """The event of class ``cls`` written as ``data`` (other keys, such as ``seq``, are not read)."""
        decoder = self._decoders.get(cls)
        if decoder is None:
            decoder = self._decoders[cls] = self._compile(cls, self.readers, encode=False)
        return decoder(data)

    @staticmethod
    def _compile(cls: type, functions: Mapping[str, Writer | None], *, encode: bool, numbered: bool = False) -> Any:
        """A function written for ``cls``'s fields (as fast as a dict literal written by hand)."""
        names: dict[str, Any] = {"C": cls}
        parts = []
        for index, field in enumerate(event_fields(cls)):
            function = functions.get(field.kind)
            value = f"e.{field.name}" if encode else f"d[{field.key!r}]"
            if function is not None:
                names[f"f{index}"] = function
                written = f"f{index}({value})"
                value = f"(None if {value} is None else {written})" if field.nullable else written
            parts.append(f"{field.key!r}: {value}" if encode else f"{field.name}={value}")
        if encode:
            head = "lambda e, s: {'seq': s, " if numbered else "lambda e: {"
            source = f"{head}'type': {event_type(cls)!r}, {', '.join(parts)}}}"
        else:
            source = f"lambda d: C({', '.join(parts)})"
        return eval(source, names)  # built from a dataclass's own field names


PLAIN = EventForm(
    writers={LIST: list, CARDS: format_mask, ACTION: action_text, HANDS: hands_text},
    readers={LIST: tuple, CARDS: cards_text_mask, ACTION: action_mask, HANDS: hands_masks},
)


def event_to_dict(event: Any) -> dict[str, Any]:
    """The event as a JSON-able dict with its ``type`` (the :data:`PLAIN` form)."""
    return PLAIN.encode(event)
