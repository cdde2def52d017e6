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
their deals in turn, in the compiled core when the engine uses it (the same
deals and work: both draw from :class:`~tienlen.bots.chain_rng.ChainRng`, seeded
from the generator they are given, so all randomness comes from that generator).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.cards import indices
from ..engine.views import SeatView
from . import compiled
from .chain_rng import ChainRng, probability_threshold
from .infer import ActionEvent, judge_for

# How much less likely a deal is for each action of another seat that Medium would not have chosen holding it.
MISS_LIKELIHOOD = 0.05
BURN_IN_MIN = 24  # chain steps before the first deal, at least


@dataclass(frozen=True, slots=True)
class ChainPace:
    """How long a chain runs: steps before its first deal per action judged, and steps between two deals."""

    burn_in_per_event: int
    thinning: int


# Judging an action costs far less in the compiled core, so there the chains run longer (a longer burn-in, more
# steps between deals): longer chains place the unseen cards better and make Hard stronger (docs/bots.md, the
# figures in docs/benchmarks.md: make bench-inference, make bench-bots).
PYTHON_PACE = ChainPace(burn_in_per_event=3, thinning=2)
COMPILED_PACE = ChainPace(burn_in_per_event=12, thinning=6)


def chain_pace() -> ChainPace:
    """The chains' pace on this build: :data:`COMPILED_PACE` with the compiled core (:data:`.compiled.CORE`)."""
    return COMPILED_PACE if compiled.CORE is not None else PYTHON_PACE


CHAINS = 12  # independent chains of :class:`DealChains`, handed out in turn
CHAINS_LIKELIHOOD = 0.02


def deal_cards(view: SeatView, cards: Sequence[int]) -> list[int]:
    """Deal these unseen cards (card numbers, in dealing order) to the other seats by their card counts."""
    hands = [0] * view.players
    pos = 0
    for seat in range(view.players):
        if seat == view.seat:
            hands[seat] = view.hand
            continue
        count = view.cards_left[seat]
        mask = 0
        for card in cards[pos : pos + count]:
            mask |= 1 << card
        pos += count
        hands[seat] = mask
    return hands


def sample_hands(view: SeatView, rng: random.Random) -> list[int]:
    """Deal the unseen cards to the other seats by their card counts (the rest stay out of play)."""
    unseen = list(indices(view.unseen))
    rng.shuffle(unseen)
    return deal_cards(view, unseen)


def chain_hands(view: SeatView, rng: ChainRng) -> list[int]:
    """:func:`sample_hands` from a chain's generator (a Fisher–Yates shuffle of the unseen cards, high end first)."""
    unseen = list(indices(view.unseen))
    for i in range(len(unseen) - 1, 0, -1):
        j = rng.below(i + 1)
        unseen[i], unseen[j] = unseen[j], unseen[i]
    return deal_cards(view, unseen)


def _nth_card(mask: int, pick: int) -> int:
    """The ``pick``-th lowest card of a mask (as a one-bit mask)."""
    for _ in range(pick):
        mask &= mask - 1
    return mask & -mask


def burn_in_steps(events: int, burn_in: int | None = None) -> int:
    """A chain's steps before its first deal: none without actions to judge, else some per action (or ``burn_in``)."""
    if not events:
        return 0
    return max(BURN_IN_MIN, chain_pace().burn_in_per_event * events) if burn_in is None else burn_in


