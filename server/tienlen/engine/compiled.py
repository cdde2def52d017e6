"""The engine's functions in the compiled core (:class:`.accel.CompiledCore`), over its library (:mod:`.native`).

The same plays in the same order as the Python engine; bad input is a ``ValueError`` with the core's
message. The hot listings (legal plays, leads, answers, bombs) are closures over plain calls (a few 32-bit numbers,
undeclared: ctypes' cheapest call) that read the core's thread output buffer: a call allocates nothing but the list
it answers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from ctypes import c_uint32, c_uint64
from functools import partial
from typing import TYPE_CHECKING, Any

from .native import (
    EVENT_ROOM,
    EVENT_WIDTH,
    FIRSTS,
    LOCKED_BIT,
    LOW,
    MAX_SEATS,
    NONE,
    PLAIN_RULES,
    RULE_SHIFT,
    START_SHIFT,
    Library,
    Refused,
    not_a_hand,
    optional,
    u64_array,
)

if TYPE_CHECKING:
    from .accel import BombRows, CompiledEvent
    from .combos import Combination

EVENT_NAMES = ("played", "passed", "table_cleared", "went_out")  # by the tag the core writes (lib.rs event_numbers)


def start_card_flags(start_card: int) -> int:
    """The start card where ``tl_legal``'s high half holds it (a ValueError unless it is a card number)."""
    if not 0 <= start_card < 52:
        raise Refused("the start card is a card number 0..51")
    return (start_card + 1) << START_SHIFT


