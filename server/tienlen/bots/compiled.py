"""Hard's inner loops in the compiled core, when the engine uses it (the same switch, ``TIENLEN_ENGINE``).

The compiled core (native/src/medium.rs, search.rs, chains.rs, endgame.rs; its C face in bots.rs) holds
Medium's policy, Hard's playouts, the judging of sampled hands against the other seats' actions, the
deal chains and the endgame search; :class:`CompiledBots` calls them through the library the engine
loaded (:mod:`tienlen.engine.native`, ctypes), a ``ValueError`` for bad input. The Python bots are the
reference: for the same inputs the core returns the same moves, the same playout values and steps and
the same judged work (``tests/bots/test_bots_compiled.py``), so Hard's choice for a seed does not depend
on the build when its fixed counts, not the clock, end the search. Without the core (or with
``TIENLEN_ENGINE=python``) :data:`CORE` is None and the Python paths run.
"""

from __future__ import annotations

from collections.abc import Sequence
from ctypes import c_double, c_float, c_int64, c_uint32
from dataclasses import dataclass
from typing import Any

from ..engine import accel
from ..engine.compiled import Core
from ..engine.native import MAX_SEATS, Refused, not_a_hand, optional, u32_array, u64_array

# (seat, table cards or None, table owner or None, locked, cards played from then on, card counts then,
# cards played (0 = a pass), cards seen before).
ActionTuple = tuple[int, int | None, int | None, bool, int, tuple[int, ...], int, int]
# A seat's sight as the network's inputs read it in the core: seat, players, hand, each seat's cards played this hand,
# the counts, the pass locks, the table's cards and its owner (or None), the start card (or None).
NetSight = tuple[int, int, int, Sequence[int], Sequence[int], int, int | None, int | None, int | None]
ACTION_WIDTH = 8 + MAX_SEATS  # numbers an action is written as (native/src/bots.rs ACTION_WIDTH)


def action_array(actions: Sequence[ActionTuple]) -> Any:
    """The actions as the core takes them, ``ACTION_WIDTH`` numbers each (a ValueError for a malformed one)."""
    numbers: list[int] = []
    for seat, table, table_seat, locked, later, cards_left, action, seen in actions:
        if not 2 <= len(cards_left) <= MAX_SEATS:
            raise Refused(f"2 to {MAX_SEATS} seats' card counts")
        padding = (0,) * (MAX_SEATS - len(cards_left))
        numbers += (seat, optional(table), optional(table_seat), locked, later, len(cards_left), *cards_left)
        numbers += (*padding, action, seen)
    try:
        return (c_int64 * len(numbers))(*numbers)
    except (TypeError, OverflowError) as error:
        raise Refused(f"not a list of actions: {error}") from None


class Handle:
    """An object of the core behind its handle, freed when this goes."""

    __slots__ = ("_core", "_handle")
    FREE = ""  # the ABI's function that frees this kind of handle

    def __init__(self, core: Core, handle: int | None) -> None:
        self._core = core
        self._handle = handle
        if not handle:
            raise core.library.refused()

    def __del__(self) -> None:
        if self._handle:
            getattr(self._core.library, self.FREE)(self._handle)
            self._handle = None


@dataclass(slots=True)
class SearchProgress:
    """Where Hard's search stands (``hard.compare_candidates``): the deals seen, the simulated actions, the deal
    chains' work when it began and its budget of simulated actions (work included)."""

    seen: int
    steps: int
    start_work: int
    budget: int