class DealChain:
    """A Metropolis chain over deals of the unseen cards, drawn in proportion to ``MISS_LIKELIHOOD ** misses``.

    ``misses`` counts the other seats' actions (``events``) that Medium would
    not have chosen holding the deal's hands. :meth:`next_deal` hands out a
    deal every few steps after a burn-in (:func:`chain_pace`), and :attr:`work` counts
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
        self.rng = ChainRng(rng.getrandbits(64))
        self.work = 0
        self._threshold = probability_threshold(likelihood)
        self.hands = chain_hands(view, self.rng)
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
        self._judges = {s: judge_for(self._events[s], view) for s in self._holders}
        self.misses = dict.fromkeys(self._holders, 0)
        self._known: dict[tuple[int, int], tuple[int, bool]] = {} if known is None else known
        self._started = False
        self._burn_in = burn_in_steps(len(events), burn_in)
        self._thinning = chain_pace().thinning

    def _misses(self, seat: int, hand: int, limit: int) -> int:
        """How many of the seat's actions Medium would not have chosen holding ``hand`` (counting stops past limit).

        Answers are remembered per (seat, hand): exact counts, and lower
        bounds where counting stopped (:class:`~tienlen.bots.infer.SeatActions`
        judges, the action that refused a hand first).
        """
        known = self._known.get((seat, hand))
        if known is not None and (known[1] or known[0] > limit):
            return known[0]
        misses, complete, work = self._judges[seat].misses(hand, limit)
        self.work += work
        self._known[seat, hand] = (misses, complete)
        return misses

    def step(self) -> None:
        """Propose swapping one card between two holders and accept it with the Metropolis rule."""
        holders = self._holders
        if len(holders) < 2:
            return
        rng, hands = self.rng, self.hands
        first = rng.below(len(holders))
        second = rng.below(len(holders) - 1)
        a, b = holders[first], holders[second + (second >= first)]
        card_a = _nth_card(hands[a], rng.below(hands[a].bit_count()))
        card_b = _nth_card(hands[b], rng.below(hands[b].bit_count()))
        new_a = hands[a] ^ card_a | card_b
        new_b = hands[b] ^ card_b | card_a
        old = self.misses[a] + self.misses[b]
        # Accept with probability likelihood ** (new - old): new may exceed old by a geometric draw.
        allowed = old + rng.geometric(self._threshold)
        miss_a = self._misses(a, new_a, allowed)
        if miss_a > allowed:
            return
        miss_b = self._misses(b, new_b, allowed - miss_a)
        if miss_a + miss_b > allowed:
            return
        hands[a], hands[b] = new_a, new_b
        self.misses[a], self.misses[b] = miss_a, miss_b

    def next_deal(self) -> list[int]:
        """The next deal of the chain (a hand a seat; the seat's own hand as it is)."""
        if self._started:
            steps = self._thinning
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
    started (and burned in) when its first deal is asked for. With the
    compiled core (:data:`.compiled.CORE`) the chains run there, dealing
    exactly what these would.
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
        self.chains = chains
        self.likelihood = likelihood
        seeds = [rng.getrandbits(64) for _ in range(chains)]
        self._next = 0
        self._chains: list[DealChain] = []
        self._compiled: compiled.CompiledDealChains | None = None
        core = compiled.CORE
        if core is not None:
            self._compiled = core.DealChains(
                view.seat,
                view.hand,
                list(view.cards_left),
                view.unseen,
                [ev.as_tuple() for ev in events],
                view.rules.bombs.value,
                [random.Random(seed).getrandbits(64) for seed in seeds],  # as each DealChain seeds its generator
                probability_threshold(likelihood),
                burn_in_steps(len(events), burn_in),
                chain_pace().thinning,
            )
            return
        known: dict[tuple[int, int], tuple[int, bool]] = {}
        self._chains = [
            DealChain(view, list(events), random.Random(seed), likelihood, known=known, burn_in=burn_in)
            for seed in seeds
        ]

    @property
    def compiled(self) -> compiled.CompiledDealChains | None:
        """The chains in the compiled core (None when they run here): Hard's search draws their deals there."""
        return self._compiled

    @property
    def work(self) -> int:
        """The actions judged by all the chains so far."""
        if self._compiled is not None:
            return self._compiled.work
        return sum(chain.work for chain in self._chains)

    def next_deal(self) -> list[int]:
        """The next chain's next deal (a hand a seat; the seat's own hand as it is)."""
        if self._compiled is not None:
            return self._compiled.next_deal()
        chain = self._chains[self._next % len(self._chains)]
        self._next += 1
        return chain.next_deal()
