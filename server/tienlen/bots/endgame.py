"""Exact endgame search for Hard: can the seat force going out first?

On one deal with every hand known (a sampled deal, or the real one once the
hidden cards are determined) the search answers, for each of the seat's moves,
whether it forces the seat to be the first out whatever the other seats do
(they are assumed to play against it together: a "paranoid" AND-OR search).
It follows the engine's flow of a hand (docs/rules.md §5: battles, pass locks,
bomb re-entry) through the same helpers as the simulator, memoizes positions
and gives up (``None``) past a node budget or a deadline, so it is used only
when few cards remain. With the compiled core (:data:`.compiled.CORE`) the
search runs there: the same moves in the same order, the same answers and nodes.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ..engine.combos import Combination
from ..engine.legal import lead_masks
from ..engine.rules import Bombs
from ..engine.turns import next_to_act
from . import compiled
from .policy import classify_cached, legal_answers

DEADLINE_CHECK = 255  # the clock is read once every 256 nodes

State = tuple[tuple[int, ...], int, Combination | None, int | None, int]


class OutOfBudget(Exception):
    """The search used up its nodes or its time."""


class ForcedWinSearch:
    """A paranoid search of one perfect-information deal for seat ``me`` going out first."""

    def __init__(
        self, me: int, bombs: Bombs, reentry_rule: bool, node_limit: int, deadline: float | None = None
    ) -> None:
        """Search for ``me`` under these rules, within ``node_limit`` positions and the ``deadline`` (perf_counter)."""
        self.me = me
        self.bombs = bombs
        self.reentry_rule = reentry_rule
        self.node_limit = node_limit
        self.deadline = deadline
        self.nodes = 0
        self.memo: dict[tuple[tuple[int, ...], int, int, int, int], bool] = {}

    def moves(self, state: State) -> list[int]:
        """The legal moves of the seat on turn (0 = pass), most cards first, a pass last."""
        hands, turn, table, _table_seat, locked = state
        hand = hands[turn]
        if table is None:
            return sorted(lead_masks(hand), key=lambda m: (-m.bit_count(), -m))
        answers = sorted(legal_answers(hand, table, self.bombs, bool(locked >> turn & 1)), key=lambda m: -m)
        return [*answers, 0]

    def after(self, state: State, move: int) -> State:
        """The position after the seat on turn makes ``move`` (the seat must not go out with it)."""
        hands, turn, table, table_seat, locked = state
        if move:
            hands = (*hands[:turn], hands[turn] ^ move, *hands[turn + 1 :])
            table = classify_cached(move)
            table_seat = turn
            locked &= ~(1 << turn)
        else:
            locked |= 1 << turn
        nxt, won = next_to_act(turn, hands, locked, table, table_seat, self.bombs, self.reentry_rule)
        if won:
            return hands, nxt, None, None, 0
        return hands, nxt, table, table_seat, locked

    def wins(self, state: State) -> bool:
        """Whether ``me`` goes out first from this position against every defence."""
        hands, turn, table, table_seat, locked = state
        key = (hands, turn, 0 if table is None else table.mask, -1 if table_seat is None else table_seat, locked)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise OutOfBudget
        if self.deadline is not None and not self.nodes & DEADLINE_CHECK and time.perf_counter() > self.deadline:
            raise OutOfBudget
        hand = hands[turn]
        moves = self.moves(state)
        mine = turn == self.me
        if hand in moves:
            result = mine  # the seat on turn goes out at once
        elif mine:
            result = any(self.wins(self.after(state, m)) for m in moves)
        else:
            result = all(self.wins(self.after(state, m)) for m in moves)
        self.memo[key] = result
        return result

    def root(self, state: State) -> dict[int, bool | None]:
        """For each move of ``me`` (on turn): True if it forces a first place, False if not, None if unknown."""
        out: dict[int, bool | None] = {}
        hand = state[0][state[1]]
        exhausted = False
        for move in self.moves(state):
            if move == hand:
                out[move] = True
            elif exhausted:
                out[move] = None
            else:
                try:
                    out[move] = self.wins(self.after(state, move))
                except OutOfBudget:
                    out[move] = None
                    exhausted = True
        return out


def forced_moves(
    hands: Sequence[int],
    turn: int,
    table: Combination | None,
    table_seat: int | None,
    locked: int,
    bombs: Bombs,
    reentry_rule: bool,
    *,
    node_limit: int = 4000,
    deadline: float | None = None,
) -> tuple[dict[int, bool | None], int]:
    """The seat on turn's moves and whether each forces it out first on this deal; also the nodes searched."""
    core = compiled.CORE
    if core is not None:
        seconds = None if deadline is None else max(0.0, deadline - time.perf_counter())
        table_mask = None if table is None else table.mask
        found, nodes = core.forced_moves(
            list(hands), turn, table_mask, table_seat, locked, bombs.value, reentry_rule, node_limit, seconds
        )
        return dict(found), nodes
    search = ForcedWinSearch(turn, bombs, reentry_rule, node_limit, deadline)
    result = search.root((tuple(hands), turn, table, table_seat, locked))
    return result, search.nodes
