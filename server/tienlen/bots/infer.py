"""What the other seats' actions say about their hands, for Hard's sampling.

Only public history is used: the hand's actions in order (a pass is an empty
mask). Playing them again on a :class:`~tienlen.bots.sim.SimHand` whose "hands" hold
only the cards each seat is known to play later (plus a marker bit while the
seat still holds cards) recovers the table, its owner and the pass locks at
every action. A sampled deal is then checked against each of another seat's actions, plays
as well as passes: would Medium, holding the sampled hand plus the cards that
seat played from then on, have chosen the same action? The actions Medium would
not have chosen make the deal less likely (:mod:`.sampling` draws deals by that
likelihood).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..engine.cards import FULL_DECK, TWO_RANK
from ..engine.combos import Combination
from ..engine.kinds import Kind
from ..engine.views import SeatView
from . import compiled
from .policy import policy_answer, policy_lead
from .sim import SimHand

MARKER_BIT = 56
MAX_EVENTS = 12


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """One action of another seat: what it did and the public state then.

    ``action`` is the mask played (0 = a pass), ``table`` the play it answered
    (None: it led), ``later`` the cards it played from this action on (so its
    hand then was its hand now plus ``later``), ``seen`` every card played
    before the action and ``cards_left`` each seat's count at that moment.
    """

    seat: int
    table: Combination | None
    table_seat: int | None
    locked: bool
    later: int
    cards_left: tuple[int, ...]
    action: int = 0
    seen: int = 0

    def as_tuple(self) -> compiled.ActionTuple:
        """The event as the compiled core takes it (the table as its cards)."""
        table = None if self.table is None else self.table.mask
        return (self.seat, table, self.table_seat, self.locked, self.later, self.cards_left, self.action, self.seen)


def action_events(view: SeatView, limit: int = MAX_EVENTS) -> list[ActionEvent]:
    """The other seats' plays and passes of this hand (most recent last, at most ``limit``).

    The opening lead of a match played under the start-card rule is left out
    (it had to include the lowest card dealt, which Hard's view does not name).
    """
    history = view.history
    if not history:
        return []
    n = view.players
    later = [0] * n
    after: list[list[int]] = []
    for seat, mask in reversed(history):
        after.append(list(later))
        later[seat] |= mask
    after.reverse()
    hands = [later[s] | ((1 << (MARKER_BIT + s)) if view.cards_left[s] > 0 else 0) for s in range(n)]
    # ``later`` now holds every card each seat played this hand.
    sim = SimHand(
        hands=hands,
        turn=history[0][0],
        table=None,
        table_seat=None,
        locked=0,
        bombs=view.rules.bombs,
        reentry_rule=view.rules.pass_reentry_with_bomb,
        end_on_first_out=False,
    )
    skip_opening = view.rules.start_card_rule and not view.public.completed
    events: list[ActionEvent] = []
    seen = 0
    for index, ((seat, mask), rest) in enumerate(zip(history, after, strict=True)):
        if sim.turn != seat:
            break
        if seat != view.seat and not (index == 0 and skip_opening):
            held = rest[seat] | mask
            counts = tuple(view.cards_left[s] + (held if s == seat else rest[s]).bit_count() for s in range(n))
            if sim.table is None:
                events.append(ActionEvent(seat, None, None, False, held, counts, mask, seen))
            elif sim.table_seat is not None:
                locked = bool(sim.locked >> seat & 1)
                events.append(ActionEvent(seat, sim.table, sim.table_seat, locked, held, counts, mask, seen))
        if mask == 0:
            sim.pass_turn()
        else:
            seen |= mask
            sim.play(mask)
            if sim.done:
                break
    return events[-limit:]


def medium_would(ev: ActionEvent, hand: int, view: SeatView) -> bool:
    """Whether Medium, holding ``hand`` (the seat's hand then), would have chosen the event's action."""
    bombs = view.rules.bombs
    table = ev.table
    if table is None:
        unseen = FULL_DECK & ~hand & ~ev.seen
        return policy_lead(hand, list(ev.cards_left), ev.seat, bombs, unseen, None) == ev.action
    if ev.action == 0 and table.kind is Kind.SINGLE and table.top >> 2 != TWO_RANK and not hand >> (table.top + 1):
        return True  # nothing to answer with: the pass was forced
    assert ev.table_seat is not None
    return policy_answer(hand, table, ev.table_seat, list(ev.cards_left), ev.seat, bombs, ev.locked) == ev.action


def unexplained(events: list[ActionEvent], hands: list[int], view: SeatView, limit: int) -> int:
    """How many of these actions Medium would not have chosen holding the sampled hands (counting stops at limit)."""
    misses = 0
    for ev in events:
        if not medium_would(ev, hands[ev.seat] | ev.later, view):
            misses += 1
            if misses >= limit:
                break
    return misses


class Judge(Protocol):
    """One seat's actions, judged against sampled hands."""

    def misses(self, hand: int, limit: int) -> tuple[int, bool, int]:
        """(actions Medium would not have chosen holding ``hand``, counting stopped once past ``limit``; whether
        the count is complete; how many actions were judged)."""
        ...


class SeatActions:
    """One seat's actions judged one by one: the reference the compiled judge matches.

    The action that refused a hand moves to the front, so the next bad hand is
    refused sooner (the order changes the work, never the count).
    """

    def __init__(self, events: list[ActionEvent], view: SeatView) -> None:
        """Judge by these actions (one seat's) under ``view``'s rules."""
        self.events = list(events)
        self.view = view

    def misses(self, hand: int, limit: int) -> tuple[int, bool, int]:
        """(misses, complete, actions judged) for ``hand``, the seat's hand now."""
        misses = work = 0
        events = self.events
        for index, ev in enumerate(events):
            work += 1
            if not medium_would(ev, hand | ev.later, self.view):
                misses += 1
                if misses > limit:
                    if index:
                        events.insert(0, events.pop(index))
                    return misses, False, work
        return misses, True, work


def judge_for(events: list[ActionEvent], view: SeatView) -> Judge:
    """A judge of one seat's actions: in the compiled core when the engine uses it (:data:`.compiled.CORE`)."""
    core = compiled.CORE
    if core is None:
        return SeatActions(events, view)
    return core.SeatActions([ev.as_tuple() for ev in events], view.rules.bombs.value)
