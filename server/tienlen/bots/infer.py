"""What the other seats' passes say about their hands, for Hard's sampling.

Only public history is used: the hand's actions in order (a pass is an empty
mask). Replaying them on a :class:`~tienlen.bots.sim.SimHand` whose "hands" hold
only the cards each seat is known to play later (plus a marker bit while the
seat still holds cards) recovers the table, its owner and the pass locks at
every pass. A sampled deal is then checked against each pass: would Medium,
holding the sampled hand plus the cards that seat played afterwards, also have
passed? Deals that explain the passes are preferred (a soft filter: a few draws
are tried and the one with the fewest unexplained passes is kept).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import TWO_RANK
from ..engine.combos import Combination
from ..engine.kinds import Kind
from ..engine.views import SeatView
from .policy import policy_answer
from .sim import SimHand

MARKER_BIT = 56
MAX_EVENTS = 12


@dataclass(frozen=True, slots=True)
class PassEvent:
    """One pass by another seat: the table it declined and the public state then."""

    seat: int
    table: Combination
    table_seat: int
    locked: bool
    later: int
    cards_left: tuple[int, ...]


def pass_events(view: SeatView) -> list[PassEvent]:
    """The other seats' passes of this hand (most recent last, at most :data:`MAX_EVENTS`)."""
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
    events: list[PassEvent] = []
    for (seat, mask), rest in zip(history, after, strict=True):
        if sim.turn != seat:
            return events[-MAX_EVENTS:]
        if mask == 0:
            if seat != view.seat and sim.table is not None and sim.table_seat is not None:
                counts = tuple(view.cards_left[s] + rest[s].bit_count() for s in range(n))
                locked = bool(sim.locked >> seat & 1)
                events.append(PassEvent(seat, sim.table, sim.table_seat, locked, rest[seat], counts))
            sim.pass_turn()
        else:
            sim.play(mask)
            if sim.done:
                break
    return events[-MAX_EVENTS:]


def unexplained(events: list[PassEvent], hands: list[int], view: SeatView, limit: int) -> int:
    """How many of these passes Medium would not have made holding the sampled hands (counting stops at limit)."""
    bombs = view.rules.bombs
    misses = 0
    for ev in events:
        hand = hands[ev.seat] | ev.later
        table = ev.table
        if table.kind is Kind.SINGLE and table.top >> 2 != TWO_RANK and not hand >> (table.top + 1):
            continue
        move = policy_answer(hand, ev.table, ev.table_seat, list(ev.cards_left), ev.seat, bombs, ev.locked)
        if move:
            misses += 1
            if misses >= limit:
                break
    return misses