class CompiledPlayouts(Handle):
    """Hard's playouts from one position (native/src/search.rs ``Position``)."""

    __slots__ = ()
    FREE = "tl_playouts_free"

    def values(self, hands: Sequence[int], moves: Sequence[int]) -> list[tuple[float, int]]:
        """For each move (a mask, 0 = pass) on this deal (a hand a seat): (points, simulated actions)."""
        library = self._core.library
        buffers, players, count = library.buffers, len(hands), len(moves)
        if players > MAX_SEATS:
            raise Refused(f"a deal is 2 to {MAX_SEATS} hands")
        if 2 * count > library.out_room:  # points and steps answer in the core's output buffer: a part at a time
            half = library.out_room // 2
            return self.values(hands, moves[:half]) + self.values(hands, moves[half:])
        if players + count > buffers.input_room:
            buffers.inputs_for(players + count)
        try:
            buffers.inputs[: players + count] = [*hands, *moves]
        except TypeError as error:
            raise Refused(f"not a deal and moves: {error}") from None
        if library.tl_playouts_values(self._handle, buffers.inputs, players, count):
            raise library.refused()
        steps = buffers.out[count : 2 * count].tolist()  # after the points, in the core's output buffer
        return list(zip(buffers.points[:count].tolist(), steps, strict=True))

    def use_net(self, net: CompiledNet, played_by: Sequence[int], first_bonus: float, moves: int) -> None:
        """From now on the searching seat's next ``moves`` moves in a playout are the network's pick among Hard's
        candidates, Medium's after them (each seat's cards played this hand before the position: ``played_by``)."""
        by = u64_array([*played_by, *[0] * (MAX_SEATS - len(played_by))])
        if self._core.library.tl_playouts_use_net(self._handle, net._handle, by, first_bonus, moves):
            raise self._core.library.refused()

    def search_round(
        self,
        chains: CompiledDealChains,
        moves: Sequence[int],
        totals: list[float],
        deals: int,
        progress: SearchProgress,
        seconds: float | None,
    ) -> bool:
        """One round of Hard's sequential halving in one call (``hard.compare_candidates``): up to ``deals`` deals
        of ``chains``, each move played out on each, its points added to its place in ``totals`` and the deals and
        simulated actions to ``progress`` (both changed in place); before each deal but the search's first, stop
        when the steps and the chains' work since the search began pass the budget, or ``seconds`` from now have
        passed (None: no clock). Whether the round stopped early."""
        library, count = self._core.library, len(moves)
        values = (c_double * count)(*totals)
        state = (c_int64 * 5)(progress.seen, progress.steps, progress.start_work, progress.budget, 0)
        stopped: int = library.tl_search_round(
            self._handle,
            chains.handle,
            u64_array(moves),
            count,
            values,
            min(max(deals, 0), 0xFFFFFFFF),
            -1.0 if seconds is None else max(seconds, 0.0),
            state,
        )
        if stopped < 0:
            raise library.refused()
        totals[:] = values
        progress.seen, progress.steps, chains.judged = state[0], state[1], state[4]
        return bool(stopped)


class CompiledSeatActions(Handle):
    """One seat's actions judged against sampled hands (``sampling.DealChain._misses``)."""

    __slots__ = ()
    FREE = "tl_seat_actions_free"

    def misses(self, hand: int, limit: int) -> tuple[int, bool, int]:
        """(actions Medium would not have chosen, counting stopped past ``limit``; complete; actions judged)."""
        if hand >> 52:
            raise not_a_hand(hand)
        out = (c_uint32 * 3)()
        library = self._core.library
        if library.tl_seat_actions_misses(self._handle, hand, min(max(limit, 0), 0xFFFFFFFF), out):
            raise library.refused()
        return out[0], bool(out[1]), out[2]


class CompiledDealChains(Handle):
    """Hard's deal chains (``sampling.DealChains``): independent chains whose deals are handed out in turn."""

    __slots__ = ("judged",)
    FREE = "tl_deal_chains_free"

    def __init__(self, core: Core, handle: int | None) -> None:
        super().__init__(core, handle)
        self.judged = 0  # the actions judged so far, as the core last told (chains judge only when they deal)

    @property
    def handle(self) -> int | None:
        """The chains' handle, for a call that draws their deals in the core (:meth:`CompiledPlayouts.search_round`)."""
        return self._handle

    @property
    def work(self) -> int:
        """The actions judged so far (the core tells them with each deal: no call)."""
        return self.judged

    def next_deal(self) -> list[int]:
        """The next chain's next deal (a hand a seat; the seat's own hand as it is)."""
        library = self._core.library
        count: int = library.tl_deal_chains_next(self._handle)
        if count < 0:
            raise library.refused()
        found: list[int] = library.buffers.out[: count + 1].tolist()
        self.judged = found.pop()  # the core writes the work after the deal
        return found


