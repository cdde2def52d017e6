"""Bots see only their seat view: hidden hands and the deck order never change a choice."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.support.bots import Advance, MatchFactory
from tienlen.bots import LEVELS, choose
from tienlen.bots.driver import bot_rng
from tienlen.engine import Match, seat_view
from tienlen.engine.cards import FULL_DECK, indices


def _reshuffle_hidden(match: Match, seat: int, seed: int) -> Match:
    """The same match with every other seat's unplayed cards (and out-of-play cards) dealt anew."""
    played = 0
    for _, mask in match.log:
        played |= mask
    pool_mask = FULL_DECK & ~match.hands[seat] & ~played
    pool = list(indices(pool_mask))
    random.Random(seed).shuffle(pool)
    hands = list(match.hands)
    pos = 0
    for other in range(match.players):
        if other == seat:
            continue
        count = hands[other].bit_count()
        hands[other] = sum(1 << c for c in pool[pos : pos + count])
        pos += count
    return dataclasses.replace(match, hands=hands, log=list(match.log), _legal=None)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    ("preset", "players", "steps"), [("standard", 4, 0), ("standard", 4, 9), ("classic", 3, 6), ("ladder", 2, 5)]
)
def test_choice_depends_only_on_the_seat_view(
    level: str, preset: str, players: int, steps: int, make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Same seat view (other hands differ) → same action, for every level."""
    seeds = range(3)
    tested = 0
    for seed in seeds:
        match = make_match(preset, players, 40 + seed)
        advance_bots(match, steps, "medium")
        if match.turn is None:
            continue
        tested += 1
        seat = match.turn
        other = _reshuffle_hidden(match, seat, 99 + seed)
        assert other.hands != match.hands
        assert seat_view(other, seat) == seat_view(match, seat)
        first = choose(level, seat_view(match, seat), match.legal_plays(), bot_rng(match, seat))
        second = choose(level, seat_view(other, seat), other.legal_plays(), bot_rng(other, seat))
        assert first == second
    # no hand of these seeds ends within its few steps: every seed must give a position to compare
    assert tested == len(seeds), f"only {tested} of {len(seeds)} seeds reached a position with a seat on turn"
