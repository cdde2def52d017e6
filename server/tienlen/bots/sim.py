"""A fast simulator of the rest of one hand, for Hard's playouts.

It follows the engine's flow (docs/rules.md §5: battles, pass locks, bomb re-entry,
going out, end on first out) on plain bit masks; tests check it against the
engine move by move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine.cards import FULL_DECK
from ..engine.combos import Combination
from ..engine.legal import answer_masks, bomb_answers
from ..engine.rules import Bombs
from ..engine.turns import next_to_act, places_after_going_out
from .policy import classify_cached, policy_answer, policy_lead


@dataclass(slots=True)
class SimHand:
    """The state of one hand: every seat's cards, the table, locks and places."""

    hands: list[int] = field(repr=False)  # never in a repr: a repr may end up in a log
    turn: int
    table: Combination | None
    table_seat: int | None
    locked: int
    bombs: Bombs
    reentry_rule: bool
    end_on_first_out: bool
    played: int = 0
    start_card: int | None = None
    places: list[int] = field(default_factory=list)
    done: bool = False
    steps: int = 0

    @property
    def players(self) -> int:
        """How many seats play."""
        return len(self.hands)

    def answers(self) -> list[int]:
        """Legal answers for the seat on turn (empty on a lead)."""
        if self.table is None:
            return []
        hand = self.hands[self.turn]
        if self.locked >> self.turn & 1:
            return bomb_answers(hand, self.table, self.bombs)
        return answer_masks(hand, self.table, self.bombs)

    def play(self, mask: int) -> None:
        """The seat on turn plays these cards (assumed legal)."""
        seat = self.turn
        combo = classify_cached(mask)
        assert combo is not None
        self.hands[seat] ^= mask
        self.locked &= ~(1 << seat)
        self.table = combo
        self.table_seat = seat
        self.start_card = None
        self.played |= mask
        if self.hands[seat] == 0:
            self.places.append(seat)
            rest = places_after_going_out(self.hands, seat, self.end_on_first_out)
            if rest is not None:
                self.places.extend(rest)
                self.done = True
                return
        self._advance(seat)

    def pass_turn(self) -> None:
        """The seat on turn passes and is locked out of the battle."""
        seat = self.turn
        self.locked |= 1 << seat
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        hands = self.hands
        nxt = seat + 1 if seat + 1 < len(hands) else 0
        if nxt != self.table_seat and hands[nxt] and not self.locked >> nxt & 1:
            self.turn = nxt  # next_to_act's usual case, decided at once: the next seat holds cards and may answer
            return
        self.turn, won = next_to_act(
            seat, hands, self.locked, self.table, self.table_seat, self.bombs, self.reentry_rule
        )
        if won:
            self.table = None
            self.table_seat = None
            self.locked = 0

    def policy_move(self) -> int:
        """Medium's move for the seat on turn as a mask (0 = pass), memoized by :mod:`.policy`."""
        seat = self.turn
        hand = self.hands[seat]
        cards_left = [h.bit_count() for h in self.hands]
        table = self.table
        if table is None:
            unseen = FULL_DECK & ~hand & ~self.played
            return policy_lead(hand, cards_left, seat, self.bombs, unseen, self.start_card)
        assert self.table_seat is not None
        locked = bool(self.locked >> seat & 1)
        return policy_answer(hand, table, self.table_seat, cards_left, seat, self.bombs, locked)

    def step(self, mask: int) -> None:
        """Apply a play (mask) or a pass (0)."""
        self.steps += 1
        if mask:
            self.play(mask)
        else:
            self.pass_turn()

    def run_until_first_out(self, max_steps: int = 400) -> None:
        """Play on with Medium for everyone until some seat has gone out (or the hand ended).

        The same as calling :meth:`step` with :meth:`policy_move` each time,
        with the lookups of that loop hoisted out of it (the playouts' hot loop).
        """
        hands = self.hands
        bombs = self.bombs
        cards_left = [h.bit_count() for h in hands]
        for _ in range(max_steps):
            if self.places or self.done:
                return
            seat = self.turn
            hand = hands[seat]
            table = self.table
            if table is None:
                move = policy_lead(hand, cards_left, seat, bombs, FULL_DECK & ~hand & ~self.played, self.start_card)
            else:
                assert self.table_seat is not None
                locked = bool(self.locked >> seat & 1)
                move = policy_answer(hand, table, self.table_seat, cards_left, seat, bombs, locked)
            self.steps += 1
            if move:
                cards_left[seat] -= move.bit_count()
                self.play(move)
            else:
                self.pass_turn()