class CompiledNet(Handle):
    """Master's network in the core (native/src/net.rs), its forward pass the pure Python one's
    (:class:`~tienlen.bots.master_net.MasterNet`)."""

    __slots__ = ("outputs",)
    FREE = "tl_net_free"

    def __init__(self, core: Core, handle: int | None, outputs: int) -> None:
        super().__init__(core, handle)
        self.outputs = outputs

    def logits(self, shared: Sequence[int], own: Sequence[Sequence[int]], *, blocked: bool = False) -> list[float]:
        """The outputs (logits) of each action, one after another: ``shared`` the indices of the inputs that are 1
        for every action, ``own`` each action's own (a ValueError for an input the network does not have); with
        ``blocked`` the playouts' ``float32`` pass (:meth:`~tienlen.bots.master_net.MasterNet.blocked_logits`)."""
        ends: list[int] = []
        flat: list[int] = []
        for indices in own:
            flat += indices
            ends.append(len(flat))
        if any(not 0 <= i < 1 << 32 for part in (shared, flat) for i in part):
            raise Refused("input indices are numbers 0 to 2**32 - 1")
        try:
            shared_c, flat_c, ends_c = (c_uint32 * len(shared))(*shared), (c_uint32 * len(flat))(*flat), u32_array(ends)
        except TypeError as error:
            raise Refused(f"not a list of input indices: {error}") from None
        out = (c_double * (self.outputs * len(ends)))()
        library = self._core.library
        if library.tl_net_logits(self._handle, shared_c, len(shared), flat_c, ends_c, len(ends), blocked, out):
            raise library.refused()
        return list(out)