class Core:
    """The compiled core: its functions are plain closures (cheap to call, the same object at every look-up)."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self.rule_numbers: dict[str, int] = {}  # each bombs value's place in the installed bomb table
        # The same places, where a plain call's high half holds them, by the identity of the values installed (kept in
        # `_installed`, so an id is theirs alone): hashing a bombs value (a StrEnum, hashed in Python) costs more than
        # a whole plain call.
        self.rule_ids: dict[int, int] = {}
        self._installed: list[str] = []
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
        if len(table) > PLAIN_RULES:
            raise Refused(f"at most {PLAIN_RULES} bombs values")
        if self.library.tl_install_bomb_table(names, len(names), flat, len(rows)) < 0:
            raise self.library.refused()
        self.rule_numbers.update({name: place for place, (name, _) in enumerate(table)})
        self._installed += [name for name, _ in table]
        self.rule_ids.update({id(name): place << RULE_SHIFT for place, (name, _) in enumerate(table)})

    def _bind(self) -> None:
        """The engine's functions as closures over the library's plain calls (the hot paths: no attribute look-ups,
        no declared argument types; a mask goes as two 32-bit halves, the high one carrying the rule's number; no
        inner function, which would make their arguments cells allocated at every call)."""
        library, rule_ids, rule_number = self.library, self.rule_ids, self.rule_number
        buffers, room = library.buffers, library.out_room
        classify_c, lead_c, answers_c, bombs_c, legal_c = (
            library.tl_classify,
            library.tl_lead,
            library.tl_answers,
            library.tl_bombs,
            library.tl_legal,
        )

        def listed(count: int, again: Callable[..., int], *arguments: Any) -> list[int]:
            """The masks a plain listing left in this thread's output buffer (``again(*arguments, buffer, room)``
            lists them into a buffer of ours when they did not fit)."""
            if 0 <= count < FIRSTS:
                found: list[int] = buffers.firsts[count].tolist()
                return found
            if 0 <= count <= room:
                found = buffers.out[:count].tolist()
                return found
            return library.masks(partial(again, *arguments))

        def high_rule(bombs: str) -> int:
            """The bombs rule's number where a plain call's high half holds it."""
            high = rule_ids.get(id(bombs))
            return rule_number(bombs) << RULE_SHIFT if high is None else high

        def classify(mask: int) -> tuple[int, int, int] | None:
            """(kind number, length, top) of the combination the cards form, or None."""
            if mask >> 52:
                return None
            packed: int = classify_c(mask & LOW, mask >> 32)
            return None if packed < 0 else (packed >> 16, packed >> 8 & 255, packed & 255)

        def lead_masks(hand: int) -> list[int]:
            """:func:`~tienlen.engine.legal.lead_masks`, compiled."""
            if hand >> 52:
                raise not_a_hand(hand)
            return listed(lead_c(hand & LOW, hand >> 32), library.tl_lead_masks, hand)

        def answer_masks(hand: int, table: Combination, bombs: str) -> list[int]:
            """:func:`~tienlen.engine.legal.answer_masks`, compiled."""
            high, mask = high_rule(bombs), table.mask
            if (hand | mask) >> 52:
                raise not_a_hand(hand if hand >> 52 else mask)
            count = answers_c(hand & LOW, hand >> 32 | high, mask & LOW, mask >> 32)
            return listed(count, library.tl_answer_masks, hand, mask, high >> RULE_SHIFT)

        def bomb_answers(hand: int, table: Combination, bombs: str) -> list[int]:
            """:func:`~tienlen.engine.legal.bomb_answers`, compiled."""
            high, mask = high_rule(bombs), table.mask
            if (hand | mask) >> 52:
                raise not_a_hand(hand if hand >> 52 else mask)
            count = bombs_c(hand & LOW, hand >> 32 | high, mask & LOW, mask >> 32)
            return listed(count, library.tl_bomb_answers, hand, mask, high >> RULE_SHIFT)

        # The last call's bombs value with its number in a high half (usually the same every call), one tuple read and
        # replaced whole, so that threads calling at once never pair a value with another's number.
        last: list[tuple[object, int]] = [(None, 0)]

        def legal_masks(
            hand: int, table: Combination | None, bombs: str, locked: bool, start_card: int | None
        ) -> list[int]:
            """:func:`~tienlen.engine.legal.legal_masks_of`, compiled."""
            known, high = last[0]
            if bombs is not known:
                high = high_rule(bombs)
                last[0] = bombs, high
            if locked:
                high |= LOCKED_BIT
            if start_card is not None:
                high |= start_card_flags(start_card)
            if table is None:
                if hand >> 52:
                    raise not_a_hand(hand)
                count: int = legal_c(hand & LOW, hand >> 32 | high, 0, 0)
            else:
                mask = table.mask
                if (hand | mask) >> 52:
                    raise not_a_hand(hand if hand >> 52 else mask)
                count = legal_c(hand & LOW, hand >> 32 | high, mask & LOW, mask >> 32)
            if count >= 0:
                try:
                    found: list[int] = buffers.firsts[count].tolist()
                    return found
                except IndexError:  # more than the views cover
                    pass
            table_mask = NONE if table is None else table.mask
            rule, start = high >> RULE_SHIFT & 15, optional(start_card)
            return listed(count, library.tl_legal_masks, hand, table_mask, rule, locked, start)

        self.classify = classify
        self.lead_masks = lead_masks
        self.answer_masks = answer_masks
        self.bomb_answers = bomb_answers
        self.legal_masks = legal_masks

    def random_hands(
        self,
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
        rule = self.rule_number(bombs)
        if self.library.tl_random_hands(
            players, rule, reentry_rule, start_card_rule, end_on_first_out, seed, count, out
        ):
            raise self.library.refused()
        return out[0], out[1]

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
            raise library.refused()
        self._handle = handle

    def __del__(self) -> None:
        if self._handle:
            self._library.tl_hand_free(self._handle)
            self._handle = None

    def _state(self) -> tuple[int, list[int]]:
        """(the number of seats, the hand's state as ``tl_hand_state`` writes it)."""
        state = self._library.buffers.state
        players: int = self._library.tl_hand_state(self._handle, state)
        if players < 0:
            raise self._library.refused()
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
        return self._library.masks(lambda out, room: legal_c(handle, out, room))

    def play(self, mask: int) -> list[CompiledEvent]:
        """The seat on turn plays these cards; the events (a ValueError for an illegal play)."""
        if mask >> 52:
            raise Refused(f"{mask:#x} is not a legal play here")
        events = self._library.buffers.events
        return self._events(self._library.tl_hand_play(self._handle, mask, events, EVENT_ROOM), events)

    def pass_turn(self) -> list[CompiledEvent]:
        """The seat on turn passes; the events (a ValueError on a lead)."""
        events = self._library.buffers.events
        return self._events(self._library.tl_hand_pass(self._handle, events, EVENT_ROOM), events)

    def _events(self, count: int, buffer: Any) -> list[CompiledEvent]:
        """The events an action wrote: ("played", seat, mask, kind number, bomb), ("passed", seat),
        ("table_cleared", leader) or ("went_out", seat, place)."""
        if count < 0:
            raise self._library.refused()
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
