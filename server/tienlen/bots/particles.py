"""Deals for Hard's search: the card model's deals, reweighted by what Medium would have done.

:class:`ParticleDeals` draws :data:`PARTICLES` deals from the card model
(:class:`~tienlen.bots.cardmodel.ModelDeals`), weighs each by
``MISS_LIKELIHOOD ** misses`` where ``misses`` counts the other seats' plays
and passes that Medium would not have chosen holding the deal's hands
(:func:`~tienlen.bots.infer.medium_would`; counting stops at :data:`MAX_MISSES`),
and hands out deals drawn from those weighted particles, cycling through a
systematic resample so that the heavy deals come first and often. All
randomness comes from the generator it is given; ``work`` counts the actions
judged (the search charges them to its budget). Drawing stops early, after
:data:`MIN_PARTICLES`, at :data:`PARTICLE_WORK` judged actions or at the deadline.
"""

from __future__ import annotations

import random
import time

from ..engine.views import SeatView
from .cardmodel import ModelDeals
from .infer import ActionEvent, medium_would

PARTICLES = 96
MIN_PARTICLES = 16  # drawn even past the work cap or the deadline
PARTICLE_WORK = 2500  # actions judged before no more particles are drawn (the search's step budget is 7000)
MISS_LIKELIHOOD = 0.1
MAX_MISSES = 3


class ParticleDeals:
    """Weighted deals from the card model; :meth:`next_deal` hands them out in proportion to their weights."""

    def __init__(
        self,
        view: SeatView,
        events: list[ActionEvent],
        rng: random.Random,
        particles: int = PARTICLES,
        *,
        deadline: float | None = None,
    ) -> None:
        """Prepare the particles of ``view`` (``events``: the other seats' actions to judge); drawn at first use."""
        self.view, self.rng = view, rng
        self.work = 0
        self._deadline = deadline
        self._events: dict[int, list[ActionEvent]] = {}
        for ev in events:
            self._events.setdefault(ev.seat, []).append(ev)
        self._particles = particles
        self._model = ModelDeals(view, events, rng)
        self._known: dict[tuple[int, int], int] = {}
        self.deals: list[list[int]] = []
        self.weights: list[float] = []
        self._order: list[int] = []
        self._next = 0

    def _misses(self, seat: int, hand: int) -> int:
        """How many of the seat's actions Medium would not have chosen holding ``hand`` (at most MAX_MISSES).

        An action that refused a hand moves to the front of the seat's list, so
        the next bad hand reaches the cap sooner (the order changes the work,
        never the answer).
        """
        key = (seat, hand)
        found = self._known.get(key)
        if found is not None:
            return found
        misses = 0
        events = self._events.get(seat, [])
        for index, ev in enumerate(events):
            self.work += 1
            if not medium_would(ev, hand | ev.later, self.view):
                misses += 1
                if index:
                    events.insert(0, events.pop(index))
                if misses >= MAX_MISSES:
                    break
        self._known[key] = misses
        return misses

    def _draw(self) -> None:
        """Draw and weigh the particles, then lay out a systematic resample of them (heaviest first)."""
        seats = self.view.opponents
        for drawn in range(self._particles):
            if drawn >= MIN_PARTICLES and (
                self.work > PARTICLE_WORK or (self._deadline is not None and time.perf_counter() > self._deadline)
            ):
                break
            hands = self._model.next_deal()
            misses = min(MAX_MISSES, sum(self._misses(s, hands[s]) for s in seats))
            self.deals.append(hands)
            self.weights.append(MISS_LIKELIHOOD**misses)
        total = sum(self.weights)
        step = total / len(self.deals)
        u = self.rng.random() * step
        acc = 0.0
        order: list[int] = []
        for i, w in enumerate(self.weights):
            acc += w
            while u < acc and len(order) < len(self.deals):
                order.append(i)
                u += step
        order.sort(key=lambda i: -self.weights[i])
        self._order = order or list(range(len(self.deals)))

    def next_deal(self) -> list[int]:
        """The next deal of the resample (a hand a seat; the seat's own hand as it is), cycling when used up."""
        if not self._order:
            self._draw()
        hands = self.deals[self._order[self._next % len(self._order)]]
        self._next += 1
        return list(hands)
