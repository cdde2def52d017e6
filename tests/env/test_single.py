"""The Gymnasium single-agent wrapper (tienlen.env.single): one learner, house bots or callables for the rest.

Rule (docs/env.md): the wrapper passes Gymnasium's environment checker; the opponents play as the
server's bots play (the same level, the same reproducible generator); the learner's rewards add up
to its match score; a seed reproduces the match, the bots' choices included.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from gymnasium.utils import env_checker as checker
from gymnasium.utils import passive_env_checker as passive

from tienlen.bots import Action, play_bot_turns
from tienlen.bots.base import PASS_ACTION, play_action
from tienlen.engine import LegalPlays, Match, SeatView
from tienlen.env.actions import play_of
from tienlen.env.single import TienLenSingleEnv


def play_learner(environment: TienLenSingleEnv, seed: int, pick: int = 0) -> tuple[float, list[int]]:
    """Play a seeded match taking the ``pick``-th allowed index (0: the lowest); total reward, actions taken."""
    observation, _info = environment.reset(seed=seed)
    total, taken = 0.0, []
    while True:
        allowed = np.flatnonzero(observation["action_mask"])
        action = int(allowed[min(pick, len(allowed) - 1)])
        taken.append(action)
        observation, reward, terminated, truncated, _info = environment.step(action)
        total += reward
        assert not truncated
        if terminated:
            return total, taken


def test_gymnasiums_environment_checks_pass() -> None:
    """Rule: Gymnasium's environment checks pass: spaces, reset (return type, seeding, options) and the passive
    checks of reset and step. (``check_env`` as a whole also steps an index sampled without the action mask,
    which this environment refuses, as it refuses every illegal action.)"""
    environment = TienLenSingleEnv(opponents="easy", rules={"hands": 1})
    passive.check_action_space(environment.action_space)
    passive.check_observation_space(environment.observation_space)
    checker.check_reset_return_type(environment)
    checker.check_reset_seed_determinism(environment)
    checker.check_reset_options(environment)
    passive.env_reset_passive_checker(environment)
    observation, _info = environment.reset(seed=3)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    passive.env_step_passive_checker(environment, action)


@pytest.mark.parametrize(("preset", "players", "seat"), [("standard", 4, 2), ("classic", 3, 0), ("ladder", 2, 1)])
def test_the_learners_rewards_add_up_to_its_match_score(preset: str, players: int, seat: int) -> None:
    """Rule: with reward="points" the learner's rewards sum to its engine score; with "places" to its place
    rewards."""
    environment = TienLenSingleEnv(opponents="easy", seat=seat, preset=preset, players=players, reward="points")
    total, _ = play_learner(environment, seed=4)
    match = environment.game.current
    assert match.outcome is not None and total == match.outcome.scores[seat]


def test_house_opponents_choose_as_the_servers_bots_do() -> None:
    """Rule: with the learner playing what the house's Easy would, a whole match equals the one the server's
    bot loop (play_bot_turns, every seat Easy) plays from the same seed."""
    environment = TienLenSingleEnv(opponents="easy", seat=1, rules={"hands": 2})
    _observation, info = environment.reset(seed=21)
    reference, _ = Match.new(environment.game.rules, random.Random(21))
    play_bot_turns(reference, dict.fromkeys(range(4), "easy"))
    from tienlen.bots import bot_rng, choose
    from tienlen.env.actions import index_of

    while True:
        match = environment.game.current
        action = choose("easy", info["view"], match.legal_plays(), bot_rng(match, 1))
        _observation, _reward, terminated, _truncated, info = environment.step(index_of(action.mask))
        if terminated:
            break
    assert environment.game.current.completed == reference.completed
    assert environment.game.current.outcome == reference.outcome


def test_a_seed_reproduces_the_match_with_its_bots_and_medium_and_hard_play_too() -> None:
    """Rule: the same seed and actions give the same match; Medium and Hard (few playouts) can be the opponents,
    one level a seat."""
    environment = TienLenSingleEnv(opponents=["medium", "hard", "easy"], rules={"hands": 1}, iterations=8)
    first = play_learner(environment, seed=8, pick=1)
    log = list(environment.game.current.completed)
    again = play_learner(environment, seed=8, pick=1)
    assert first == again and environment.game.current.completed == log


def test_a_callable_opponent_plays_its_seats() -> None:
    """Rule: an opponent may be any callable (view, legal, rng) -> Action; it sees only its own seat's view."""
    seen: list[int] = []

    def highest(view: SeatView, legal: LegalPlays, rng: Any) -> Action:
        seen.append(view.seat)
        if legal.can_pass and rng.random() < 0.3:
            return PASS_ACTION
        return play_action(max(legal.plays, key=lambda p: p.top).mask) if legal.plays else PASS_ACTION

    environment = TienLenSingleEnv(opponents=highest, seat=3, players=4, rules={"hands": 1})
    play_learner(environment, seed=2)
    assert set(seen) == {0, 1, 2}


def test_bad_opponents_and_seats_are_refused() -> None:
    """Rule: an unknown level, a wrong number of opponents or a seat out of range is a ValueError."""
    with pytest.raises(ValueError):
        TienLenSingleEnv(opponents="grandmaster")
    with pytest.raises(ValueError):
        TienLenSingleEnv(opponents=["easy", "easy"], players=4)
    with pytest.raises(ValueError):
        TienLenSingleEnv(seat=4)


def test_the_action_masks_method_and_the_step_play_the_canonical_cards() -> None:
    """Rule: action_masks() is the observation's mask as booleans; a step plays play_of(index, hand)."""
    environment = TienLenSingleEnv(rules={"hands": 1})
    observation, info = environment.reset(seed=6)
    assert np.array_equal(environment.action_masks(), observation["action_mask"].astype(bool))
    index = int(np.flatnonzero(observation["action_mask"])[-1])
    expected = play_of(index, info["view"].hand)
    environment.step(index)
    match = environment.game.current
    assert (environment.seat, expected) in match.log
