"""Shared fixtures for the bot tests: seeded one-hand matches and bot-driven moves."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tienlen.bots import choose
from tienlen.bots.driver import bot_rng
from tienlen.engine import Match, resolve_rules, seat_view

MatchFactory = Callable[..., Match]
Advance = Callable[[Match, int, str], None]


def new_match(preset: str = "standard", players: int = 4, seed: int = 1, **overrides: object) -> Match:
    """A fresh one-hand match of a preset, dealt from ``seed``."""
    rules = resolve_rules({"preset": preset, "hands": 1, **overrides}, players=players)
    match, _ = Match.new(rules, random.Random(seed))
    return match


def advance(match: Match, steps: int, level: str = "easy") -> None:
    """Let bots of one level play ``steps`` actions (or until the match ends)."""
    for _ in range(steps):
        if match.outcome is not None or match.turn is None:
            return
        seat = match.turn
        action = choose(level, seat_view(match, seat), match.legal_plays(), bot_rng(match, seat))
        if action.is_pass:
            match.pass_turn(seat)
        else:
            match.play(seat, action.mask)


@pytest.fixture
def make_match() -> MatchFactory:
    """Build seeded one-hand matches: ``make_match(preset, players, seed, **overrides)``."""
    return new_match


@pytest.fixture
def advance_bots() -> Advance:
    """Advance a match by bot actions: ``advance_bots(match, steps, level)``."""
    return advance
