"""The compiled core's library (native/, a plain C ABI): found, loaded with :mod:`ctypes`, declared once.

``make native`` builds ``native/`` with cargo alone (the core has no dependencies) and copies the
library next to this module (:data:`LIBRARY_NAME`, gitignored); ``TIENLEN_CORE_LIB`` names another
file instead (the image sets it). :func:`open_library` loads it, refuses a stale build (another
:data:`ABI_VERSION`) and declares every function's result and argument types once (no argument types
for the plain calls). :mod:`.compiled` (the engine's functions) and :mod:`tienlen.bots.compiled` (Hard's loops) call it.

The conventions of the ABI (native/src/abi.rs): -1 is an absent optional number and a refused call's
answer, whose message :meth:`Library.refused` turns into a ``ValueError``; masks are 52-bit
``uint64``; a ``bombs`` value is named by its place in the installed bomb table; lists come back
in buffers: a thread's own buffer in the core (``tl_out``, read through :attr:`Buffers.out`) for the
hot listings, else one the caller passes (:meth:`Library.masks`, grown when too small). Buffers are
kept per thread (:class:`Buffers`): the server runs bots in threads. Objects (a hand, Hard's
playouts, judges and chains) are handles freed when their Python object goes. Cheap functions are
called holding the GIL (:attr:`Library.held`, no release and re-take around a sub-microsecond call);
the searches release it (:attr:`Library.released`) so that other threads run meanwhile. The hottest
listings are plain calls (no declared argument types: a mask goes as two 32-bit halves, ``mask & LOW``
and ``mask >> 32``), several times cheaper in ctypes than declared 64-bit arguments.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from collections.abc import Callable, Sequence
from ctypes import POINTER, c_bool, c_char_p, c_double, c_int32, c_int64, c_size_t, c_uint32, c_uint64, c_void_p
from pathlib import Path
from typing import Any

LIBRARY_VARIABLE = "TIENLEN_CORE_LIB"
LIBRARY_NAME = {"darwin": "libtienlen_native.dylib", "win32": "tienlen_native.dll"}.get(
    sys.platform, "libtienlen_native.so"
)
ABI_VERSION = 3  # native/src/lib.rs ABI_VERSION: a library of another version is not this source's build
MAX_SEATS = 4  # native/src/hand.rs MAX_SEATS: the width of a hand's state
NONE = -1  # an absent optional number
EVENT_WIDTH = 4  # numbers an event of a compiled hand is written as (lib.rs EVENT_WIDTH)
EVENT_ROOM = 32  # events one action may write (a handful at most)
FIRSTS = 512  # counts of masks :attr:`Buffers.firsts` has a view for (more than any hand's legal plays but leads)

_u64p, _u32p, _i64p, _f64p = POINTER(c_uint64), POINTER(c_uint32), POINTER(c_int64), POINTER(c_double)
_size, _mask, _opt, _rule, _flag, _handle, _f64 = c_size_t, c_uint64, c_int64, c_uint32, c_bool, c_void_p, c_double

# A seat's sight as Master's network reads it (tl_net_features): seat, players, hand, each seat's cards played, the
# counts, the pass locks, the table, its owner, the start card.
_SIGHT = [_size, _size, _mask, _u64p, _u32p, c_uint32, _opt, _opt, _opt]

# Every function of the ABI: (called holding the GIL, result type, argument types); lists are pointers. A plain call
# (argument types None) takes 32-bit numbers only and is called with Python ints, undeclared: ctypes' cheapest call.
PROTOTYPES: dict[str, tuple[bool, Any, list[Any] | None]] = {
    "tl_abi_version": (True, c_uint32, []),
    "tl_max_seats": (True, _size, []),
    "tl_error": (True, c_char_p, []),
    "tl_out": (True, c_void_p, []),
    "tl_out_room": (True, _size, []),
    "tl_install_bomb_table": (True, c_int32, [c_char_p, _size, _u32p, _size]),
    "tl_classify": (True, c_int32, None),
    "tl_lead": (True, c_int32, None),
    "tl_answers": (True, c_int32, None),
    "tl_bombs": (True, c_int32, None),
    "tl_legal": (True, c_int32, None),
    "tl_lead_masks": (True, c_int64, [_mask, c_void_p, _size]),
    "tl_answer_masks": (True, c_int64, [_mask, _mask, _rule, c_void_p, _size]),
    "tl_bomb_answers": (True, c_int64, [_mask, _mask, _rule, c_void_p, _size]),
    "tl_legal_masks": (True, c_int64, [_mask, _opt, _rule, _flag, _opt, c_void_p, _size]),
    "tl_random_hands": (False, c_int32, [_size, _rule, _flag, _flag, _flag, c_uint64, c_uint64, _u64p]),
    "tl_hand_new": (True, _handle, [_u64p, _size, _size, _rule, _flag, _flag, _opt]),
    "tl_hand_free": (True, None, [_handle]),
    "tl_hand_state": (True, c_int64, [_handle, _i64p]),
    "tl_hand_legal": (True, c_int64, [_handle, c_void_p, _size]),
    "tl_hand_play": (True, c_int64, [_handle, _mask, c_void_p, _size]),
    "tl_hand_pass": (True, c_int64, [_handle, c_void_p, _size]),
    "tl_plan_cost": (True, c_int32, [_mask, _f64p]),
    "tl_plan_masks": (True, c_int64, [_mask, c_void_p, _size]),
    "tl_medium_lead": (True, c_int64, [_mask, _u32p, _size, _size, _rule, _mask, _opt]),
    "tl_medium_answer": (True, c_int64, [_mask, _mask, _size, _u32p, _size, _size, _rule, _flag]),
    "tl_forced_moves": (
        False,
        c_int64,
        [_u64p, _size, _size, _opt, _opt, c_uint32, _rule, _flag, c_uint32, _flag, c_double, c_void_p, _size, _u32p],
    ),
    "tl_playouts_new": (
        True,
        _handle,
        [_size, _size, _opt, _opt, c_uint32, _mask, _opt, _rule, _flag, _flag, c_double],
    ),
    "tl_playouts_free": (True, None, [_handle]),
    "tl_playouts_values": (False, c_int32, [_handle, c_void_p, _size, _size]),
    "tl_seat_actions_new": (True, _handle, [_i64p, _size, _rule]),
    "tl_seat_actions_free": (True, None, [_handle]),
    "tl_seat_actions_misses": (True, c_int32, [_handle, _mask, c_uint32, _u32p]),
    "tl_deal_chains_new": (
        True,
        _handle,
        [_size, _mask, _u32p, _size, _mask, _i64p, _size, _rule, _u64p, _size, c_uint64, c_uint32, c_uint32],
    ),
    "tl_deal_chains_free": (True, None, [_handle]),
    "tl_deal_chains_next": (False, c_int64, [_handle]),
    "tl_search_round": (False, c_int32, [_handle, _handle, _u64p, _size, _f64p, c_uint32, c_double, _i64p]),
    "tl_net_new": (True, _handle, [_u32p, _size, c_void_p, _size]),
    "tl_net_free": (True, None, [_handle]),
    "tl_net_logits": (True, c_int32, [_handle, _u32p, _size, _u32p, _u32p, _size, _flag, _f64p]),
    "tl_net_features": (
        True,
        c_int64,
        [*_SIGHT, _u64p, _size, _mask, _u64p, _size, _u32p, _size],
    ),
    "tl_playouts_use_net": (True, c_int32, [_handle, _handle, _u64p, c_double, c_uint32]),
}


class Refused(ValueError):
    """Bad input refused by the compiled core (its message)."""


def not_a_hand(mask: int) -> Refused:
    """A mask Python cannot pass as 64 bits (negative or too wide) is no hand: the core's own words for it."""
    return Refused(f"{mask:#x} is not a hand mask (52 bits)")


