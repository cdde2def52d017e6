"""Deals of the unseen cards for Hard's search, weighted by what the other seats did.

A deal gives each other seat as many unseen cards as it holds (with fewer than
four players the rest stay out of play). Deals are not equally likely: each
play or pass of another seat that Medium would not have chosen holding the
dealt hand (an *unexplained* action, :mod:`.infer`) makes a deal
:data:`MISS_LIKELIHOOD` times as likely. :class:`DealChain` draws deals in
proportion to that likelihood with a Metropolis chain whose moves swap one
card between two holders; a swap changes only those two seats' hands, so only
their actions are judged again, and a judgement stops as soon as the swap is
sure to be refused. :class:`DealChains` (Hard's source) runs several such
chains from different starts, at :data:`CHAINS_LIKELIHOOD`, and hands out
their deals in turn. All randomness comes from the generator it is given.
"""

from __future__ import annotations

import math
import random

from ..engine.cards import indices
from ..engine.views import SeatView
from .infer import ActionEvent, medium_would

# How much less likely a deal is for each action of another seat that Medium would not have chosen holding it.
MISS_LIKELIHOOD = 0.05
BURN_IN_PER_EVENT = 3  # chain steps before the first deal, per action judged
BURN_IN_MIN = 24
THINNING = 2  # chain steps between two deals handed out
CHAINS = 12  # independent chains of :class:`DealChains`, handed out in turn
CHAINS_LIKELIHOOD = 0.02


