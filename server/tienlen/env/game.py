"""The environments' shared core: one engine match stepped by action index, with rewards per seat.

:class:`Game` holds no Gymnasium or PettingZoo type: the AEC environment
(:mod:`.aec`), the single-agent wrapper (:mod:`.single`) and the benchmark
drive it. The engine referees every action, so the environments play exactly
the server's rules.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..engine.events import Event, HandEnded
from ..engine.match import Match
from ..engine.rules import RuleSet, resolve_rules
from ..engine.views import SeatView, seat_view
from .actions import ACTION_COUNT, PASS, action_mask, play_of
from .observe import Observer

Reward = Literal["points", "places"]
REWARDS: tuple[Reward, ...] = ("points", "places")
"""How a hand's end turns into rewards: the points the rules score, or a place reward (docs/env.md)."""


class IllegalAction(ValueError):
    """An action index the seat on turn may not take now (its mask entry is 0)."""


def make_rules(preset: str = "standard", players: int = 4, rules: Mapping[str, Any] | None = None) -> RuleSet:
    """The rule set of a preset for ``players`` seats with ``rules`` overrides (as ``POST /v1/matches`` takes)."""
    return resolve_rules({"preset": preset, **dict(rules or {})}, players=players)


def place_reward(place: int, players: int) -> float:
    """The ``places`` reward of a finishing place (from 1): +1 first, -1 last, evenly between; zero-sum."""
    return (players + 1 - 2 * place) / (players - 1)


class Game:
    """A match played by action index; :meth:`act` answers each seat's reward for that action.

    ``reward`` is ``points`` (each hand's points under the rules' scoring, so
    a seat's rewards add up to its match score) or ``places`` (each hand's
    :func:`place_reward`, whatever the scoring).
    """

    def __init__(self, rules: RuleSet, reward: Reward = "points") -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}")
        self.rules = rules
        self.reward: Reward = reward
        self.rng = random.Random()
        self.match: Match | None = None
        self.hands_played = 0
        self.observer = Observer(rules)
        self._views: dict[int, SeatView] = {}  # the current position's views, made once each

    def reset(self, seed: int | None = None, deal: Sequence[Iterable[str]] | None = None) -> list[Event]:
        """Start a new match: ``seed`` reseeds the game's generator (the deal follows from it); answer its events.

        Without ``seed`` the generator goes on from where it was, so a run of
        resets after one seeded reset is reproducible too. ``deal`` fixes the
        first hand (one list of cards a seat), as ``POST /v1/matches`` allows.
        """
        if seed is not None:
            self.rng.seed(seed)
        self.match, events = Match.new(self.rules, self.rng, deal)
        self._views.clear()
        return events

    @property
    def current(self) -> Match:
        """The match in play (after :meth:`reset`)."""
        if self.match is None:
            raise RuntimeError("call reset() first")
        return self.match

    def _playing(self) -> Match:
        """:attr:`current`, without the property's cost on the hot paths."""
        match = self.match
        if match is None:
            raise RuntimeError("call reset() first")
        return match

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self._playing().outcome is not None

    @property
    def turn(self) -> int | None:
        """The seat on turn, None once the match is over."""
        return self._playing().turn

    def legal_masks(self) -> list[int]:
        """The engine's legal plays (card masks) of the seat on turn."""
        return self.current.legal_masks()

    def can_pass(self) -> bool:
        """Whether the seat on turn may pass."""
        match = self.current
        return match.turn is not None and match.table is not None

    def action_mask(self, seat: int) -> npt.NDArray[np.int8]:
        """The seat's action mask: its legal actions when on turn, all 0 otherwise."""
        match = self._playing()
        if match.turn != seat or match.outcome is not None:
            return np.zeros(ACTION_COUNT, dtype=np.int8)
        return action_mask(match.legal_masks(), match.table is not None)

    def view(self, seat: int) -> SeatView:
        """The seat's view, the engine's own (the server writes exactly this as the JSON seat view)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = seat_view(self.current, seat)
        return view

    def position(self) -> Match:
        """A copy of the match as it stands now, to make views of later (the match itself moves on in place)."""
        return frozen_copy(self._playing())

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The seat's encoded view: equal to :func:`~.encoding.encode_view` of :meth:`view`, read from the match."""
        return self.observer.observe(self._playing(), seat)

    def act(self, index: int) -> list[float]:
        """The seat on turn takes action ``index``; answer every seat's reward for it (hands it ended).

        Raises :class:`IllegalAction` when the action is not allowed now.
        """
        match = self._playing()
        seat = match.turn
        if seat is None:
            raise IllegalAction("the match is over")
        if index == PASS:
            if match.table is None:
                raise IllegalAction("the leader of a battle must play")
            return self.rewards_of(match.pass_turn(seat))
        try:
            mask = play_of(index, match.hands[seat])
        except ValueError as error:
            raise IllegalAction(str(error)) from None
        if mask not in match.legal_masks():
            raise IllegalAction(f"action {index} is not legal now")
        return self.rewards_of(match.play(seat, mask))

    def act_mask(self, mask: int | None) -> list[float]:
        """The seat on turn plays these cards (None or 0: passes), as a house bot or an opponent does."""
        match = self.current
        seat = match.turn
        if seat is None:
            raise IllegalAction("the match is over")
        return self.rewards_of(match.pass_turn(seat) if not mask else match.play(seat, mask))

    def rewards_of(self, events: Sequence[Event]) -> list[float]:
        """Every seat's reward for these events: what each hand that ended gives."""
        self._views.clear()  # every action moves the position on
        players = self.rules.players
        rewards = [0.0] * players
        for event in events:
            if isinstance(event, HandEnded):
                self.hands_played += 1
                if self.reward == "points":
                    for seat, points in enumerate(event.points):
                        rewards[seat] += points
                else:
                    for place, seat in enumerate(event.places, start=1):
                        rewards[seat] += place_reward(place, players)
        return rewards


_COPIED = (
    "rules", "deal_seed", "hand_number", "hands", "turn", "table", "table_seat", "locked", "places", "scores",
    "completed", "start_card", "tied", "outcome", "log", "fair", "_legal",
)  # fmt: skip
assert tuple(f.name for f in dataclasses.fields(Match)) == _COPIED, "frozen_copy copies every field of Match"


def frozen_copy(match: Match) -> Match:
    """A copy of the match that its later actions leave as it is (a view made of it later is the view of now).

    The lists a match changes in place (hands, places, scores, completed, log) are copied; the rest is immutable.
    """
    return Match(
        match.rules,
        match.deal_seed,
        match.hand_number,
        list(match.hands),
        match.turn,
        match.table,
        match.table_seat,
        match.locked,
        list(match.places),
        list(match.scores),
        list(match.completed),
        match.start_card,
        match.tied,
        match.outcome,
        list(match.log),
        match.fair,
        None,
    )
