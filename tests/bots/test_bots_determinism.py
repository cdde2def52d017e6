"""Reproducible bots: randomness only from the seeded bot generator (same seed → same choices)."""

from __future__ import annotations

import random

from tests.support.bots import Advance, MatchFactory
from tienlen.bots import bot_rng, choose, play_bot_turns
from tienlen.engine import Match, Passed, Played, resolve_rules, seat_view


def _places_of_a_bot_match(seed: int, bots: dict[int, str]) -> list[tuple[int, ...]]:
    rules = resolve_rules({"preset": "standard", "hands": 2})
    match, _ = Match.new(rules, random.Random(seed))
    play_bot_turns(match, bots)
    assert match.outcome is not None
    return [h.places for h in match.completed]


def test_same_seed_same_match_for_easy_and_medium() -> None:
    """Two runs of the same seeded match with the same bots give the same hands and places."""
    bots = {0: "easy", 1: "medium", 2: "easy", 3: "medium"}
    assert _places_of_a_bot_match(11, bots) == _places_of_a_bot_match(11, bots)


def test_play_bot_turns_stops_at_a_human_seat(make_match: MatchFactory) -> None:
    """play_bot_turns returns when a seat without a bot is on turn, with the events in order.

    The human sits two seats after the leader: the leader and the next seat act (in that order),
    then the human is on turn.
    """
    match = make_match("standard", 4, 3)
    assert match.turn is not None
    leader = match.turn
    human = (leader + 2) % 4
    bots = {s: "medium" for s in range(4) if s != human}
    events = play_bot_turns(match, bots)
    assert match.outcome is None
    assert match.turn == human
    actions = [e for e in events if isinstance(e, Played | Passed)]
    assert [e.seat for e in actions] == [leader, (leader + 1) % 4]
    assert isinstance(actions[0], Played), "the leader must play"
    assert events == actions, "two actions of 13-card hands cause no other event"


def test_bot_rng_is_reproducible_and_varies_by_seat_and_turn(make_match: MatchFactory, advance_bots: Advance) -> None:
    """bot_rng hashes deal seed, hand number, actions so far and seat."""
    match = make_match("standard", 4, 8)
    a = bot_rng(match, 0).random()
    assert a == bot_rng(match, 0).random()
    assert a != bot_rng(match, 1).random()
    advance_bots(match, 1, "easy")
    assert a != bot_rng(match, 0).random()


def test_hard_same_seed_same_choice(make_match: MatchFactory, advance_bots: Advance) -> None:
    """Hard with a fixed iteration count (no wall-clock budget) repeats its choice for the same seed."""
    for seed, steps in ((1, 0), (2, 7), (3, 13)):
        match = make_match("standard", 4, seed)
        advance_bots(match, steps, "medium")
        assert match.turn is not None
        seat = match.turn
        view, legal = seat_view(match, seat), match.legal_plays()
        assert choose("hard", view, legal, bot_rng(match, seat)) == choose("hard", view, legal, bot_rng(match, seat))