class Buffers(threading.local):
    """One thread's buffers: a view of its output buffer in the core (and of its first masks, by count), and its own
    for masks, events, a hand's state, and Hard's playouts (a deal and the moves), grown as a call needs."""

    def __init__(self, library: ctypes.CDLL, out_room: int) -> None:
        core_out = (c_uint64 * out_room).from_address(library.tl_out())  # this thread's, in the core
        self.out = memoryview(core_out).cast("B").cast("Q")  # native format: tolist() at C speed
        self.firsts = [self.out[:count] for count in range(FIRSTS)]  # its first masks, by count: no slice a call
        self.masks, self.mask_room = (c_uint64 * 256)(), 256
        self.events = (c_uint64 * (EVENT_WIDTH * EVENT_ROOM))()
        self.state = (c_int64 * (5 + 2 * MAX_SEATS))()
        self.points = memoryview(core_out).cast("B").cast("d")  # the same buffer read as points (Hard's playouts)
        self.inputs_for(MAX_SEATS + 16)

    def grow(self, count: int) -> None:
        """Room for ``count`` masks at least in :attr:`masks`."""
        self.mask_room = max(count, 2 * self.mask_room)
        self.masks = (c_uint64 * self.mask_room)()

    def inputs_for(self, count: int) -> None:
        """Room for ``count`` masks at least in :attr:`inputs` (a deal and the moves to play out on it)."""
        self.input_room = count
        self.inputs: Any = (c_uint64 * count)()  # Any: filled by slice from any sequence of ints


