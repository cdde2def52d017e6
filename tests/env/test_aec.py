"""The PettingZoo AEC environment (tienlen.env.aec): the API, rewards, seeding, views.

Rule (docs/env.md): for every preset and 2–4 players the environment passes PettingZoo's own
``api_test``; a seat's rewards add up to its match score under ``points`` (the engine's points)
and to its place rewards under ``places``; a seed reproduces the deal and the whole match; the
agent on turn has the engine's seat view in its info.
"""

from __future__ import annotations

import random
import subprocess
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from tests.env.positions import SETUPS
from tienlen.engine import Match, seat_view
from tienlen.env import ACTION_COUNT, encode_view
from tienlen.env.aec import TienLenEnv, env
from tienlen.env.game import IllegalAction, place_reward

# What api_test says of any environment whose observation is a dict of the observation and the action mask
# (PettingZoo's own classic games are on its list of exceptions); anything else it says fails the test.
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
)


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_pettingzoos_api_test_passes(preset: str, players: int) -> None:
    """Rule: pettingzoo.test.api_test passes for every preset and player count, warning only of the dict
    observation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(TienLenEnv(preset=preset, players=players), num_cycles=300)
    assert {str(w.message) for w in caught} <= set(EXPECTED_WARNINGS)


def play_out(environment: TienLenEnv, seed: int, rng: random.Random) -> dict[str, float]:
    """Play a seeded match with random allowed actions; every agent's rewards, summed as ``last()`` gives them."""
    environment.reset(seed=seed)
    earned = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _info = environment.last()
        earned[agent] += reward
        if terminated or truncated:
            environment.step(None)
            continue
        allowed = np.flatnonzero(observation["action_mask"])
        environment.step(int(allowed[rng.randrange(len(allowed))]))
    return earned


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_points_rewards_add_up_to_the_engines_match_scores(preset: str, players: int) -> None:
    """Rule: with reward="points" each seat's rewards over a match sum to the engine's score for it."""
    environment = TienLenEnv(preset=preset, players=players, reward="points")
    rng = random.Random(players)
    for seed in range(3):
        earned = play_out(environment, seed, rng)
        match = environment.game.current
        assert match.outcome is not None and environment.agents == []
        assert [earned[f"seat_{s}"] for s in range(players)] == list(match.outcome.scores)
        assert [sum(result.points[s] for result in match.completed) for s in range(players)] == list(
            match.outcome.scores
        )


@pytest.mark.parametrize("players", [2, 3, 4])
def test_places_rewards_are_the_place_rewards_of_every_hand(players: int) -> None:
    """Rule: with reward="places" a seat earns +1 for first … -1 for last in each hand; every hand sums to 0."""
    environment = TienLenEnv(preset="classic", players=players, reward="places")
    earned = play_out(environment, 11, random.Random(1))
    completed = environment.game.current.completed
    assert len(completed) >= 5
    for seat in range(players):
        expected = sum(place_reward(result.places.index(seat) + 1, players) for result in completed)
        assert earned[f"seat_{seat}"] == pytest.approx(expected)
    assert sum(earned.values()) == pytest.approx(0)
    assert place_reward(1, players) == 1 and place_reward(players, players) == -1


def test_a_seed_reproduces_the_deal_and_the_match_and_another_seed_does_not() -> None:
    """Rule: reset(seed=s) deals exactly the hands Match.new deals from random.Random(s), and the same
    actions give the same observations; a later unseeded reset goes on reproducibly; another seed deals
    other hands."""
    first, second = TienLenEnv(), TienLenEnv()
    first.reset(seed=42)
    second.reset(seed=42)
    reference, _ = Match.new(first.game.rules, random.Random(42))
    assert first.game.current.hands == second.game.current.hands == reference.hands
    rng = random.Random(3)
    for _ in range(60):
        a, b = first.last(), second.last()
        assert np.array_equal(a[0]["observation"], b[0]["observation"])
        assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])
        allowed = np.flatnonzero(a[0]["action_mask"])
        action = int(allowed[rng.randrange(len(allowed))])
        first.step(action)
        second.step(action)
    first.reset()
    second.reset()
    assert first.game.current.hands == second.game.current.hands
    second.reset(seed=43)
    assert first.game.current.hands != second.game.current.hands


