"""The environment's fast path: a seat's encoding read straight from the match, no view built.

:func:`~.encoding.encode` (of :func:`~.encoding.facts_of_view` of the engine's
seat view) stays the documented reference (docs/env.md). :class:`Observer`
computes exactly the same numbers from the :class:`~tienlen.engine.Match`
itself, for one rule set: the parts that never change in a match (the rules,
the seat, who plays) are made once, the cards are written through a table of
13-bit quarters of the card mask (13 float32 each), a seat's numbers and the
table's are kept for the hand, and the whole observation is joined as bytes,
then read by numpy in one call. tests/env/test_observe.py requires it to
equal the reference byte for byte at every position of random matches under
every preset, seat count and rule variant, on both engines.
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

from ..engine.combos import Combination
from ..engine.match import Match
from ..engine.rules import MIN_PLAYERS, RuleSet
from .encoding import _BOMBS_INDEX, _KIND_INDEX, _SCORING_INDEX, _TIEBREAK_INDEX, FIELD, FIELDS, KINDS, SEAT_SLOTS

_FLOAT = struct.Struct("<f")
_ONE, _ZERO = _FLOAT.pack(1.0), _FLOAT.pack(0.0)
_SEAT = struct.Struct("<7f")
_PROGRESS = struct.Struct("<2f")

# The layout the joins below follow: the fields in their documented order, checked once.
_ORDER = (
    "hand", "table", "table_kind", "table_length", "my_turn", "leading", "reentry", "table_owner", "start_card",
    "seats", "players", "bombs", "flags", "scoring", "tiebreak", "hands", "hand_progress", "my_seat",
)  # fmt: skip
assert tuple(f.name for f in FIELDS) == _ORDER, "observe.py joins the fields in the order encoding.FIELDS lists them"
assert FIELD["seats"].size == 7 * SEAT_SLOTS


def _one_hot(size: int, at: int | None) -> bytes:
    """``size`` float32, 1 at ``at`` (none when None)."""
    return b"".join(_ONE if i == at else _ZERO for i in range(size))


def _flags(bits: int, size: int) -> bytes:
    """``size`` float32, 1 where ``bits`` has a bit (the first number from the lowest bit)."""
    return b"".join(_ONE if bits >> i & 1 else _ZERO for i in range(size))


_QUARTER, _HALF = (1 << 13) - 1, (1 << 26) - 1
_QUARTER_FLOATS: tuple[bytes, ...] = tuple(
    low + high for high in [_flags(bits, 5) for bits in range(32)] for low in [_flags(bits, 8) for bits in range(256)]
)
"""Each 13 bits (a quarter of a card mask) as 13 float32."""
_NO_CARDS = _ZERO * 52
_CARD_ONE: tuple[bytes, ...] = tuple(_one_hot(52, card) for card in range(52))
_OWNER_ONE: tuple[bytes, ...] = tuple(_one_hot(SEAT_SLOTS, slot) for slot in (*range(SEAT_SLOTS), None))
_NO_OWNER = SEAT_SLOTS  # the last row of _OWNER_ONE: no play on the table
_NO_TABLE = _NO_CARDS + _one_hot(len(KINDS) + 1, None)  # table, table_kind and table_length without a table
_TABLES_KEPT = 1 << 14
_TURN_FLAGS: tuple[bytes, ...] = tuple(_flags(bits, 3) for bits in range(8))  # my_turn, leading, reentry: bits 0-2
_EMPTY_SLOT = _ZERO * 7


def card_floats(mask: int) -> bytes:
    """The 52 bits of a card mask, card 0 first, as 52 little-endian float32."""
    low, high = mask & _HALF, mask >> 26
    quarters = _QUARTER_FLOATS
    return b"".join((quarters[low & _QUARTER], quarters[low >> 13], quarters[high & _QUARTER], quarters[high >> 13]))


class Observer:
    """The encodings of one rule set's matches, straight from the match (equal to the reference encoding)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        n = self.players = rules.players
        self.most = max(1, (n - 1) * rules.hands)
        # players … hands: the rules' fields, the same for every seat and position.
        self.rules_floats = b"".join(
            [
                _one_hot(FIELD["players"].size, n - MIN_PLAYERS),
                _one_hot(FIELD["bombs"].size, _BOMBS_INDEX[rules.bombs]),
                b"".join(
                    _ONE if flag else _ZERO
                    for flag in (rules.pass_reentry_with_bomb, rules.start_card_rule, rules.end_on_first_out)
                ),
                _one_hot(FIELD["scoring"].size, _SCORING_INDEX[rules.scoring]),
                _one_hot(FIELD["tiebreak"].size, _TIEBREAK_INDEX[rules.tiebreak]),
                _FLOAT.pack(rules.hands / 50),
            ]
        )
        self.clockwise = tuple(tuple((seat + slot) % n for slot in range(n)) for seat in range(n))  # slot by slot
        self.my_seat = tuple(_one_hot(FIELD["my_seat"].size, seat) for seat in range(n))
        self.empty_slots = _EMPTY_SLOT * (SEAT_SLOTS - n)
        self._tails: dict[tuple[int, int], bytes] = {}
        self._tables: dict[int, bytes] = {}  # table_floats by the table's cards
        self._seats: dict[int, bytes] = {}  # seat_floats by seat, cards left, passed and on turn, for one hand's scores
        self._scored: Match | None = None
        self._hands_scored = 0

    def tail(self, seat: int, hand_number: int) -> bytes:
        """players … my_seat: the rules, the hand's progress and the seat (made once per seat and hand)."""
        key = (seat, hand_number)
        found = self._tails.get(key)
        if found is None:
            hands = self.rules.hands
            progress = _PROGRESS.pack(min(hand_number, hands) / hands, hand_number > hands)
            found = self._tails[key] = self.rules_floats + progress + self.my_seat[seat]
        return found

    def table_floats(self, table: Combination) -> bytes:
        """table, table_kind and table_length of a play on the table (kept by its cards)."""
        if len(self._tables) >= _TABLES_KEPT:
            self._tables.clear()
        found = self._tables[table.mask] = b"".join(
            [card_floats(table.mask), _one_hot(len(KINDS), _KIND_INDEX[table.kind]), _FLOAT.pack(table.length / 12)]
        )
        return found

    def seat_floats(self, match: Match, seat: int, left: int, passed: int, on_turn: bool) -> bytes:
        """A seat's 7 numbers of ``seats``: present, cards left, passed, out, place, score, on turn."""
        n = self.players
        place = match.places.index(seat) + 1 if seat in match.places else None
        return _SEAT.pack(
            1.0,
            left / 13,
            passed,
            place is not None,
            0 if place is None else place / n,
            min(match.scores[seat] / self.most, 1),
            on_turn,
        )

    def observe(self, match: Match, seat: int) -> npt.NDArray[np.float32]:
        """The seat's encoding, equal to ``encode_view(seat_view(match, seat))`` (float32, writable)."""
        n = self.players
        hands = match.hands
        hand = hands[seat]
        turn = match.turn
        locked = match.locked
        table = match.table if match.table_seat is not None else None
        if table is None:
            table_floats, owner = _NO_TABLE, _NO_OWNER
        else:
            table_floats = self._tables.get(table.mask) or self.table_floats(table)
            owner = (match.table_seat - seat) % n  # type: ignore[operator]  # table_seat is set with the table
        flags = (
            (turn == seat) | (turn is not None and table is None) << 1 | (turn is not None and locked >> turn & 1) << 2
        )
        start = match.start_card
        quarters = _QUARTER_FLOATS
        parts = [
            quarters[hand & _QUARTER],
            quarters[hand >> 13 & _QUARTER],
            quarters[hand >> 26 & _QUARTER],
            quarters[hand >> 39],
            table_floats,
            _TURN_FLAGS[flags],
            _OWNER_ONE[owner],
            _CARD_ONE[start] if start is not None and hand >> start & 1 else _NO_CARDS,
        ]
        if match is not self._scored or len(match.completed) != self._hands_scored:
            self._scored, self._hands_scored = match, len(match.completed)  # the scores change as a hand ends
            self._seats.clear()
        found = self._seats
        for other in self.clockwise[seat]:
            left = hands[other].bit_count()
            on_turn = turn == other
            passed = locked >> other & 1
            # Within one hand a seat's place follows from its cards (it has one once it holds none; the last
            # hand's end places the rest, and no play follows it).
            key = other << 7 | left << 2 | passed << 1 | on_turn
            floats = found.get(key)
            if floats is None:
                floats = found[key] = self.seat_floats(match, other, left, passed, on_turn)
            parts.append(floats)
        parts.append(self.empty_slots)
        parts.append(self.tail(seat, match.hand_number))
        return np.frombuffer(bytearray(b"").join(parts), dtype=np.float32)
