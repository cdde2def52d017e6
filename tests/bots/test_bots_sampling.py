"""Hard's deals of the unseen cards: a Metropolis chain weighted by how well a deal explains the others' actions.

The hidden hands are what the seat cannot see (docs/rules.md §5: each seat sees
only its own hand and what was played); a deal must fit every seat's card count,
and each action Medium would not have chosen holding the dealt hand makes the
deal ``MISS_LIKELIHOOD`` times as likely.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest

from tests.support.bots import Advance, MatchFactory, assert_hands_fit
from tienlen.bots import bot_rng, choose, sampling
from tienlen.bots.chain_rng import ChainRng, probability_threshold
from tienlen.bots.hard import DEAL_EVENTS
from tienlen.bots.infer import action_events, unexplained
from tienlen.bots.sampling import CHAINS_LIKELIHOOD, MISS_LIKELIHOOD, DealChain, DealChains, sample_hands
from tienlen.engine import PRESET_NAMES, Match, SeatView, seat_view
from tienlen.engine.cards import indices


@pytest.fixture
def python_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chains at the pure Python build's pace on either build (the pace is the one thing the build changes in a
    Python :class:`DealChain`), so a statistical test's draws, and its verdict, are the same on both builds."""
    monkeypatch.setattr(sampling, "chain_pace", lambda: sampling.PYTHON_PACE)


def _late_position(make_match: MatchFactory, seed: int, unseen_at_most: int) -> tuple[Match, SeatView]:
    """A four-seat match played by Medium until the seat on turn sees at most this many unseen cards."""
    match = make_match("standard", 4, seed)
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        view = seat_view(match, seat)
        if view.unseen.bit_count() <= unseen_at_most and len(view.opponents) >= 2 and action_events(view):
            return match, view
        action = choose("medium", view, match.legal_plays(), bot_rng(match, seat))
        if action.is_pass:
            match.pass_turn(seat)
        else:
            match.play(seat, action.mask)
    pytest.fail(f"seed {seed} never reached a position with at most {unseen_at_most} unseen cards")


def _all_deals(view: SeatView) -> list[tuple[int, ...]]:
    """Every way to deal the unseen cards by the other seats' counts (four seats: none out of play)."""
    seats = view.opponents
    cards = list(indices(view.unseen))
    deals: list[tuple[int, ...]] = []

    def split(rest: list[int], index: int, hands: list[int]) -> None:
        if index == len(seats):
            deal = [0] * view.players
            deal[view.seat] = view.hand
            for seat, hand in zip(seats, hands, strict=True):
                deal[seat] = hand
            deals.append(tuple(deal))
            return
        for chosen in itertools.combinations(rest, view.cards_left[seats[index]]):
            mask = sum(1 << c for c in chosen)
            split([c for c in rest if not mask >> c & 1], index + 1, [*hands, mask])

    split(cards, 0, [])
    return deals


