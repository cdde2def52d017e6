"""Hard's playouts: a candidate move on a sampled deal, then Medium for every seat until one is out.

:func:`playout_value` is the reference; :func:`playouts_for` gives the compiled core's playouts when
the engine uses it (:mod:`.compiled`: the same values and steps), else this module's.
"""

from __future__ import annotations

from typing import Protocol

from ..engine.views import SeatView
from . import compiled
from .planner import plan_cost
from .sim import SimHand


class Playouts(Protocol):
    """Playouts from one position."""

    def values(self, hands: list[int], moves: list[int]) -> list[tuple[float, int]]:
        """For each move (a mask, 0 = pass) on this deal (a hand a seat): (points, simulated actions)."""
        ...


def start_simulation(view: SeatView, hands: list[int]) -> SimHand:
    """A simulator of the rest of the hand from this situation, with these hands dealt."""
    return SimHand(
        hands=hands,
        turn=view.seat,
        table=view.table,
        table_seat=view.table_seat,
        locked=view.locked,
        bombs=view.rules.bombs,
        reentry_rule=view.rules.pass_reentry_with_bomb,
        end_on_first_out=view.rules.end_on_first_out,
        played=view.played,
        start_card=view.start_card,
    )


def estimated_place(sim: SimHand, seat: int) -> int:
    """The seat's place (0 = first) once the first seat is out: places so far, then by plan cost.

    Playouts stop at the first seat out (first place is what Hard plays for);
    the seats still holding cards are ranked by how many plays their hands still
    need (the planner's cost), fewer cards breaking ties.
    """
    if seat in sim.places:
        return sim.places.index(seat)
    holding = [s for s in range(sim.players) if sim.hands[s] and s not in sim.places]
    holding.sort(key=lambda s: (plan_cost(sim.hands[s]), sim.hands[s].bit_count(), s != seat))
    return len(sim.places) + holding.index(seat)


def playout_value(view: SeatView, hands: list[int], move: int, first_bonus: float) -> tuple[float, int]:
    """Points (players − 1 − place index, plus ``first_bonus`` for first) after ``move`` and Medium play on.

    The playout runs until the first seat is out; later places are estimated
    (:func:`estimated_place`). Also returns how many simulated actions it took.
    """
    sim = start_simulation(view, list(hands))
    if move == 0:
        sim.pass_turn()
    else:
        sim.play(move)
    sim.run_until_first_out()
    place = estimated_place(sim, view.seat)
    return float(view.players - 1 - place) + (first_bonus if place == 0 else 0.0), sim.steps


class PythonPlayouts:
    """:func:`playout_value` for each move: the reference the compiled playouts match."""

    def __init__(self, view: SeatView, first_bonus: float) -> None:
        """Playouts from ``view``'s position."""
        self.view = view
        self.first_bonus = first_bonus

    def values(self, hands: list[int], moves: list[int]) -> list[tuple[float, int]]:
        """For each move on this deal: (points, simulated actions)."""
        return [playout_value(self.view, hands, move, self.first_bonus) for move in moves]


def played_by_seat(view: SeatView) -> list[int]:
    """The cards each seat played this hand, as the view shows them."""
    by = [0] * view.players
    for seat, mask in view.history:
        by[seat] |= mask
    return by


def playouts_for(view: SeatView, first_bonus: float) -> Playouts:
    """Playouts from ``view``'s position: in the compiled core when the engine uses it (:data:`.compiled.CORE`)."""
    core = compiled.CORE
    if core is None:
        return PythonPlayouts(view, first_bonus)
    table = view.table
    return core.Playouts(
        view.seat,
        view.players,
        None if table is None else table.mask,
        view.table_seat,
        view.locked,
        view.played,
        view.start_card,
        view.rules.bombs.value,
        view.rules.pass_reentry_with_bomb,
        view.rules.end_on_first_out,
        first_bonus,
    )
