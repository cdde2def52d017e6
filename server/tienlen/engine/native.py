"""The compiled core's library (native/, a C ABI) loaded with :mod:`ctypes`, behind the engine's API.

``make native`` builds ``native/`` with cargo alone (no crates) and copies the library next to this
module (:data:`LIBRARY_NAME`, gitignored); ``TIENLEN_CORE_LIB`` names another file instead (the image
sets it). :func:`open_library` loads it and declares every function's argument and result types once;
:class:`Core` offers what :class:`.accel.CompiledCore` asks: the same plays in the same order as the
Python engine, and a ``ValueError`` with the core's message for bad input (the C side answers an error
code, :func:`refused` reads the message). Lists come back through output buffers kept per thread (the
calls release the GIL, and the server runs bots in threads), so a call allocates no buffer once its
thread has one.

The conventions of the ABI (native/src/abi.rs): -1 is an absent optional number and a failed call's
answer; masks are 52-bit ``uint64``; a ``bombs`` value is named by its place in the installed bomb
table; objects (a :class:`Hand`, Hard's playouts, chains and judges in :mod:`tienlen.bots.compiled`)
are handles freed when their Python object goes.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Sequence
from ctypes import POINTER, c_bool, c_char_p, c_double, c_int32, c_int64, c_size_t, c_uint32, c_uint64, c_void_p
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .accel import BombRows, CompiledEvent
    from .combos import Combination

LIBRARY_VARIABLE = "TIENLEN_CORE_LIB"
LIBRARY_NAME = {"darwin": "libtienlen_native.dylib", "win32": "tienlen_native.dll"}.get(
    sys.platform, "libtienlen_native.so"
)
ABI_VERSION = 1  # native/src/lib.rs ABI_VERSION: a library of another version is not this source's build
MAX_SEATS = 4  # native/src/hand.rs MAX_SEATS: the width of a hand's state
NONE = -1  # an absent optional number
EVENT_WIDTH = 4  # numbers an event of a compiled hand is written as (lib.rs EVENT_WIDTH)
EVENT_ROOM = 32  # events one action may write (a handful at most)
EVENT_NAMES = ("played", "passed", "table_cleared", "went_out")

_u64p = POINTER(c_uint64)
_u32p = POINTER(c_uint32)
_i64p = POINTER(c_int64)
_f64p = POINTER(c_double)

# Every function of the ABI: (result type, argument types). A handle is a c_void_p; lists are pointers.
PROTOTYPES: dict[str, tuple[Any, list[Any]]] = {
    "tl_abi_version": (c_uint32, []),
    "tl_max_seats": (c_size_t, []),
    "tl_error": (c_char_p, []),
    "tl_install_bomb_table": (c_int32, [c_char_p, c_size_t, _u32p, c_size_t]),
    "tl_classify": (c_int64, [c_uint64]),
    "tl_lead_masks": (c_int64, [c_uint64, c_void_p, c_size_t]),
    "tl_answer_masks": (c_int64, [c_uint64, c_uint64, c_uint32, c_void_p, c_size_t]),
    "tl_bomb_answers": (c_int64, [c_uint64, c_uint64, c_uint32, c_void_p, c_size_t]),
    "tl_legal_masks": (c_int64, [c_uint64, c_int64, c_uint32, c_bool, c_int64, c_void_p, c_size_t]),
    "tl_random_hands": (c_int32, [c_size_t, c_uint32, c_bool, c_bool, c_bool, c_uint64, c_uint64, _u64p]),
    "tl_hand_new": (c_void_p, [_u64p, c_size_t, c_size_t, c_uint32, c_bool, c_bool, c_int64]),
    "tl_hand_free": (None, [c_void_p]),
    "tl_hand_state": (c_int64, [c_void_p, _i64p]),
    "tl_hand_legal": (c_int64, [c_void_p, c_void_p, c_size_t]),
    "tl_hand_play": (c_int64, [c_void_p, c_uint64, c_void_p, c_size_t]),
    "tl_hand_pass": (c_int64, [c_void_p, c_void_p, c_size_t]),
    "tl_plan_cost": (c_int32, [c_uint64, _f64p]),
    "tl_plan_masks": (c_int64, [c_uint64, c_void_p, c_size_t]),
    "tl_medium_lead": (c_int64, [c_uint64, _u32p, c_size_t, c_size_t, c_uint32, c_uint64, c_int64]),
    "tl_medium_answer": (c_int64, [c_uint64, c_uint64, c_size_t, _u32p, c_size_t, c_size_t, c_uint32, c_bool]),
    "tl_forced_moves": (
        c_int64,
        [
            _u64p,
            c_size_t,
            c_size_t,
            c_int64,
            c_int64,
            c_uint32,
            c_uint32,
            c_bool,
            c_uint32,
            c_bool,
            c_double,
            c_void_p,
            c_size_t,
            _u32p,
        ],
    ),
    "tl_playouts_new": (
        c_void_p,
        [c_size_t, c_size_t, c_int64, c_int64, c_uint32, c_uint64, c_int64, c_uint32, c_bool, c_bool, c_double],
    ),
    "tl_playouts_free": (None, [c_void_p]),
    "tl_playouts_values": (c_int32, [c_void_p, _u64p, c_size_t, _u64p, c_size_t, _f64p, _u32p]),
    "tl_seat_actions_new": (c_void_p, [_i64p, c_size_t, c_uint32]),
    "tl_seat_actions_free": (None, [c_void_p]),
    "tl_seat_actions_misses": (c_int32, [c_void_p, c_uint64, c_uint32, _u32p]),
    "tl_deal_chains_new": (
        c_void_p,
        [
            c_size_t,
            c_uint64,
            _u32p,
            c_size_t,
            c_uint64,
            _i64p,
            c_size_t,
            c_uint32,
            _u64p,
            c_size_t,
            c_uint64,
            c_uint32,
            c_uint32,
        ],
    ),
    "tl_deal_chains_free": (None, [c_void_p]),
    "tl_deal_chains_work": (c_int64, [c_void_p]),
    "tl_deal_chains_next": (c_int64, [c_void_p, c_void_p, c_size_t]),
}


def library_path() -> Path:
    """Where the library is looked for: ``TIENLEN_CORE_LIB`` when set, else :data:`LIBRARY_NAME` beside this module."""
    chosen = os.environ.get(LIBRARY_VARIABLE, "").strip()
    return Path(chosen) if chosen else Path(__file__).with_name(LIBRARY_NAME)


def open_library(path: Path) -> ctypes.CDLL | None:
    """The library at ``path`` with every function declared, or None when it is absent, unloadable or stale."""
    try:
        library = ctypes.CDLL(str(path))
        library.tl_abi_version.restype = c_uint32
        if library.tl_abi_version() != ABI_VERSION:
            return None
        for name, (result, arguments) in PROTOTYPES.items():
            function = getattr(library, name)
            function.restype = result
            function.argtypes = arguments
    except (OSError, AttributeError):
        return None
    if library.tl_max_seats() != MAX_SEATS:
        return None
    return library


class Refused(ValueError):
    """Bad input refused by the compiled core (its message)."""


def refused(library: ctypes.CDLL) -> Refused:
    """The error of the last refused call on this thread, with the core's message."""
    message: bytes | None = library.tl_error()
    return Refused((message or b"refused by the compiled core").decode("utf-8", "replace"))


