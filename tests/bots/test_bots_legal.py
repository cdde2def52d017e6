"""Every bot only ever returns a legal action (docs/rules.md §3-§5), for every preset and 2-4 players."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.bots import seeded_match
from tienlen.bots import LEVELS, choose
from tienlen.bots.driver import bot_rng
from tienlen.engine import PRESET_NAMES, Match, seat_view


def _play_out(match: Match, levels: list[str]) -> int:
    """Play the hand to its end, asserting every chosen action is legal; return decisions made."""
    decisions = 0
    while match.outcome is None and match.turn is not None:
        seat = match.turn
        legal = match.legal_plays()
        view = seat_view(match, seat)
        level = levels[seat]
        action = choose(level, view, legal, bot_rng(match, seat), budget_s=0.002)  # a searching level's tiny budget
        if action.is_pass:
            assert legal.can_pass, f"{level} passed on a lead"
            assert match.can_pass(seat)
            match.pass_turn(seat)
        else:
            assert action.type == "play"
            assert action.mask in match.legal_masks(), f"{level} chose an illegal {action.cards}"
            match.play(seat, action.mask)
        decisions += 1
    assert match.outcome is not None
    return decisions


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESET_NAMES),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
    levels=st.lists(st.sampled_from(("random", "easy", "medium")), min_size=4, max_size=4),
)
def test_fast_levels_only_play_legal_actions(preset: str, players: int, seed: int, levels: list[str]) -> None:
    """Random, Easy and Medium choose only legal plays or allowed passes in whole hands."""
    match = seeded_match(preset, players, seed)
    assert _play_out(match, levels[:players]) > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESET_NAMES),
    players=st.integers(min_value=2, max_value=4),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_hard_only_plays_legal_actions(preset: str, players: int, seed: int) -> None:
    """Hard (searching, with a tiny budget) chooses only legal actions against Medium seats."""
    match = seeded_match(preset, players, seed)
    levels = ["hard" if s % 2 == 0 else "medium" for s in range(players)]
    _play_out(match, levels)


def test_every_level_plays_a_full_standard_match_legally() -> None:
    """A two-hand standard match of four seats finishes with legal actions only, for each four of the public
    levels (every level sits in some seat)."""
    for first in range(0, len(LEVELS), 4):
        levels = [LEVELS[(first + seat) % len(LEVELS)] for seat in range(4)]
        match = seeded_match("standard", 4, 5 + first, hands=2)
        _play_out(match, levels)


def test_reentry_turn_bot_bombs_or_passes(bomb_deal_match: Match) -> None:
    """On a bomb re-entry turn (docs/rules.md §5) a bot may only bomb the 2 or pass; Medium uses the re-entry."""
    match = bomb_deal_match
    match.play(0, ["3S"])
    match.pass_turn(1)
    match.play(2, ["2H"])
    # seat 3 may pass; seat 0 passes; seat 1 (locked) is offered a re-entry turn on the single 2
    match.pass_turn(3)
    match.pass_turn(0)
    assert match.turn == 1 and match.reentry_turn()
    for level in ("random", *LEVELS):
        legal = match.legal_plays()
        action = choose(level, seat_view(match, 1), legal, bot_rng(match, 1), iterations=12)
        assert action.is_pass or action.mask in match.legal_masks()
        if level == "medium":
            assert not action.is_pass, "medium bombs a single 2 with 6-6 7-7 8-8 on a re-entry turn"
