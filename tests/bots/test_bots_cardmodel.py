"""Hard's reading of the table: the card model's probabilities and the weighted particles (its deals).

The hidden hands are what a seat cannot see (docs/rules.md §5); a deal must fit
every seat's count, and a play or a pass of another seat that Medium would not
have made holding a dealt hand makes that deal less likely.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.bots import assert_hands_fit, seeded_match
from tienlen.bots import bot_rng, choose
from tienlen.bots.cardmodel import FEATURES, ModelDeals, card_probabilities, holder_count, load_weights
from tienlen.bots.infer import ActionEvent, action_events, medium_would
from tienlen.bots.particles import MISS_LIKELIHOOD, ParticleDeals
from tienlen.engine import PRESET_NAMES, SeatView, seat_view
from tienlen.engine.cards import indices
from tienlen.engine.combos import classify


def _view_after(preset: str, players: int, seed: int, steps: int) -> SeatView | None:
    """The view of the seat on turn after Medium plays ``steps`` actions of a seeded match (None: it ended)."""
    match = seeded_match(preset, players, seed)
    for _ in range(steps):
        if match.outcome is not None or match.turn is None:
            return None
        seat = match.turn
        action = choose("medium", seat_view(match, seat), match.legal_plays(), bot_rng(match, seat))
        match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)
    if match.outcome is not None or match.turn is None:
        return None
    view = seat_view(match, match.turn)
    return view if view.opponents else None


positions = st.tuples(st.sampled_from(PRESET_NAMES), st.integers(2, 4), st.integers(0, 10_000), st.integers(0, 40))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions)
def test_card_probabilities_sum_to_one_per_card(position: tuple[str, int, int, int]) -> None:
    """Every unseen card has a probability per possible holder; they sum to 1, and a holder's sum comes close
    to its count of cards (with fewer than four players, the cards out of play are one more holder)."""
    view = _view_after(*position)
    if view is None:
        return
    unseen, seats, probs = card_probabilities(view)
    assert unseen == list(indices(view.unseen))
    for i in range(len(unseen)):
        assert sum(row[i] for row in probs) == pytest.approx(1.0)
        assert all(row[i] >= 0.0 for row in probs)
    for h, seat in enumerate(seats):
        assert sum(probs[h]) == pytest.approx(holder_count(view, seat), abs=0.05)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 2**32))
def test_deals_never_hold_a_played_card_or_the_seats_own(position: tuple[str, int, int, int], seed: int) -> None:
    """The model's deals and the particles fit the counts and never give another seat a card already played
    or a card of the seat's own hand (docs/rules.md §5)."""
    view = _view_after(*position)
    if view is None:
        return
    events = action_events(view)
    model, particles = ModelDeals(view, events, random.Random(seed)), ParticleDeals(view, events, random.Random(seed))
    for _ in range(3):
        assert_hands_fit(view, model.next_deal())
        assert_hands_fit(view, particles.next_deal())
    assert particles.weights and all(0.0 < w <= 1.0 for w in particles.weights)


def test_same_seed_same_particles() -> None:
    """Same view and seed: the same particles, weights and deals handed out."""
    view = _view_after("standard", 4, 3, 20)
    assert view is not None
    first, again = (ParticleDeals(view, action_events(view), random.Random(9)) for _ in range(2))
    assert [first.next_deal() for _ in range(5)] == [again.next_deal() for _ in range(5)]
    assert first.weights == again.weights


def _single(card: int) -> ActionEvent:
    """Seat 1 passed, not pass-locked, on a single played by seat 0, which then held one card (urgent)."""
    table = classify(1 << card)
    assert table is not None
    return ActionEvent(seat=1, table=table, table_seat=0, locked=False, later=0, cards_left=(1, 5, 5, 5))


NINE_SPADES, TEN_SPADES, FIVE_HEARTS, SIX_CLUBS, SEVEN_SPADES = 24, 28, 11, 13, 16
LOW_HAND = sum(1 << c for c in (0, 5, FIVE_HEARTS, SIX_CLUBS, SEVEN_SPADES))  # 3S 4C 5H 6C 7S: nothing beats 9S


@pytest.mark.parametrize(
    ("rule", "hand", "explained"),
    [
        ("a pass with nothing higher than the single is forced: any such hand explains it", LOW_HAND, True),
        (
            "the table's owner holds one card: Medium answers with anything it can, so holding 10S rules the pass out",
            LOW_HAND & ~1 | 1 << TEN_SPADES,
            False,
        ),
    ],
)
def test_an_urgent_pass_rules_out_every_card_above_the_single(rule: str, hand: int, explained: bool) -> None:
    """Medium, with a nearly-out owner of the table, answers a single whenever it can (docs/bots.md)."""
    view = _view_after("standard", 4, 1, 0)
    assert view is not None
    assert medium_would(_single(NINE_SPADES), hand, view) is explained, rule


def test_particles_that_break_an_urgent_pass_weigh_less() -> None:
    """A deal giving the passing seat a card above the single leaves the pass unexplained: its weight is
    MISS_LIKELIHOOD, the weight of a deal that explains every action is 1."""
    view = _view_after("standard", 4, 1, 0)
    assert view is not None
    deals = ParticleDeals(view, [_single(NINE_SPADES)], random.Random(1))
    assert deals._misses(1, LOW_HAND) == 0
    assert deals._misses(1, LOW_HAND & ~1 | 1 << TEN_SPADES) == 1
    assert MISS_LIKELIHOOD < 1.0


def test_shipped_model_reads_passes_and_skipped_cards_as_evidence_against() -> None:
    """The trained weights: a card the seat could have beaten a single with but passed or answered higher, or
    lower than a single it led, is less likely in its hand (negative weights); the count prior stays near 1."""
    w = dict(zip(FEATURES, load_weights(), strict=True))
    assert 0.5 < w["log_count"] < 1.5
    for name in ("passed_single_below", "skipped_single", "led_single_above"):
        assert w[name] < 0.0, name