def not_a_hand(mask: int) -> Refused:
    """A mask Python cannot pass as 64 bits (negative or too wide) is no hand: the core's own words for it."""
    return Refused(f"{mask:#x} is not a hand mask (52 bits)")


class Buffers(threading.local):
    """One thread's output buffers (masks and events), grown as a call needs."""

    def __init__(self) -> None:
        self.masks, self.mask_room = (c_uint64 * 256)(), 256
        self.events = (c_uint64 * (EVENT_WIDTH * EVENT_ROOM))()
        self.state = (c_int64 * (5 + 2 * MAX_SEATS))()

    def grow(self, count: int) -> None:
        """Room for ``count`` masks at least."""
        self.mask_room = max(count, 2 * self.mask_room)
        self.masks = (c_uint64 * self.mask_room)()


BUFFERS = Buffers()


def mask_list(call: Callable[[Any, int], int], library: ctypes.CDLL) -> list[int]:
    """The masks a listing ``call(buffer, room)`` writes (called again with more room when they did not fit)."""
    buffers = BUFFERS
    count = call(buffers.masks, buffers.mask_room)
    if count > buffers.mask_room:
        buffers.grow(count)
        count = call(buffers.masks, buffers.mask_room)
    if count < 0:
        raise refused(library)
    return buffers.masks[:count]


def u64_array(values: Sequence[int]) -> Any:
    """A C array of masks (a ValueError for a value that is not one)."""
    try:
        return (c_uint64 * len(values))(*values)
    except (TypeError, OverflowError) as error:
        raise Refused(f"not a list of masks: {error}") from None


def u32_array(values: Sequence[int]) -> Any:
    """A C array of counts (a ValueError for a value that is not one)."""
    if any(not 0 <= v < 1 << 32 for v in values):
        raise Refused("card counts are numbers 0 to 2**32 - 1")
    return (c_uint32 * len(values))(*values)


