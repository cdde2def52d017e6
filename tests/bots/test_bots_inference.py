"""Hard's sampling reads the public history (plays and passes); its playouts play exactly Medium (memoized)."""

from __future__ import annotations

import random

import pytest

from tests.support.bots import Advance, MatchFactory, assert_hands_fit
from tienlen.bots import bot_rng, choose
from tienlen.bots.hard import sample_consistent, sample_hands, start_simulation
from tienlen.bots.infer import action_events, pass_events, unexplained
from tienlen.bots.medium import decide
from tienlen.engine import PRESET_NAMES, seat_view
from tienlen.engine.cards import FULL_DECK


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 4])
def test_pass_replay_explains_every_medium_pass_with_the_true_hands(
    preset: str, players: int, make_match: MatchFactory
) -> None:
    """Replaying the public history (docs/rules.md §5: battles, pass locks, re-entry) finds each pass's table.

    With the true hands, Medium would have passed at every recorded pass, so none is unexplained.
    """
    seen = 0
    for seed in range(3):
        match = make_match(preset, players, seed)
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            view = seat_view(match, seat)
            events = pass_events(view)
            seen += len(events)
            assert all(ev.seat != seat for ev in events)
            assert unexplained(events, list(match.hands), view, 99) == 0
            action = choose("medium", view, match.legal_plays(), bot_rng(match, seat))
            if action.is_pass:
                match.pass_turn(seat)
            else:
                match.play(seat, action.mask)
    assert seen > 0


def test_consistent_samples_fit_card_counts_and_exclude_known_cards(
    make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Samples filtered by the passes still deal only unseen cards, by each seat's count."""
    match = make_match("standard", 4, 5)
    advance_bots(match, 14, "medium")
    assert match.turn is not None
    view = seat_view(match, match.turn)
    events = pass_events(view)
    rng = random.Random(0)
    for _ in range(10):
        hands, _ = sample_consistent(view, rng, events)
        assert_hands_fit(view, hands)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playout_policy_is_mediums_choice(preset: str, make_match: MatchFactory, advance_bots: Advance) -> None:
    """The memoized playout policy returns exactly what Medium's decide returns, move by move."""
    for seed in range(3):
        match = make_match(preset, 4, seed)
        advance_bots(match, 3 * seed, "medium")
        assert match.turn is not None
        view = seat_view(match, match.turn)
        rng = random.Random(seed)
        for _ in range(3):
            sim = start_simulation(view, sample_hands(view, rng))
            while not sim.done:
                seat, hand = sim.turn, sim.hands[sim.turn]
                cards_left = [h.bit_count() for h in sim.hands]
                unseen = FULL_DECK & ~hand & ~sim.played
                table, owner = sim.table, sim.table_seat
                ref = decide(seat, hand, table, owner, cards_left, sim.bombs, unseen, sim.answers(), sim.start_card)
                if table is None and ref == 0:
                    ref = hand & -hand
                move = sim.policy_move()
                assert move == ref
                sim.step(move)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_replay_explains_every_medium_play_and_pass(preset: str, players: int, make_match: MatchFactory) -> None:
    """Replaying the public history (docs/rules.md §5) gives each action's table, locks and counts: with the
    true hands Medium would have chosen every recorded play and pass of the other seats (leads too)."""
    plays = leads = 0
    for seed in range(3):
        match = make_match(preset, players, seed)
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            view = seat_view(match, seat)
            events = action_events(view)
            assert all(ev.seat != seat for ev in events)
            plays += sum(1 for ev in events if ev.action)
            leads += sum(1 for ev in events if ev.table is None)
            assert unexplained(events, list(match.hands), view, 99) == 0
            action = choose("medium", view, match.legal_plays(), bot_rng(match, seat))
            if action.is_pass:
                match.pass_turn(seat)
            else:
                match.play(seat, action.mask)
    assert plays > 0 and leads > 0


def test_weighted_samples_explain_the_actions_better_than_plain_draws(
    make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Deals drawn in proportion to the likelihood of the others' actions leave fewer of them unexplained."""
    weighted = plain = 0
    for seed in range(4):
        match = make_match("standard", 4, 20 + seed)
        advance_bots(match, 16, "medium")
        assert match.turn is not None
        view = seat_view(match, match.turn)
        events = action_events(view)
        assert events
        rng = random.Random(seed)
        for _ in range(25):
            hands, _ = sample_consistent(view, rng, events)
            weighted += unexplained(events, hands, view, 99)
            plain += unexplained(events, sample_hands(view, rng), view, 99)
    assert weighted < 0.8 * plain, (weighted, plain)