def sample_hands(view: SeatView, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the other seats by their card counts (the rest stay out of play)."""
    unseen = list(indices(view.unseen))
    rng.shuffle(unseen)
    hands = [0] * view.players
    pos = 0
    for seat in range(view.players):
        if seat == view.seat:
            hands[seat] = view.hand
            continue
        count = view.cards_left[seat]
        mask = 0
        for card in unseen[pos : pos + count]:
            mask |= 1 << card
        pos += count
        hands[seat] = mask
    return hands


def _random_card(mask: int, rng: random.Random) -> int:
    """One card of a non-empty mask, uniformly (as a one-bit mask)."""
    pick = rng.randrange(mask.bit_count())
    for _ in range(pick):
        mask &= mask - 1
    return mask & -mask


class DealChain:
    """A Metropolis chain over deals of the unseen cards, drawn in proportion to ``MISS_LIKELIHOOD ** misses``.

    ``misses`` counts the other seats' actions (``events``) that Medium would
    not have chosen holding the deal's hands. :meth:`next_deal` hands out a
    deal every :data:`THINNING` steps after a burn-in, and :attr:`work` counts
    the actions judged so far (the search charges them to its budget).
    """

    def __init__(
        self,
        view: SeatView,
        events: list[ActionEvent],
        rng: random.Random,
        likelihood: float = MISS_LIKELIHOOD,
        *,
        deadline: float | None = None,
        known: dict[tuple[int, int], tuple[int, bool]] | None = None,
        burn_in: int | None = None,
    ) -> None:
        """Start from a uniformly drawn deal for ``view``'s seat (``deadline`` is unused: the search checks it).

        ``known`` holds the judgements of (seat, hand) made so far, to share with other chains of the same events;
        ``burn_in`` replaces the steps before the first deal (by default a few per action judged).
        """
        self.view = view
        self.rng = rng
        self.work = 0
        self._log_likelihood = math.log(likelihood)
        self.hands = sample_hands(view, rng)
        self._holders = [s for s in view.opponents if self.hands[s]]
        out_of_play = view.unseen
        for seat in self._holders:
            out_of_play &= ~self.hands[seat]
        if out_of_play:
            self.hands.append(out_of_play)  # a pseudo-seat past the last one holds the cards out of play
            self._holders.append(len(self.hands) - 1)
        self._events: dict[int, list[ActionEvent]] = {s: [] for s in self._holders}
        for ev in events:
            if ev.seat in self._events:
                self._events[ev.seat].append(ev)
        self.misses = dict.fromkeys(self._holders, 0)
        self._known: dict[tuple[int, int], tuple[int, bool]] = {} if known is None else known
        self._started = False
        self._burn_in = max(BURN_IN_MIN, BURN_IN_PER_EVENT * len(events)) if events else 0
        if burn_in is not None:
            self._burn_in = burn_in if events else 0

    def _misses(self, seat: int, hand: int, limit: int) -> int:
        """How many of the seat's actions Medium would not have chosen holding ``hand`` (counting stops past limit).

        Answers are remembered per (seat, hand): exact counts, and lower
        bounds where counting stopped. The action that refused a hand moves to
        the front of the seat's list, so the next bad hand is refused sooner
        (the order changes the work, never the answer).
        """
        known = self._known.get((seat, hand))
        if known is not None and (known[1] or known[0] > limit):
            return known[0]
        events = self._events[seat]
        misses = 0
        for index, ev in enumerate(events):
            self.work += 1
            if not medium_would(ev, hand | ev.later, self.view):
                misses += 1
                if misses > limit:
                    if index:
                        events.insert(0, events.pop(index))
                    self._known[seat, hand] = (misses, False)
                    return misses
        self._known[seat, hand] = (misses, True)
        return misses

    def step(self) -> None:
        """Propose swapping one card between two holders and accept it with the Metropolis rule."""
        if len(self._holders) < 2:
            return
        rng = self.rng
        a, b = rng.sample(self._holders, 2)
        card_a, card_b = _random_card(self.hands[a], rng), _random_card(self.hands[b], rng)
        new_a = self.hands[a] ^ card_a | card_b
        new_b = self.hands[b] ^ card_b | card_a
        old = self.misses[a] + self.misses[b]
        # Accept when likelihood ** (new - old) >= u, i.e. when new <= old + log(u) / log(likelihood).
        allowed = old + int(math.log(1.0 - rng.random()) / self._log_likelihood)
        miss_a = self._misses(a, new_a, allowed)
        if miss_a > allowed:
            return
        miss_b = self._misses(b, new_b, allowed - miss_a)
        if miss_a + miss_b > allowed:
            return
        self.hands[a], self.hands[b] = new_a, new_b
        self.misses[a], self.misses[b] = miss_a, miss_b

    def next_deal(self) -> list[int]:
        """The next deal of the chain (a hand a seat; the seat's own hand as it is)."""
        if self._started:
            steps = THINNING
        else:
            self._started = True
            steps = self._burn_in
            self.misses = {s: self._misses(s, self.hands[s], len(self._events[s])) for s in self._holders}
        for _ in range(steps):
            self.step()
        return self.hands[: self.view.players]

    @property
    def unexplained(self) -> int:
        """How many of the other seats' actions the current deal leaves unexplained."""
        return sum(self.misses.values())


class DealChains:
    """Several independent :class:`DealChain` s, started from different deals, whose deals are handed out in turn.

    One chain's successive deals are alike (each differs from the last by a
    few swaps), so the search saw few different deals; chains started apart
    and each burned in give deals spread over the likely ones. The chains
    share their judgements of (seat, hand), which do not depend on the chain;
    each chain draws from its own generator, seeded from ``rng``. A chain is
    started (and burned in) when its first deal is asked for.
    """

    def __init__(
        self,
        view: SeatView,
        events: list[ActionEvent],
        rng: random.Random,
        chains: int = CHAINS,
        likelihood: float = CHAINS_LIKELIHOOD,
        *,
        deadline: float | None = None,
        burn_in: int | None = None,
    ) -> None:
        """Prepare ``chains`` chains over ``view``'s unseen cards (``deadline`` is unused: the search checks it)."""
        seeds = [rng.getrandbits(64) for _ in range(chains)]
        known: dict[tuple[int, int], tuple[int, bool]] = {}
        self._chains = [
            DealChain(view, list(events), random.Random(seed), likelihood, known=known, burn_in=burn_in)
            for seed in seeds
        ]
        self._next = 0

    @property
    def work(self) -> int:
        """The actions judged by all the chains so far."""
        return sum(chain.work for chain in self._chains)

    def next_deal(self) -> list[int]:
        """The next chain's next deal (a hand a seat; the seat's own hand as it is)."""
        chain = self._chains[self._next % len(self._chains)]
        self._next += 1
        return chain.next_deal()
