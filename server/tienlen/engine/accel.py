"""The compiled core, when present, and the one switch that chooses the engine's hot paths.

``TIENLEN_ENGINE`` (read once, at import):

- unset or empty: the compiled core (native/, a C library built by ``make native``, loaded by
  :mod:`.native`, its functions in :mod:`.compiled`) when it is built, else the pure Python engine;
- ``python``: the pure Python engine;
- ``compiled``: the compiled core, and a :class:`CompiledCoreError` at import without it.

The Python engine is the reference: the compiled core computes the same plays in the same order
(:mod:`.crosscheck` plays both side by side). :mod:`.legal` and :mod:`.combos` put
its functions behind their own names, so the match, the bots' playouts and the environment use it
without knowing. This module imports nothing of the engine's but the rules and kinds (the bomb table
it installs), so :mod:`.combos` and :mod:`.legal` may import it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from . import native
from .compiled import Core
from .kinds import Kind
from .rules import BOMB_TABLE

if TYPE_CHECKING:
    from .combos import Combination

ENGINE_VARIABLE = "TIENLEN_ENGINE"
ENGINES = ("python", "compiled")
BUILD_HINT = f"run `make native` (needs cargo), or set {native.LIBRARY_VARIABLE} to the library"
KIND_NUMBERS = {kind: number for number, kind in enumerate(Kind)}  # the core numbers kinds in the enum's order
KINDS = tuple(Kind)

# (bombs value, its rows: (shape kind, shape length, target kind, target length, target must be 2s)).
BombRows = list[tuple[str, list[tuple[int, int, int, int, bool]]]]
# An event of a compiled hand: ("played", seat, mask, kind number, bomb), ("passed", seat),
# ("table_cleared", leader) or ("went_out", seat, place).
CompiledEvent = tuple[str, int] | tuple[str, int, int] | tuple[str, int, int, int, bool]


class CompiledCoreError(ImportError):
    """``TIENLEN_ENGINE`` asks for an engine this machine does not have (or names none)."""

    setting = ENGINE_VARIABLE  # the variable refused: the ``tienlen`` command says it in one line and exits 2


class CompiledHand(Protocol):
    """One hand in play inside the compiled core (:class:`.compiled.Hand`)."""

    @property
    def turn(self) -> int | None:
        """The seat on turn (None once the hand is over)."""

    @property
    def hands(self) -> list[int]:
        """Every seat's cards."""

    @property
    def table(self) -> int | None:
        """The cards to beat (None on a lead)."""

    @property
    def table_seat(self) -> int | None:
        """The seat whose play is on the table."""

    @property
    def locked(self) -> int:
        """A bit per pass-locked seat."""

    @property
    def places(self) -> list[int]:
        """Seats placed so far, first place first."""

    @property
    def done(self) -> bool:
        """Whether the hand is over."""

    def legal(self) -> list[int]:
        """The legal plays of the seat on turn."""

    def play(self, mask: int) -> list[CompiledEvent]:
        """The seat on turn plays these cards; the events (a ValueError for an illegal play)."""

    def pass_turn(self) -> list[CompiledEvent]:
        """The seat on turn passes; the events (a ValueError on a lead)."""


class CompiledCore(Protocol):
    """What the engine uses of the compiled core (:class:`.compiled.Core`; native/src/lib.rs)."""

    def install_bomb_table(self, table: BombRows) -> None:
        """Install the bomb table (once per process; again only with the same rows)."""

    def classify(self, mask: int) -> tuple[int, int, int] | None:
        """(kind number, length, top) of the combination the cards form, or None."""

    def lead_masks(self, hand: int) -> list[int]:
        """:func:`~tienlen.engine.legal.lead_masks`, compiled."""

    def answer_masks(self, hand: int, table: Combination, bombs: str) -> list[int]:
        """:func:`~tienlen.engine.legal.answer_masks`, compiled."""

    def bomb_answers(self, hand: int, table: Combination, bombs: str) -> list[int]:
        """:func:`~tienlen.engine.legal.bomb_answers`, compiled."""

    def legal_masks(
        self, hand: int, table: Combination | None, bombs: str, locked: bool, start_card: int | None
    ) -> list[int]:
        """:func:`~tienlen.engine.legal.legal_masks_of`, compiled."""

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

    def Hand(
        self,
        hands: Sequence[int],
        turn: int,
        bombs: str,
        reentry_rule: bool,
        end_on_first_out: bool,
        start_card: int | None,
    ) -> CompiledHand:
        """One hand in play: these cards a seat, ``turn`` leads, an empty table."""


def bomb_rows() -> BombRows:
    """The bomb table of :mod:`.rules` as the core takes it (kinds as numbers)."""
    return [
        (
            bombs,  # the member itself: the core knows it by identity on its hot paths (Core.rule_ids)
            sorted(
                (KIND_NUMBERS[shape.kind], shape.length, KIND_NUMBERS[target.kind], target.length, target.twos)
                for shape, targets in rows.items()
                for target in targets
            ),
        )
        for bombs, rows in BOMB_TABLE.items()
    ]


def load_core() -> CompiledCore | None:
    """The compiled core with the bomb table installed, or None when it is not built (whatever the switch says)."""
    library = native.open_library()
    if library is None:
        return None
    core = Core(library)
    core.install_bomb_table(bomb_rows())
    return core


def chosen_engine(value: str | None) -> str | None:
    """The engine ``TIENLEN_ENGINE`` asks for (None: the compiled core when present); raise for other values."""
    value = (value or "").strip().lower()
    if not value:
        return None
    if value not in ENGINES:
        raise CompiledCoreError(f"{ENGINE_VARIABLE}={value!r}: expected one of {', '.join(ENGINES)} (or unset)")
    return value


def select(value: str | None) -> CompiledCore | None:
    """The core the engine should use under this value of ``TIENLEN_ENGINE`` (None: the pure Python engine)."""
    engine = chosen_engine(value)
    if engine == "python":
        return None
    core = load_core()
    if core is None and engine == "compiled":
        raise CompiledCoreError(f"{ENGINE_VARIABLE}=compiled but the compiled core is not built: {BUILD_HINT}")
    return core


CORE = select(os.environ.get(ENGINE_VARIABLE))
ENGINE = "python" if CORE is None else "compiled"  # the engine in use, for reports (benchmarks, logs)