def optional(value: int | None) -> int:
    """An optional number as the core takes it (a ValueError for a negative one)."""
    if value is None:
        return NONE
    if value < 0:
        raise Refused(f"{value} is not a card, seat or mask")
    return value


class Core:
    """The compiled core (:class:`.accel.CompiledCore`): its functions are plain closures, cheap to call."""

    def __init__(self, library: ctypes.CDLL) -> None:
        self.library = library
        self.rule_numbers: dict[str, int] = {}  # each bombs value's place in the installed bomb table
        self._bind()

    def rule_number(self, bombs: str) -> int:
        """A bombs value's place in the bomb table (a ValueError for a value it does not hold)."""
        try:
            return self.rule_numbers[bombs]
        except KeyError:
            raise Refused(f"unknown bombs rule {str(bombs)!r}") from None

    def install_bomb_table(self, table: BombRows) -> None:
        """Install the bomb table (once per process; again only with the same rows)."""
        names = b"".join(name.encode() + b"\0" for name, _ in table)
        rows = [(place, *(int(n) for n in row)) for place, (_, rule_rows) in enumerate(table) for row in rule_rows]
        flat = (c_uint32 * (6 * len(rows)))(*(n for row in rows for n in row))
        if self.library.tl_install_bomb_table(names, len(names), flat, len(rows)) < 0:
            raise refused(self.library)
        self.rule_numbers.update({name: place for place, (name, _) in enumerate(table)})

    def _bind(self) -> None:
        """The engine's functions as closures over the library's (the hot paths: no attribute look-ups)."""
        library, rules = self.library, self.rule_numbers
        classify_c, lead_c, answer_c = library.tl_classify, library.tl_lead_masks, library.tl_answer_masks
        bombs_c, legal_c, random_c = library.tl_bomb_answers, library.tl_legal_masks, library.tl_random_hands
        rule_number = self.rule_number

        def classify(mask: int) -> tuple[int, int, int] | None:
            """(kind number, length, top) of the combination the cards form, or None."""
            if mask >> 52:
                return None
            packed: int = classify_c(mask)
            return None if packed < 0 else (packed >> 16, packed >> 8 & 255, packed & 255)

        def lead_masks(hand: int) -> list[int]:
            """:func:`~tienlen.engine.legal.lead_masks`, compiled."""
            if hand >> 52:
                raise not_a_hand(hand)
            return mask_list(lambda out, room: lead_c(hand, out, room), library)

        def answer_masks(hand: int, table: Combination, bombs: str) -> list[int]:
            """:func:`~tienlen.engine.legal.answer_masks`, compiled."""
            if hand >> 52:
                raise not_a_hand(hand)
            rule, mask = rule_number(bombs), table.mask
            return mask_list(lambda out, room: answer_c(hand, mask, rule, out, room), library)

        def bomb_answers(hand: int, table: Combination, bombs: str) -> list[int]:
            """:func:`~tienlen.engine.legal.bomb_answers`, compiled."""
            if hand >> 52:
                raise not_a_hand(hand)
            rule, mask = rule_number(bombs), table.mask
            return mask_list(lambda out, room: bombs_c(hand, mask, rule, out, room), library)

        def legal_masks(
            hand: int, table: Combination | None, bombs: str, locked: bool, start_card: int | None
        ) -> list[int]:
            """:func:`~tienlen.engine.legal.legal_masks_of`, compiled (the hot path: the buffer is tried first)."""
            try:
                rule = rules[bombs]
            except KeyError:
                rule = rule_number(bombs)
            if hand >> 52:
                raise not_a_hand(hand)
            mask = NONE if table is None else table.mask
            start = NONE if start_card is None else optional(start_card)
            buffers = BUFFERS
            count: int = legal_c(hand, mask, rule, locked, start, buffers.masks, buffers.mask_room)
            if 0 <= count <= buffers.mask_room:
                return buffers.masks[:count]
            return mask_list(lambda out, room: legal_c(hand, mask, rule, locked, start, out, room), library)

        def random_hands(
            players: int,
            bombs: str,
            reentry_rule: bool,
            start_card_rule: bool,
            end_on_first_out: bool,
            seed: int,
            count: int,
        ) -> tuple[int, int]:
            """Play ``count`` random first hands in the core; (hands, actions)."""
            out = (c_uint64 * 2)()
            if random_c(players, rule_number(bombs), reentry_rule, start_card_rule, end_on_first_out, seed, count, out):
                raise refused(library)
            return out[0], out[1]

        self.classify = classify
        self.lead_masks = lead_masks
        self.answer_masks = answer_masks
        self.bomb_answers = bomb_answers
        self.legal_masks = legal_masks
        self.random_hands = random_hands

    def Hand(
        self,
        hands: Sequence[int],
        turn: int,
        bombs: str,
        reentry_rule: bool,
        end_on_first_out: bool,
        start_card: int | None,
    ) -> Hand:
        """One hand in play: these cards a seat, ``turn`` leads, an empty table."""
        return Hand(self, hands, turn, bombs, reentry_rule, end_on_first_out, start_card)


