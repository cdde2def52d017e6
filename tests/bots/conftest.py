"""Shared fixtures for the bot tests: seeded one-hand matches and bot-driven moves."""

from __future__ import annotations

import random

import pytest

from tests.support.bots import Advance, MatchFactory, seeded_match
from tienlen.bots import choose
from tienlen.bots.driver import bot_rng
from tienlen.engine import Match, resolve_rules, seat_view


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
    return seeded_match


@pytest.fixture
def advance_bots() -> Advance:
    """Advance a match by bot actions: ``advance_bots(match, steps, level)``."""
    return advance


@pytest.fixture
def bomb_deal_match() -> Match:
    """A one-hand standard match: seat 0 leads 3S, seat 1 holds the run of pairs 6-6 7-7 8-8, seat 2 holds 2H.

    Used to reach a single 2 on the table with a pass-locked seat that can bomb it.
    """
    deal = [
        ["3S", "5C", "6C", "7C", "8D", "9D", "10D", "JD", "QD", "KD", "AD", "4D", "5D"],
        ["4S", "4C", "6S", "6D", "7S", "7D", "8S", "8C", "9S", "JS", "QS", "KS", "AS"],
        ["2H", "5S", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "3H", "4H"],
        ["3C", "9C", "10C", "JC", "QC", "KC", "AC", "2C", "3D", "5H", "10S", "2S", "2D"],
    ]
    match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}), random.Random(1), deal)
    return match
