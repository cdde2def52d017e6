"""Helpers of the bot tests: seeded matches, the types of their fixtures and the checks they share."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from tests.support.tools import require_tool
from tienlen.bots import compiled
from tienlen.bots.compiled import CompiledBots
from tienlen.bots.medium import choose_medium
from tienlen.engine import Match, SeatView, resolve_rules, seat_view
from tienlen.engine.accel import BUILD_HINT, load_core
from tienlen.engine.match import LegalPlays
from tienlen.engine.rules import PRESET_NAMES

__all__ = [
    "PRESETS_AND_SEATS",
    "Advance",
    "MatchFactory",
    "assert_hands_fit",
    "medium_positions",
    "required_core",
    "seeded_match",
]
# Every preset with every seat count: the cases of the side-by-side tests of the compiled core.
PRESETS_AND_SEATS = [(preset, players) for preset in PRESET_NAMES for players in (2, 3, 4)]


def required_core() -> CompiledBots:
    """The compiled core's bots; without it the calling test module skips ("needs tienlen_native: ... run
    `make native`"), or fails when ``TIENLEN_REQUIRE_TOOLS=1``."""
    core = compiled.bots_of(load_core())
    require_tool("tienlen_native", core is not None, f"the compiled core is not built: {BUILD_HINT}")
    assert core is not None
    return core


def seeded_match(preset: str = "standard", players: int = 4, seed: int = 1, **overrides: object) -> Match:
    """A fresh one-hand match of a preset (rule overrides applied last), dealt from ``seed``."""
    rules = resolve_rules({"preset": preset, "hands": 1, **overrides}, players=players)
    match, _ = Match.new(rules, random.Random(seed))
    return match


def medium_positions(preset: str, players: int, seeds: range) -> Iterator[tuple[SeatView, LegalPlays]]:
    """Every position of one-hand Medium self-play on these seeds (the seat on turn's view and plays)."""
    for seed in seeds:
        match = seeded_match(preset, players, seed)
        while match.turn is not None:
            seat = match.turn
            view, legal = seat_view(match, seat), match.legal_plays()
            yield view, legal
            action = choose_medium(view, legal, random.Random(0))
            match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)


class MatchFactory(Protocol):
    """The type of the ``make_match`` fixture: a seeded one-hand match of a preset, with rule overrides."""

    def __call__(self, preset: str = ..., players: int = ..., seed: int = ..., **overrides: object) -> Match: ...


Advance = Callable[[Match, int, str], None]
"""The type of the ``advance_bots`` fixture: ``advance_bots(match, steps, level)``."""


def assert_hands_fit(view: SeatView, hands: Sequence[int]) -> None:
    """A sampled deal fits what the seat knows: its own hand, every seat's card count, no card
    twice, no card already played, and others' cards only from the unseen ones."""
    assert hands[view.seat] == view.hand
    union = 0
    for seat, hand in enumerate(hands):
        assert hand.bit_count() == view.cards_left[seat]
        assert union & hand == 0
        union |= hand
    assert union & view.played == 0
    assert union & ~view.hand & ~view.unseen == 0