SOURCES: dict[str, Callable[[SeatView, random.Random], DealChain | DealChains]] = {
    "one chain": lambda view, rng: DealChain(view, action_events(view), rng),
    "chains": lambda view, rng: DealChains(view, action_events(view, DEAL_EVENTS), rng, chains=4),
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_chain_deals_fit_the_counts_and_only_unseen_cards(
    source: str, preset: str, players: int, make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Every deal of one chain or of Hard's independent chains gives each seat its card count from the unseen cards
    (the rest out of play): never a card seen played or held by the seat itself (docs/rules.md §5)."""
    for seed in range(3):
        match = make_match(preset, players, seed)
        advance_bots(match, 5 + 4 * seed, "medium")
        if match.turn is None:
            continue
        view = seat_view(match, match.turn)
        deals = SOURCES[source](view, random.Random(seed))
        for _ in range(30):
            assert_hands_fit(view, deals.next_deal())


def test_chain_explains_the_actions_far_better_than_plain_draws(
    make_match: MatchFactory, advance_bots: Advance, python_pace: None
) -> None:
    """Deals drawn by likelihood leave at most a third as many of the others' actions unexplained as uniform deals."""
    weighted = plain = 0
    for seed in range(4):
        match = make_match("standard", 4, 20 + seed)
        advance_bots(match, 16, "medium")
        assert match.turn is not None
        view = seat_view(match, match.turn)
        events = action_events(view)
        assert events
        rng = random.Random(seed)
        chain = DealChain(view, events, rng)
        for _ in range(25):
            hands = chain.next_deal()
            assert chain.unexplained == unexplained(events, hands, view, 99)
            weighted += chain.unexplained
            plain += unexplained(events, sample_hands(view, rng), view, 99)
    assert weighted * 3 <= plain, (weighted, plain)


def test_chain_draws_deals_in_proportion_to_their_likelihood(make_match: MatchFactory, python_pace: None) -> None:
    """On a position small enough to list every deal, the chain's frequencies match the exact weights.

    Weight of a deal = MISS_LIKELIHOOD ** (actions it leaves unexplained); the
    total variation distance between the chain's frequencies and the weights
    normalized is small.
    """
    match, view = _late_position(make_match, seed=3, unseen_at_most=9)
    events = action_events(view)
    deals = _all_deals(view)
    assert 10 <= len(deals) <= 2000, len(deals)
    weights = {deal: MISS_LIKELIHOOD ** unexplained(events, list(deal), view, 99) for deal in deals}
    total = sum(weights.values())
    chain = DealChain(view, events, random.Random(11))
    draws = 6000
    seen = Counter(tuple(chain.next_deal()) for _ in range(draws))
    assert set(seen) <= set(weights), "the chain dealt a deal that does not fit the counts"
    distance = 0.5 * sum(abs(seen[deal] / draws - weight / total) for deal, weight in weights.items())
    assert distance < 0.12, distance
    assert match.hands and tuple(match.hands) in weights  # the true deal is among those listed


def test_same_generator_same_deals(make_match: MatchFactory, advance_bots: Advance) -> None:
    """The chain's only randomness is its generator: the same seed gives the same deals (Hard is reproducible)."""
    match = make_match("standard", 4, 8)
    advance_bots(match, 20, "medium")
    assert match.turn is not None
    view = seat_view(match, match.turn)
    events = action_events(view)
    first = DealChain(view, events, random.Random(5))
    again = DealChain(view, events, random.Random(5))
    assert [first.next_deal() for _ in range(10)] == [again.next_deal() for _ in range(10)]


def test_chains_share_judgements_without_changing_a_deal(make_match: MatchFactory, advance_bots: Advance) -> None:
    """The chains share what they judged of (seat, hand): each chain deals as it would alone, for less work;
    and the same seed gives the same deals (Hard is reproducible)."""
    match = make_match("standard", 4, 8)
    advance_bots(match, 20, "medium")
    assert match.turn is not None
    view = seat_view(match, match.turn)
    events = action_events(view, DEAL_EVENTS)
    chains = DealChains(view, events, random.Random(5), chains=3)
    dealt = [chains.next_deal() for _ in range(12)]
    seeds = random.Random(5)
    alone = [DealChain(view, list(events), random.Random(seeds.getrandbits(64)), CHAINS_LIKELIHOOD) for _ in range(3)]
    assert dealt == [alone[i % 3].next_deal() for i in range(12)]
    assert chains.work <= sum(chain.work for chain in alone)
    again = DealChains(view, events, random.Random(5), chains=3)
    assert [again.next_deal() for _ in range(12)] == dealt


def test_the_chains_generator_is_splitmix64_and_draws_as_documented() -> None:
    """The chains' generator is SplitMix64 (its published first outputs for seed 0, which the compiled chains
    mirror); ``below`` is uniform and ``geometric`` gives k or more with probability p ** k."""
    rng = ChainRng(0)
    assert [rng.next(), rng.next()] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    rng = ChainRng(7)
    counts = Counter(rng.below(5) for _ in range(50_000))
    assert set(counts) == set(range(5)) and all(abs(n - 10_000) < 400 for n in counts.values()), counts
    rng = ChainRng(5)
    draws = [rng.geometric(probability_threshold(0.25)) for _ in range(50_000)]
    assert abs(sum(d >= 1 for d in draws) / len(draws) - 0.25) < 0.01
    assert abs(sum(d >= 2 for d in draws) / len(draws) - 0.0625) < 0.005
    assert probability_threshold(0.0) == 0 and all(ChainRng(1).geometric(0) == 0 for _ in range(10))
