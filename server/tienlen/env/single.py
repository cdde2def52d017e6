"""The Gymnasium single-agent wrapper: one learning seat, the others played by house bots or callables.

    from tienlen.env.single import TienLenSingleEnv

    env = TienLenSingleEnv(opponents="easy", seat=0)
    observation, info = env.reset(seed=1)
    while True:
        legal = observation["action_mask"].nonzero()[0]
        observation, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated:
            break

An opponent is a house level (``easy``, ``medium``, ``hard``, or ``random``)
played as the server plays it (:func:`tienlen.bots.choose` with the match's
reproducible :func:`tienlen.bots.bot_rng`), or a callable with the house
bots' signature ``(view, legal, rng) -> Action``. After each action of the
learner the opponents play until the learner is on turn again or the match
ends; the reward is everything the learner earned meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Action, bot_rng, choose
from ..bots.driver import ARENA_LEVELS
from ..engine.match import LegalPlays
from ..engine.views import SeatView
from .actions import ACTION_COUNT
from .aec import Observation, observation_space
from .game import Game, Reward, make_rules

OpponentFn = Callable[[SeatView, LegalPlays, Any], Action]
"""A callable opponent: the seat's view, its legal plays and a ``random.Random`` in, an action out."""
Opponent = str | OpponentFn


class TienLenSingleEnv(gymnasium.Env[dict[str, Any], Any]):
    """Tiến Lên for one learner at ``seat``; ``opponents`` (one for all, or one per other seat) play the rest.

    ``preset``, ``players``, ``rules`` and ``reward`` are as for
    :class:`~.aec.TienLenEnv`. ``iterations`` bounds Hard's playouts (None:
    its fixed count, reproducible). ``info["view"]`` is the learner's
    :class:`~tienlen.engine.SeatView`.
    """

    def __init__(
        self,
        opponents: Opponent | Sequence[Opponent] = "easy",
        seat: int = 0,
        preset: str = "standard",
        players: int = 4,
        rules: Mapping[str, Any] | None = None,
        reward: Reward = "points",
        *,
        iterations: int | None = None,
    ) -> None:
        self.game = Game(make_rules(preset, players, rules), reward)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}")
        others = [s for s in range(players) if s != seat]
        chosen: list[Opponent] = (
            [opponents] * len(others) if isinstance(opponents, str) or callable(opponents) else list(opponents)
        )
        if len(chosen) != len(others):
            raise ValueError(f"give one opponent, or one for each of the {len(others)} other seats")
        self.opponents: dict[int, Opponent] = dict(zip(others, chosen, strict=True))
        for opponent in self.opponents.values():
            if isinstance(opponent, str) and opponent not in ARENA_LEVELS:
                raise ValueError(f"unknown level {opponent!r}: expected one of {', '.join(ARENA_LEVELS)} or a callable")
        self.seat = seat
        self.iterations = iterations
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        game = self.game
        seat = self.seat
        observation: Observation = {"observation": game.observation(seat), "action_mask": game.action_mask(seat)}
        return observation, {"view": game.view(self.seat)}

    def _play_opponents(self) -> float:
        """Let the opponents act until the learner is on turn or the match ends; the learner's reward meanwhile."""
        game = self.game
        earned = 0.0
        while not game.over and game.turn != self.seat:
            seat = game.turn
            assert seat is not None
            match = game.current
            view, legal, rng = game.view(seat), match.legal_plays(), bot_rng(match, seat)
            opponent = self.opponents[seat]
            if isinstance(opponent, str):
                action = choose(opponent, view, legal, rng, iterations=self.iterations)
            else:
                action = opponent(view, legal, rng)
            earned += game.act_mask(None if action.is_pass else action.mask)[self.seat]
        return earned

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match and play the opponents up to the learner's first turn.

        ``seed`` makes the deal and every house bot's choice reproducible;
        ``options["deal"]`` fixes the first hand (ValueError when the learner
        would get no turn in it).
        """
        super().reset(seed=seed)
        self.game.reset(seed, (options or {}).get("deal"))
        self.action_space.seed(seed)
        self._play_opponents()
        if self.game.over:
            raise ValueError("the match ended before the learner's first turn (a fixed deal?)")
        return self._observe()

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner takes ``action``, the opponents answer: (observation, reward, terminated, False, info)."""
        if self.game.turn != self.seat:
            raise RuntimeError("the match is over: call reset()")
        reward = self.game.act(int(action))[self.seat]
        reward += self._play_opponents()
        observation, info = self._observe()
        return observation, reward, self.game.over, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's action mask as booleans (the name sb3-contrib's MaskablePPO asks for)."""
        return self.game.action_mask(self.seat).astype(bool)