def test_the_agent_on_turn_sees_the_engines_seat_view_and_its_encoding() -> None:
    """Rule: info["view"] of the agent on turn is the engine's seat_view; the observation is its encoding;
    the other agents' masks are all 0."""
    environment = env(preset="standard", players=3)
    environment.reset(seed=5)
    for _ in range(30):
        agent = environment.agent_selection
        seat = environment.seat_of[agent]
        observation, _reward, _terminated, _truncated, info = environment.last()
        assert info["view"] == seat_view(environment.game.current, seat)
        assert np.array_equal(observation["observation"], encode_view(info["view"]))
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        allowed = np.flatnonzero(observation["action_mask"])
        environment.step(int(allowed[-1]))


def test_an_action_the_mask_forbids_is_refused_and_changes_nothing() -> None:
    """Rule: stepping a masked-out index raises IllegalAction and leaves the match as it was."""
    environment = TienLenEnv()
    environment.reset(seed=9)
    observation = environment.observe(environment.agent_selection)
    forbidden = int(np.flatnonzero(observation["action_mask"] == 0)[0])  # pass: the opening lead must play
    before = list(environment.game.current.hands)
    with pytest.raises(IllegalAction):
        environment.step(forbidden)
    assert environment.game.current.hands == before
    with pytest.raises(ValueError):
        TienLenEnv(reward="wins")  # type: ignore[arg-type]


def test_rules_overrides_and_a_fixed_deal_reach_the_match() -> None:
    """Rule: rules overrides apply to the preset (as POST /v1/matches takes them); options["deal"] fixes
    the first hand."""
    environment = TienLenEnv(preset="classic", players=2, rules={"hands": 2, "end_on_first_out": True})
    assert environment.game.rules.hands == 2 and environment.game.rules.end_on_first_out
    environment.reset(options={"deal": [["3S", "4S"], ["5H", "2H"]]})
    assert [bin(h).count("1") for h in environment.game.current.hands] == [2, 2]
    environment.render_mode = "ansi"
    assert "seat 0: 3S 4S" in (environment.render() or "")


def test_env_and_raw_env_follow_pettingzoos_classic_convention() -> None:
    """Rule: as PettingZoo's classic environments, ``env()`` is ``raw_env`` (the class, TienLenEnv) in the
    order-enforcing and out-of-bounds wrappers, passes api_test, and ``tienlen.env`` gives both names without
    importing PettingZoo until one is used."""
    from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

    import tienlen.env as package
    from tienlen.env import aec

    assert aec.raw_env is TienLenEnv and package.raw_env is TienLenEnv and package.env is env
    wrapped = env(preset="classic", players=2)
    assert isinstance(wrapped, OrderEnforcingWrapper) and isinstance(wrapped.env, AssertOutOfBoundsWrapper)
    assert isinstance(wrapped.unwrapped, TienLenEnv) and wrapped.metadata["name"] == "tienlen_v0"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(preset="standard", players=4), num_cycles=100)
    assert {str(w.message) for w in caught} <= set(EXPECTED_WARNINGS)
    code = "import sys, tienlen.env; assert 'pettingzoo' not in sys.modules and 'gymnasium' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_wrapped_env_refuses_steps_before_reset_indices_out_of_the_space_and_masked_ones() -> None:
    """Rule: through env()'s wrappers a step before reset is an error, an index outside the action space is
    refused (AssertionError), and a masked-out index still raises IllegalAction and changes nothing."""
    wrapped = env()
    with pytest.raises(AssertionError, match="reset"):  # OrderEnforcingWrapper: reset must come first
        wrapped.step(0)
    wrapped.reset(seed=9)
    before = list(wrapped.unwrapped.game.current.hands)
    with pytest.raises(AssertionError):
        wrapped.step(ACTION_COUNT)
    forbidden = int(np.flatnonzero(wrapped.observe(wrapped.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        wrapped.step(forbidden)
    assert wrapped.unwrapped.game.current.hands == before
