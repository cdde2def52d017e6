"""What Master's network reads: a seat's view and one of its actions as the indices of the inputs that are 1.

Every input is 0 or 1, so a decision is a short list of indices (about 70 of
:data:`INPUTS`) and the network's first layer a sum of those columns. The part
that does not depend on the action (:func:`read`) is read once a decision;
each action adds its own (:func:`action_inputs`). Only what the seat may see
is read: its own hand, the cards played this hand and by whom, the table, each
seat's count of cards, its pass lock and whether it is out; and what the
other levels make of it: Medium's choice, Hard's candidates in Hard's order,
the planner's count and cost of the plays left in the hand after the action,
the cards it keeps above every unseen card and its 2s (the training in
``bench/train_master.py`` reads the same views through the same functions).
Seats are relative: block 1 is the next seat clockwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import FULL_DECK, TWO_RANK
from ..engine.combos import Combination
from ..engine.kinds import Kind
from ..engine.match import LegalPlays
from ..engine.rules import MAX_PLAYERS
from ..engine.views import SeatView
from .hard import MAX_CANDIDATES, candidates
from .medium import choose_medium
from .planner import plan_cost, plan_size

CARDS = 52
MAX_COUNT = 13  # cards a seat holds at most (counts one-hot 0..13)
KINDS: tuple[Kind, ...] = tuple(Kind)
OTHER_SEATS = MAX_PLAYERS - 1

HAND_AFTER = 0  # the seat's cards once the action is made
ACTION_CARDS = HAND_AFTER + CARDS  # the cards the action plays (none: a pass)
UNSEEN = ACTION_CARDS + CARDS  # cards neither in the seat's hand nor played: the other hands (and any out of play)
TABLE = UNSEEN + CARDS  # the play to beat
SEATS = TABLE + CARDS  # a block a seat after this one:
SEAT_PLAYED = 0  #   the cards it played this hand,
SEAT_COUNT = SEAT_PLAYED + CARDS  #   its count of cards (one-hot 0..13),
SEAT_LOCKED = SEAT_COUNT + MAX_COUNT + 1  #   pass-locked in this battle,
SEAT_OUT = SEAT_LOCKED + 1  #   gone out,
SEAT_OWNS_TABLE = SEAT_OUT + 1  #   made the play on the table
SEAT_BLOCK = SEAT_OWNS_TABLE + 1
ACTION_KIND = SEATS + OTHER_SEATS * SEAT_BLOCK  # pass, then each kind of play (one-hot)
COUNT_AFTER = ACTION_KIND + 1 + len(KINDS)  # the seat's count once the action is made (one-hot 0..13)
LEADING = COUNT_AFTER + MAX_COUNT + 1  # the seat leads a new battle
REENTRY = LEADING + 1  # the seat is locked and may only bomb the 2s on the table
PLAYERS = REENTRY + 1  # how many seats play (one-hot 2..4)
CANDIDATE = PLAYERS + MAX_PLAYERS - 1  # the action's place among Hard's candidates (0: Medium's choice), or none
PLAN_SIZE = CANDIDATE + MAX_CANDIDATES + 1  # plays the planner splits the hand left into (one-hot 0..13)
PLAN_COST = PLAN_SIZE + MAX_COUNT + 1  # the planner's cost of the hand left, rounded (one-hot 0..13)
CONTROL = PLAN_COST + MAX_COUNT + 1  # cards kept above every unseen card (one-hot 0..4, 4 or more)
TWOS = CONTROL + 5  # 2s kept (one-hot 0..4)
INPUTS = TWOS + 5

_KIND_INDEX = {kind: ACTION_KIND + 1 + n for n, kind in enumerate(KINDS)}


def _bits(mask: int, offset: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(offset + low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Reading:
    """What a decision's actions share: the inputs that do not depend on the action, Hard's candidates (masks,
    0 = a pass; Medium's choice first) and the highest unseen card (-1: none)."""

    inputs: list[int]
    candidates: tuple[int, ...]
    top_unseen: int


def read(view: SeatView, legal: LegalPlays) -> Reading:
    """Read the seat's situation once a decision."""
    medium = choose_medium(view, legal, random.Random(0))  # Medium draws nothing at random
    ranked = candidates(view, legal, medium) if legal.plays else [0]
    return Reading(situation_inputs(view), tuple(ranked), view.unseen.bit_length() - 1)


def situation_inputs(view: SeatView) -> list[int]:
    """The inputs that are 1 whatever the seat does: what it sees of the table and the other seats."""
    played = [0] * view.players
    for seat, mask in view.history:
        played[seat] |= mask
    table = view.table
    return situation_of(
        view.seat,
        played,
        view.cards_left,
        view.locked,
        FULL_DECK & ~view.hand & ~view.played,
        None if table is None else table.mask,
        view.table_seat,
    )


def situation_of(
    seat: int,
    played_by: Sequence[int],
    cards_left: Sequence[int],
    locked: int,
    unseen: int,
    table: int | None,
    table_seat: int | None,
) -> list[int]:
    """:func:`situation_inputs` from the parts of a seat's view (the cards each seat played this hand, every
    seat's count, the pass locks, the unseen cards, the table's cards and owner): a seat with no cards is out."""
    players = len(cards_left)
    out = _bits(unseen, UNSEEN)
    if table is not None:
        out += _bits(table, TABLE)
    for step in range(1, players):
        other = (seat + step) % players
        base = SEATS + (step - 1) * SEAT_BLOCK
        out += _bits(played_by[other], base + SEAT_PLAYED)
        out.append(base + SEAT_COUNT + min(cards_left[other], MAX_COUNT))
        if locked >> other & 1:
            out.append(base + SEAT_LOCKED)
        if cards_left[other] == 0:
            out.append(base + SEAT_OUT)
        if table is not None and table_seat == other:
            out.append(base + SEAT_OWNS_TABLE)
    if table is None:
        out.append(LEADING)
    if locked >> seat & 1:
        out.append(REENTRY)
    out.append(PLAYERS + min(max(players, 2), MAX_PLAYERS) - 2)
    return out


def action_inputs(view: SeatView, reading: Reading, play: Combination | None) -> list[int]:
    """The inputs that are 1 for one action of the seat (None: a pass)."""
    if play is None:
        return action_inputs_of(view.hand, reading.candidates, reading.top_unseen, 0, None)
    return action_inputs_of(view.hand, reading.candidates, reading.top_unseen, play.mask, play.kind)


def action_inputs_of(hand: int, candidates: Sequence[int], top_unseen: int, mask: int, kind: Kind | None) -> list[int]:
    """:func:`action_inputs` from the seat's hand, Hard's candidates, the highest unseen card (-1: none) and the
    action's cards and kind (0 and None: a pass)."""
    after = hand & ~mask
    out = _bits(after, HAND_AFTER)
    if kind is None:
        out.append(ACTION_KIND)
    else:
        out += _bits(mask, ACTION_CARDS)
        out.append(_KIND_INDEX[kind])
    out.append(COUNT_AFTER + min(after.bit_count(), MAX_COUNT))
    rank = candidates.index(mask) if mask in candidates else MAX_CANDIDATES
    out.append(CANDIDATE + min(rank, MAX_CANDIDATES))
    out.append(PLAN_SIZE + min(plan_size(after), MAX_COUNT) if after else PLAN_SIZE)
    out.append(PLAN_COST + min(round(plan_cost(after)), MAX_COUNT) if after else PLAN_COST)
    out.append(CONTROL + min((after >> (top_unseen + 1)).bit_count(), 4))
    out.append(TWOS + (after >> (4 * TWO_RANK)).bit_count())
    return out
