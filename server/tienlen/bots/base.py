"""Shared bot types: the chosen action, a hint, and a seat's situation read from its view.

A :class:`Situation` is built only from a :class:`~tienlen.engine.SeatView`: the
seat's own cards and the public state. Nothing in it comes from another hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..engine.cards import FULL_DECK, format_mask, parse_index
from ..engine.combos import Combination, classify
from ..engine.rules import RuleSet
from ..engine.views import SeatView

PLAY = "play"
PASS = "pass"


@dataclass(frozen=True, slots=True)
class Action:
    """What a bot or a hint chooses: ``play`` a card mask or ``pass``."""

    type: str
    mask: int = 0

    @property
    def cards(self) -> list[str]:
        """Canonical card texts of the play, low to high (empty for a pass)."""
        return format_mask(self.mask)

    @property
    def is_pass(self) -> bool:
        """Whether the action is a pass."""
        return self.type == PASS


PASS_ACTION = Action(PASS)


def play_action(mask: int) -> Action:
    """A play of these cards."""
    return Action(PLAY, mask)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and a short plain-words reason naming the cards."""

    action: Action
    explanation: str


def cards_mask(cards: tuple[str, ...] | list[str]) -> int:
    """The mask of canonical card texts."""
    mask = 0
    for text in cards:
        mask |= 1 << parse_index(text)
    return mask


@lru_cache(maxsize=64)
def _rules_of(items: tuple[tuple[str, object], ...]) -> RuleSet:
    return RuleSet.from_dict(dict(items))


@dataclass(frozen=True, slots=True)
class Situation:
    """What one seat knows: its hand, the table and the public history of this hand.

    ``played`` holds every card played this hand by anyone; ``unseen`` the cards
    neither in this hand nor played (other hands plus, with fewer than four
    players, the cards out of play). ``locked`` has a bit per seat that passed
    in the current battle.
    """

    seat: int
    players: int
    hand: int
    rules: RuleSet
    table: Combination | None
    table_seat: int | None
    cards_left: tuple[int, ...]
    locked: int
    reentry: bool
    start_card: int | None
    played: int
    history: tuple[tuple[int, int], ...]
    hand_number: int

    @property
    def unseen(self) -> int:
        """Cards not in this hand and not played this hand."""
        return FULL_DECK & ~self.hand & ~self.played

    @property
    def opponents(self) -> list[int]:
        """Other seats still holding cards."""
        return [s for s in range(self.players) if s != self.seat and self.cards_left[s] > 0]

    @property
    def fewest_opponent_cards(self) -> int:
        """The smallest card count among opponents still in the hand (99 when none)."""
        counts = [self.cards_left[s] for s in self.opponents]
        return min(counts) if counts else 99

    def next_active(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that still holds cards."""
        for step in range(1, self.players + 1):
            nxt = (seat + step) % self.players
            if self.cards_left[nxt] > 0:
                return nxt
        return seat


def situation_of(view: SeatView) -> Situation:
    """Read a seat's situation from its view (own cards and public state only)."""
    public = view.public
    rules = _rules_of(tuple(sorted(public.rules.items())))
    history = public.history
    played = 0
    for _, mask in history:
        played |= mask
    table: Combination | None = None
    table_seat: int | None = None
    if public.table is not None:
        table = classify(cards_mask(public.table.cards))
        table_seat = public.table.seat
    locked = 0
    for state in public.seats:
        if state.passed:
            locked |= 1 << state.seat
    start = None if view.start_card is None else parse_index(view.start_card)
    return Situation(
        seat=view.seat,
        players=len(public.seats),
        hand=view.hand_mask,
        rules=rules,
        table=table,
        table_seat=table_seat,
        cards_left=tuple(s.cards_left for s in public.seats),
        locked=locked,
        reentry=public.reentry,
        start_card=start,
        played=played,
        history=history,
        hand_number=public.hand_number,
    )
