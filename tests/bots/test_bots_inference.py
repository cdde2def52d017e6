"""Hard's sampling reads the public history (plays and passes); its playouts play exactly Medium (memoized)."""

from __future__ import annotations

import random

import pytest

from tests.support.bots import Advance, MatchFactory
from tienlen.bots import bot_rng, choose
from tienlen.bots.infer import action_events, unexplained
from tienlen.bots.medium import decide
from tienlen.bots.playouts import start_simulation
from tienlen.bots.sampling import sample_hands
from tienlen.engine import PRESET_NAMES, seat_view
from tienlen.engine.cards import FULL_DECK


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
def test_public_history_explains_every_medium_action(preset: str, players: int, make_match: MatchFactory) -> None:
    """Playing the public history again (docs/rules.md §5: battles, pass locks, re-entry) gives each action's
    table, locks and counts: with the true hands Medium would have chosen every recorded play and pass of the
    other seats (leads too), so none is unexplained."""
    plays = passes = leads = 0
    for seed in range(3):
        match = make_match(preset, players, seed)
        while match.outcome is None and match.turn is not None:
            seat = match.turn
            view = seat_view(match, seat)
            events = action_events(view)
            assert all(ev.seat != seat for ev in events)
            plays += sum(1 for ev in events if ev.action)
            passes += sum(1 for ev in events if not ev.action and ev.table is not None)
            leads += sum(1 for ev in events if ev.table is None)
            assert unexplained(events, list(match.hands), view, 99) == 0
            action = choose("medium", view, match.legal_plays(), bot_rng(match, seat))
            if action.is_pass:
                match.pass_turn(seat)
            else:
                match.play(seat, action.mask)
    assert plays > 0 and passes > 0 and leads > 0


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_loop_is_the_step_by_step_medium_playout(preset: str, players: int, make_match: MatchFactory) -> None:
    """run_until_first_out (the hoisted hot loop) ends where stepping policy_move by hand ends (docs/rules.md §5)."""
    for seed in range(4):
        match = make_match(preset, players, seed)
        assert match.turn is not None
        view = seat_view(match, match.turn)
        hands = sample_hands(view, random.Random(seed))
        fast, slow = start_simulation(view, list(hands)), start_simulation(view, list(hands))
        fast.run_until_first_out()
        while not (slow.places or slow.done):
            slow.step(slow.policy_move())
        assert (fast.hands, fast.turn, fast.table, fast.locked, fast.places, fast.steps) == (
            slow.hands,
            slow.turn,
            slow.table,
            slow.locked,
            slow.places,
            slow.steps,
        )
        assert fast.places, "a playout runs until a seat is out"
