"""The compiled core of the Tiến Lên rules engine (native/src/lib.rs; docs/engine.md "The compiled core").

Hands are 52-bit masks (card number = rank * 4 + suit, 3S = 0 … 2H = 51). Kinds are numbered in the
order of ``tienlen.engine.Kind``: single, pair, triple, four_of_a_kind, straight, consecutive_pairs.
``bombs`` is a ``Bombs`` value (``"exact"``, ``"classic"``, ``"ladder"``, ``"off"``); a table is any
object with the ``mask`` of its cards (a ``tienlen.engine.Combination``). ``tienlen.engine.accel``
installs the bomb table at import; bad input raises ``ValueError``.
"""

from collections.abc import Sequence
from typing import Protocol

class _Table(Protocol):
    @property
    def mask(self) -> int: ...

Event = tuple[str, int] | tuple[str, int, int] | tuple[str, int, int, int, bool]

def install_bomb_table(table: list[tuple[str, list[tuple[int, int, int, int, bool]]]]) -> None: ...
def classify(mask: int) -> tuple[int, int, int] | None: ...
def lead_masks(hand: int) -> list[int]: ...
def answer_masks(hand: int, table: _Table, bombs: str) -> list[int]: ...
def bomb_answers(hand: int, table: _Table, bombs: str) -> list[int]: ...
def legal_masks(hand: int, table: _Table | None, bombs: str, locked: bool, start_card: int | None) -> list[int]: ...
def random_hands(
    players: int, bombs: str, reentry_rule: bool, start_card_rule: bool, end_on_first_out: bool, seed: int, count: int
) -> tuple[int, int]: ...

class Hand:
    def __init__(
        self,
        hands: Sequence[int],
        turn: int,
        bombs: str,
        reentry_rule: bool,
        end_on_first_out: bool,
        start_card: int | None,
    ) -> None: ...
    @property
    def turn(self) -> int | None: ...
    @property
    def hands(self) -> list[int]: ...
    @property
    def table(self) -> int | None: ...
    @property
    def table_seat(self) -> int | None: ...
    @property
    def locked(self) -> int: ...
    @property
    def places(self) -> list[int]: ...
    @property
    def done(self) -> bool: ...
    def legal(self) -> list[int]: ...
    def play(self, mask: int) -> list[Event]: ...
    def pass_turn(self) -> list[Event]: ...

# Hard's inner loops (native/src/medium.rs, search.rs, chains.rs, endgame.rs; tienlen.bots.compiled). The table
# is given as its cards; an action is (seat, table cards or None, table owner or None, locked, cards played
# from then on, every seat's card count then, cards played (0 = a pass), cards seen before it).
Action = tuple[int, int | None, int | None, bool, int, Sequence[int], int, int]

def plan_cost(hand: int) -> float: ...
def plan_masks(hand: int) -> list[int]: ...
def medium_lead(
    hand: int, cards_left: Sequence[int], seat: int, bombs: str, unseen: int, start_card: int | None
) -> int: ...
def medium_answer(
    hand: int, table: int, table_seat: int, cards_left: Sequence[int], seat: int, bombs: str, locked: bool
) -> int: ...
def forced_moves(
    hands: Sequence[int],
    turn: int,
    table: int | None,
    table_seat: int | None,
    locked: int,
    bombs: str,
    reentry_rule: bool,
    node_limit: int,
    seconds: float | None,
) -> tuple[list[tuple[int, bool | None]], int]: ...

class Playouts:
    def __init__(
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
    ) -> None: ...
    def values(self, hands: Sequence[int], moves: Sequence[int]) -> list[tuple[float, int]]: ...

class SeatActions:
    def __init__(self, actions: Sequence[Action], bombs: str) -> None: ...
    def misses(self, hand: int, limit: int) -> tuple[int, bool, int]: ...

class DealChains:
    def __init__(
        self,
        seat: int,
        hand: int,
        cards_left: Sequence[int],
        unseen: int,
        actions: Sequence[Action],
        bombs: str,
        seeds: Sequence[int],
        threshold: int,
        burn_in: int,
        thinning: int,
    ) -> None: ...
    @property
    def work(self) -> int: ...
    def next_deal(self) -> list[int]: ...
