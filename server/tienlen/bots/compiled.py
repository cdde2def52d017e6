"""Hard's inner loops in the compiled core, when the engine uses it (the same switch, ``TIENLEN_ENGINE``).

The compiled core (native/src/medium.rs, search.rs) holds Medium's policy, Hard's playouts and the
judging of sampled hands against the other seats' actions. The Python bots are the reference: for
the same inputs the core returns the same moves, the same playout values and steps and the same
judged work (``tests/bots/test_bots_compiled.py``), so Hard's choice for a seed does not depend on
the build when its fixed counts, not the clock, end the search. Without the core (or with
``TIENLEN_ENGINE=python``) :data:`CORE` is None and the Python paths run.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, cast

from ..engine import accel

# (seat, table cards or None, table owner or None, locked, cards played from then on, card counts then,
# cards played (0 = a pass), cards seen before).
ActionTuple = tuple[int, int | None, int | None, bool, int, tuple[int, ...], int, int]


class CompiledPlayouts(Protocol):
    """Hard's playouts from one position (``tienlen_native.Playouts``)."""

    def values(self, hands: list[int], moves: list[int]) -> list[tuple[float, int]]:
        """For each move (0 = pass) on this deal: (points, simulated actions)."""


class CompiledSeatActions(Protocol):
    """One seat's actions judged against sampled hands (``tienlen_native.SeatActions``)."""

    def misses(self, hand: int, limit: int) -> tuple[int, bool, int]:
        """(actions Medium would not have chosen, counting stopped past ``limit``; complete; actions judged)."""


class CompiledDealChains(Protocol):
    """Hard's deal chains (``tienlen_native.DealChains``)."""

    @property
    def work(self) -> int:
        """The actions judged so far."""

    def next_deal(self) -> list[int]:
        """The next chain's next deal."""


class CompiledBots(Protocol):
    """What the bots use of ``tienlen_native`` (typed for users in native/tienlen_native.pyi)."""

    def plan_cost(self, hand: int) -> float:
        """:func:`~tienlen.bots.planner.plan_cost`, compiled."""

    def plan_masks(self, hand: int) -> list[int]:
        """:func:`~tienlen.bots.planner.plan_masks`, compiled."""

    def medium_lead(
        self, hand: int, cards_left: Sequence[int], seat: int, bombs: str, unseen: int, start_card: int | None
    ) -> int:
        """:func:`~tienlen.bots.policy.policy_lead`, compiled."""

    def medium_answer(
        self, hand: int, table: int, table_seat: int, cards_left: Sequence[int], seat: int, bombs: str, locked: bool
    ) -> int:
        """:func:`~tienlen.bots.policy.policy_answer`, compiled (the table as its cards)."""

    def Playouts(
        self,
        seat: int,
        players: int,
        table: int | None,
        table_seat: int | None,
        locked: int,
        played: int,
        start_card: int | None,
        bombs: str,
        reentry_rule: bool,
        end_on_first_out: bool,
        first_bonus: float,
    ) -> CompiledPlayouts:
        """Playouts from this position."""

    def SeatActions(self, actions: list[ActionTuple], bombs: str) -> CompiledSeatActions:
        """One seat's actions, to judge sampled hands by."""

    def forced_moves(
        self,
        hands: list[int],
        turn: int,
        table: int | None,
        table_seat: int | None,
        locked: int,
        bombs: str,
        reentry_rule: bool,
        node_limit: int,
        seconds: float | None,
    ) -> tuple[list[tuple[int, bool | None]], int]:
        """:func:`~tienlen.bots.endgame.forced_moves`, compiled (the table as its cards, a budget in seconds)."""

    def DealChains(
        self,
        seat: int,
        hand: int,
        cards_left: list[int],
        unseen: int,
        actions: list[ActionTuple],
        bombs: str,
        seeds: list[int],
        threshold: int,
        burn_in: int,
        thinning: int,
    ) -> CompiledDealChains:
        """Chains over the seat's unseen cards, one a seed."""


BOTS_API = (
    "plan_cost",
    "plan_masks",
    "medium_lead",
    "medium_answer",
    "Playouts",
    "SeatActions",
    "DealChains",
    "forced_moves",
)


def bots_of(core: object | None) -> CompiledBots | None:
    """The core's bot loops, or None without a core (or with one built before they existed)."""
    if core is None or not all(hasattr(core, name) for name in BOTS_API):
        return None
    return cast(CompiledBots, core)


CORE = bots_of(accel.CORE)