class Hand:
    """One hand in play inside the compiled core (:class:`.accel.CompiledHand`)."""

    __slots__ = ("_handle", "_library")

    def __init__(
        self,
        core: Core,
        hands: Sequence[int],
        turn: int,
        bombs: str,
        reentry_rule: bool,
        end_on_first_out: bool,
        start_card: int | None,
    ) -> None:
        library = self._library = core.library
        self._handle = None
        rule, masks, start = core.rule_number(bombs), u64_array(hands), optional(start_card)
        if turn < 0:
            raise Refused(f"2 to {MAX_SEATS} hands and a seat on turn among them")
        handle = library.tl_hand_new(masks, len(hands), turn, rule, reentry_rule, end_on_first_out, start)
        if not handle:
            raise refused(library)
        self._handle = handle

    def __del__(self) -> None:
        if self._handle:
            self._library.tl_hand_free(self._handle)
            self._handle = None

    def _state(self) -> tuple[int, list[int]]:
        """(the number of seats, the hand's state as ``tl_hand_state`` writes it)."""
        state = BUFFERS.state
        players: int = self._library.tl_hand_state(self._handle, state)
        if players < 0:
            raise refused(self._library)
        return players, state[:]

    @property
    def turn(self) -> int | None:
        """The seat on turn (None once the hand is over)."""
        seat = self._state()[1][0]
        return None if seat < 0 else seat

    @property
    def hands(self) -> list[int]:
        """Every seat's cards."""
        players, state = self._state()
        return state[5 : 5 + players]

    @property
    def table(self) -> int | None:
        """The cards to beat (None on a lead)."""
        mask = self._state()[1][1]
        return None if mask < 0 else mask

    @property
    def table_seat(self) -> int | None:
        """The seat whose play is on the table."""
        seat = self._state()[1][2]
        return None if seat < 0 else seat

    @property
    def locked(self) -> int:
        """A bit per pass-locked seat."""
        return self._state()[1][3]

    @property
    def places(self) -> list[int]:
        """Seats placed so far, first place first."""
        return [seat for seat in self._state()[1][5 + MAX_SEATS :] if seat >= 0]

    @property
    def done(self) -> bool:
        """Whether the hand is over."""
        return bool(self._state()[1][4])

    def legal(self) -> list[int]:
        """The legal plays of the seat on turn (empty once the hand is over)."""
        legal_c, handle = self._library.tl_hand_legal, self._handle
        return mask_list(lambda out, room: legal_c(handle, out, room), self._library)

    def play(self, mask: int) -> list[CompiledEvent]:
        """The seat on turn plays these cards; the events (a ValueError for an illegal play)."""
        if mask >> 52:
            raise Refused(f"{mask:#x} is not a legal play here")
        events = BUFFERS.events
        return self._events(self._library.tl_hand_play(self._handle, mask, events, EVENT_ROOM), events)

    def pass_turn(self) -> list[CompiledEvent]:
        """The seat on turn passes; the events (a ValueError on a lead)."""
        events = BUFFERS.events
        return self._events(self._library.tl_hand_pass(self._handle, events, EVENT_ROOM), events)

    def _events(self, count: int, buffer: Any) -> list[CompiledEvent]:
        """The events an action wrote: ("played", seat, mask, kind number, bomb), ("passed", seat),
        ("table_cleared", leader) or ("went_out", seat, place)."""
        if count < 0:
            raise refused(self._library)
        numbers: list[int] = buffer[: EVENT_WIDTH * count]
        found: list[CompiledEvent] = []
        for i in range(0, len(numbers), EVENT_WIDTH):
            tag, first, second, third = numbers[i : i + EVENT_WIDTH]
            if tag == 0:
                found.append(("played", first, second, third & 255, bool(third >> 8)))
            elif tag == 3:
                found.append(("went_out", first, second))
            else:
                found.append((EVENT_NAMES[tag], first))
        return found


def load(path: Path | None = None) -> Core | None:
    """The compiled core from its library (:func:`library_path` unless given), or None where it is not built.

    The bomb table is not installed here: :func:`.accel.load_core` installs the rules' own."""
    library = open_library(library_path() if path is None else path)
    return None if library is None else Core(library)