class CompiledBots:
    """What the bots use of the compiled core: Medium's policy, the playouts, the judges, the chains, the endgame,
    Master's network."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.library = core.library

    def plan_cost(self, hand: int) -> float:
        """:func:`~tienlen.bots.planner.plan_cost`, compiled."""
        if hand >> 52:
            raise not_a_hand(hand)
        out = c_double()
        if self.library.tl_plan_cost(hand, out):
            raise self.library.refused()
        return out.value

    def plan_masks(self, hand: int) -> list[int]:
        """:func:`~tienlen.bots.planner.plan_masks`, compiled."""
        if hand >> 52:
            raise not_a_hand(hand)
        plan_c = self.library.tl_plan_masks
        return self.library.masks(lambda out, room: plan_c(hand, out, room))

    def medium_lead(
        self, hand: int, cards_left: Sequence[int], seat: int, bombs: str, unseen: int, start_card: int | None
    ) -> int:
        """:func:`~tienlen.bots.policy.policy_lead`, compiled."""
        if hand >> 52 or unseen >> 52:
            raise not_a_hand(hand if hand >> 52 else unseen)
        counts, rule, start = u32_array(cards_left), self.core.rule_number(bombs), optional(start_card)
        lead: int = self.library.tl_medium_lead(hand, counts, len(cards_left), optional(seat), rule, unseen, start)
        if lead < 0:
            raise self.library.refused()
        return lead

    def medium_answer(
        self, hand: int, table: int, table_seat: int, cards_left: Sequence[int], seat: int, bombs: str, locked: bool
    ) -> int:
        """:func:`~tienlen.bots.policy.policy_answer`, compiled (the table as its cards)."""
        if hand >> 52 or table >> 52:
            raise not_a_hand(hand if hand >> 52 else table)
        counts, rule = u32_array(cards_left), self.core.rule_number(bombs)
        answer: int = self.library.tl_medium_answer(
            hand, table, optional(table_seat), counts, len(cards_left), optional(seat), rule, locked
        )
        if answer < 0:
            raise self.library.refused()
        return answer

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
        """Playouts from this position: the searching seat, the table (its cards) and its owner, the pass locks,
        the cards played, the start card, the rule set, and the first place's bonus."""
        if played >> 52:
            raise not_a_hand(played)
        rule = self.core.rule_number(bombs)
        handle = self.library.tl_playouts_new(
            optional(seat),
            optional(players),
            optional(table),
            optional(table_seat),
            locked & 0xFFFFFFFF,
            played,
            optional(start_card),
            rule,
            reentry_rule,
            end_on_first_out,
            first_bonus,
        )
        return CompiledPlayouts(self.core, handle)

    def Net(self, sizes: Sequence[int], numbers: Any) -> CompiledNet:
        """Master's network of these layer sizes and numbers (a float32 ``array``, as the weights file holds them)."""
        sizes_c = u32_array(sizes)
        numbers_c = (c_float * len(numbers)).from_buffer(numbers)
        return CompiledNet(self.core, self.library.tl_net_new(sizes_c, len(sizes), numbers_c, len(numbers)), sizes[-1])

    def net_features(
        self, sight: NetSight, legal: Sequence[int], medium: int, actions: Sequence[int]
    ) -> tuple[list[int], list[int], list[list[int]]]:
        """Master's network's inputs as the core reads them for the seat on turn: Hard's candidates, the
        situation's inputs and each action's (``master_features.read`` and ``action_inputs``, compiled)."""
        seat, players, hand, played_by, cards_left, locked, table, table_seat, start_card = sight
        room = 64 + 128 + len(actions) * 64
        out = (c_uint32 * room)()
        count = self.library.tl_net_features(
            optional(seat),
            optional(players),
            hand,
            u64_array([*played_by, *[0] * (MAX_SEATS - len(played_by))]),
            u32_array(cards_left),
            locked & 0xFFFFFFFF,
            optional(table),
            optional(table_seat),
            optional(start_card),
            u64_array(legal),
            len(legal),
            medium,
            u64_array(actions),
            len(actions),
            out,
            room,
        )
        if count < 0:
            raise self.library.refused()
        numbers, at = list(out[:count]), 0
        candidates = [numbers[1 + 2 * k] | numbers[2 + 2 * k] << 32 for k in range(numbers[0])]
        at = 1 + 2 * numbers[0]
        situation = numbers[at + 1 : at + 1 + numbers[at]]
        at += 1 + numbers[at]
        own = []
        while at < count:
            own.append(numbers[at + 1 : at + 1 + numbers[at]])
            at += 1 + numbers[at]
        return candidates, situation, own

    def SeatActions(self, actions: Sequence[ActionTuple], bombs: str) -> CompiledSeatActions:
        """One seat's actions, in the order they are judged first, to judge sampled hands by."""
        array, rule = action_array(actions), self.core.rule_number(bombs)
        return CompiledSeatActions(self.core, self.library.tl_seat_actions_new(array, len(actions), rule))

    def DealChains(
        self,
        seat: int,
        hand: int,
        cards_left: Sequence[int],
        unseen: int,
        actions: Sequence[ActionTuple],
        bombs: str,
        seeds: Sequence[int],
        threshold: int,
        burn_in: int,
        thinning: int,
    ) -> CompiledDealChains:
        """Chains over the unseen cards of ``seat`` (holding ``hand``), judged by the other seats' ``actions``, one
        chain per seed; ``threshold`` is the likelihood of a miss as a fraction of 2**32, ``burn_in`` the steps
        before a chain's first deal and ``thinning`` the steps between two deals."""
        if hand >> 52 or unseen >> 52:
            raise not_a_hand(hand if hand >> 52 else unseen)
        if not 0 <= threshold < 1 << 32 or not 0 <= burn_in < 1 << 32 or not 0 <= thinning < 1 << 32:
            raise Refused("the threshold is a fraction of 2**32, burn-in and thinning are counts of steps")
        counts, array, rule = u32_array(cards_left), action_array(actions), self.core.rule_number(bombs)
        handle = self.library.tl_deal_chains_new(
            optional(seat),
            hand,
            counts,
            len(cards_left),
            unseen,
            array,
            len(actions),
            rule,
            u64_array(seeds),
            len(seeds),
            threshold,
            burn_in,
            thinning,
        )
        return CompiledDealChains(self.core, handle)

    def forced_moves(
        self,
        hands: Sequence[int],
        turn: int,
        table: int | None,
        table_seat: int | None,
        locked: int,
        bombs: str,
        reentry_rule: bool,
        node_limit: int,
        seconds: float | None,
    ) -> tuple[list[tuple[int, bool | None]], int]:
        """:func:`~tienlen.bots.endgame.forced_moves`, compiled (the table as its cards, a budget in seconds): each
        move of the seat on turn and whether it forces a first place (None: unknown), and the positions searched."""
        dealt, rule = u64_array(hands), self.core.rule_number(bombs)
        limit, nodes = min(max(node_limit, 0), 0xFFFFFFFF), c_uint32()
        timed = seconds is not None
        forced_c, library = self.library.tl_forced_moves, self.library

        def search(out: Any, room: int) -> int:
            found: int = forced_c(
                dealt, len(hands), optional(turn), optional(table), optional(table_seat), locked & 0xFFFFFFFF,
                rule, reentry_rule, limit, timed, 0.0 if seconds is None else seconds, out, room // 2, nodes,
            )  # fmt: skip
            return found if found < 0 else 2 * found

        numbers = library.masks(search)
        moves = [(numbers[i], None if numbers[i + 1] == 2 else bool(numbers[i + 1])) for i in range(0, len(numbers), 2)]
        return moves, nodes.value


def bots_of(core: object | None) -> CompiledBots | None:
    """The core's bot loops, or None without a core (or with one that is not the compiled library)."""
    return CompiledBots(core) if isinstance(core, Core) else None


CORE = bots_of(accel.CORE)