class Library:
    """The loaded library: its functions holding the GIL (:attr:`held`) or releasing it (:attr:`released`)."""

    def __init__(self, held: ctypes.PyDLL, released: ctypes.CDLL) -> None:
        self.held, self.released = held, released
        self.functions = {name: getattr(held if h else released, name) for name, (h, _, _) in PROTOTYPES.items()}
        self.__dict__.update(self.functions)  # plain attributes: no look-up through __getattr__ on a hot path
        self.out_room: int = held.tl_out_room()
        self.buffers = Buffers(held, self.out_room)

    def __getattr__(self, name: str) -> Any:
        """A function of the ABI by its name (``tl_...``), as declared in :data:`PROTOTYPES`."""
        try:
            return self.__dict__["functions"][name]
        except KeyError:
            raise AttributeError(name) from None

    def refused(self) -> Refused:
        """The error of the last refused call on this thread, with the core's message."""
        message: bytes | None = self.held.tl_error()
        return Refused((message or b"refused by the compiled core").decode("utf-8", "replace"))

    def masks(self, call: Callable[[Any, int], int]) -> list[int]:
        """The masks a listing ``call(buffer, room)`` writes (called again with more room when they did not fit)."""
        buffers = self.buffers
        count = call(buffers.masks, buffers.mask_room)
        if count > buffers.mask_room:
            buffers.grow(count)
            count = call(buffers.masks, buffers.mask_room)
        if count < 0:
            raise self.refused()
        found: list[int] = buffers.masks[:count]
        return found


def library_path() -> Path:
    """Where the library is looked for: ``TIENLEN_CORE_LIB`` when set, else :data:`LIBRARY_NAME` beside this module."""
    chosen = os.environ.get(LIBRARY_VARIABLE, "").strip()
    return Path(chosen) if chosen else Path(__file__).with_name(LIBRARY_NAME)


def open_library(path: Path | None = None) -> Library | None:
    """The library (at :func:`library_path` unless given) with every function declared, or None when it is absent,
    unloadable or stale."""
    path = library_path() if path is None else path
    try:
        held, released = ctypes.PyDLL(str(path)), ctypes.CDLL(str(path))
        held.tl_abi_version.restype = c_uint32
        if held.tl_abi_version() != ABI_VERSION:
            return None
        for name, (holds_gil, result, arguments) in PROTOTYPES.items():
            function = getattr(held if holds_gil else released, name)
            function.restype = result
            function.argtypes = arguments
    except (OSError, AttributeError):
        return None
    if held.tl_max_seats() != MAX_SEATS:
        return None
    return Library(held, released)


LOW = 0xFFFFFFFF  # a mask's low half in a plain call; the high half is ``mask >> 32`` (20 bits) and small numbers
RULE_SHIFT = 20  # native/src/abi.rs: where a plain call's high half holds the bombs rule's number (4 bits)
LOCKED_BIT = 1 << 24  # ... the seat's pass lock
START_SHIFT = 25  # ... the start card plus one (6 bits; 0 for none)
PLAIN_RULES = 16  # bombs rules a plain call can name


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
