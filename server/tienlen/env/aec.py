"""The PettingZoo AEC environment: every seat an agent, for any preset and 2–4 players (docs/env.md).

    from tienlen.env import aec

    env = aec.env(preset="classic", players=3, reward="places")
    env.reset(seed=7)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)

Agents are ``seat_0`` … ``seat_{n-1}``. An observation is a dict:
``observation`` (the :mod:`.encoding` of the seat's view) and ``action_mask``
(over the :mod:`.actions` space). ``info["view"]`` of the agent on turn is the
seat's view itself, the engine's :class:`~tienlen.engine.SeatView` that the
server writes as its JSON seat view (and every agent's, once the match is
over); other agents' infos are empty. The view is made when the info is first
read (:class:`~.info.ViewInfo`), of the position the info was given at, so a
loop that never reads it does not pay for it. A match runs over the rules'
hands; every agent terminates when it ends.

As in PettingZoo's classic environments, :func:`env` gives the environment in
PettingZoo's usual wrappers (an action out of the space is an error; ``step``
or ``last`` before ``reset`` is an error) and :data:`raw_env` is the
unwrapped class (:class:`TienLenEnv`, still importable by that name).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine.cards import format_mask
from .actions import ACTION_COUNT
from .encoding import OBS_SIZE
from .game import Game, Reward, make_rules
from .info import ViewInfo

Observation = dict[str, npt.NDArray[Any]]


def observation_space() -> spaces.Dict:
    """The observation space: the encoded view and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


class TienLenEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """Tiến Lên as a PettingZoo AEC environment, refereed by the server's engine.

    ``preset`` and ``rules`` (overrides, as ``POST /v1/matches`` takes them)
    choose the rules for ``players`` seats; ``reward`` is ``points`` or
    ``places`` (:class:`~.game.Game`). ``with_view`` (default True) puts the
    seat's :class:`~tienlen.engine.SeatView` in the info of the agent on turn.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "tienlen_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        preset: str = "standard",
        players: int = 4,
        rules: Mapping[str, Any] | None = None,
        reward: Reward = "points",
        *,
        with_view: bool = True,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError("render_mode must be None or 'ansi'")
        self.game = Game(make_rules(preset, players, rules), reward)
        self.with_view = with_view
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space() for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: :data:`~.actions.ACTION_COUNT` indices."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match. ``seed`` makes it reproducible; ``options["deal"]`` fixes the first hand."""
        self.game.reset(seed, (options or {}).get("deal"))
        for space in self.action_spaces.values():
            space.seed(None if seed is None else seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat on turn and give it its view."""
        turn = self.game.turn
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]
            if self.with_view:
                self.infos[self.agent_selection] = ViewInfo(self.game.position(), turn)

    def observe(self, agent: str) -> Observation:
        """The agent's encoded view and action mask (all 0 when it is not on turn)."""
        seat = self.seat_of[agent]
        return {"observation": self.game.observation(seat), "action_mask": self.game.action_mask(seat)}

    def step(self, action: int | None) -> None:
        """The agent on turn takes ``action`` (an index; None once it has terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is on turn: None is an action only after the match ends")
        self._cumulative_rewards[agent] = 0.0
        rewards = self.game.act(int(action))
        self.rewards = dict(zip(self.possible_agents, rewards, strict=True))  # every agent plays to the end
        self.infos[agent] = {}
        if self.game.over:
            self.terminations = {a: True for a in self.agents}
            if self.with_view:
                position = self.game.position()
                self.infos = {a: ViewInfo(position, self.seat_of[a]) for a in self.agents}
        else:
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table, each hand and whose turn it is, as text."""
        if self.render_mode != "ansi":
            return None
        match = self.game.current
        table = "-" if match.table is None else " ".join(format_mask(match.table.mask))
        lines = [f"hand {match.hand_number}, table: {table}, turn: {match.turn}, scores: {match.scores}"]
        lines += [f"seat {seat}: {' '.join(format_mask(hand))}" for seat, hand in enumerate(match.hands)]
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


raw_env = TienLenEnv  # PettingZoo's name for the unwrapped environment


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's classic environments are made: :data:`raw_env` (``kwargs`` as
    :class:`TienLenEnv` takes them) in the order-enforcing and out-of-bounds wrappers.

    An index the mask forbids still raises :class:`~.game.IllegalAction` and
    changes nothing (no penalty wrapper); the wrappers pass every attribute of
    the environment through (``env.game``, ``env.seat_of``).
    """
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))
