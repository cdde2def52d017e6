"""The hint: a legal action for the seat on turn and a plain-words reason naming the cards."""

from __future__ import annotations

import random

import pytest

from tests.support.bots import Advance, MatchFactory
from tests.support.engine import mask, script
from tests.support.engine import new_match as deal_match
from tienlen.bots import Action, Hint, hint
from tienlen.bots.driver import bot_rng
from tienlen.engine import Match, format_mask, resolve_rules, seat_view


def _check_hint(match: Match) -> Hint:
    """The hint for the seat on turn, checked to be legal and to name its cards (or the table's for a pass).

    No wall-clock budget: only Hard's fixed playout count bounds the search, so the hint is reproducible.
    """
    assert match.turn is not None
    seat = match.turn
    result = hint(seat_view(match, seat), match.legal_plays(), bot_rng(match, seat), budget_s=None)
    assert isinstance(result.action, Action)
    assert result.explanation.strip()
    if result.action.is_pass:
        assert match.can_pass(seat)
        assert match.table is not None
        assert all(card in result.explanation for card in format_mask(match.table.mask))
    else:
        assert result.action.mask in match.legal_masks()
        for card in result.action.cards:
            assert card in result.explanation, (card, result.explanation)
    return result


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("classic", 3), ("ladder", 2)])
def test_hint_is_legal_and_names_its_cards(
    preset: str, players: int, make_match: MatchFactory, advance_bots: Advance
) -> None:
    """Over a whole hand, every hint is a legal action whose explanation names the cards.

    Both kinds of hint are checked: plays (naming their cards) and passes (naming the table's).
    Measured: 23 passes of 40 hints (standard), 13 of 28 (classic), 2 of 12 (ladder).
    """
    match = make_match(preset, players, 21)
    hints = passes = 0
    while match.outcome is None and hints < 40:
        passes += _check_hint(match).action.is_pass
        hints += 1
        advance_bots(match, 1, "medium")
    assert hints > 3
    assert 0 < passes < hints, (passes, hints)


def test_hint_names_the_opening_lead_with_the_start_card() -> None:
    """On the opening lead the hinted play contains the lowest dealt card (docs/rules.md §5) and names it."""
    match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}), random.Random(4))
    result = _check_hint(match)
    assert match.start_card is not None
    assert result.action.mask >> match.start_card & 1
    assert result.explanation.startswith("Leads")


def test_hint_explains_a_bomb_on_a_two() -> None:
    """A bomb on a single 2 (docs/rules.md §4) is hinted and explained as a bomb naming its cards and the 2.

    Seat 0 plays its 2H down to one card; seat 1 holds the run of pairs 6-6 7-7 8-8 and the pair
    KS KC. Passing lets seat 0 lead its last card and go out; bombing wins the battle, and seat 1
    then leads the pair and goes out first. Measured (seed-fixed search, 300 playouts): bomb 5.00
    (first in every playout), pass 1.93.
    """
    match, _ = deal_match(["3S 2H 9C", "4S 6S 6D 7S 7D 8S 8C KS KC", "5S 10H JH QH", "5C 10D JD QD"], hands=1)
    script(match, [(0, "3S"), (1, "4S"), (2, None), (3, None), (0, "2H")])
    assert match.turn == 1 and not match.is_locked(1)
    assert match.hands[0].bit_count() == 1
    result = _check_hint(match)
    assert not result.action.is_pass, result.explanation
    assert result.action.mask == mask("6S 6D 7S 7D 8S 8C")
    assert result.explanation.startswith("Bombs the single 2H with run of pairs 6S 6D 7S 7D 8S 8C"), result.explanation
    assert "seat 0 is nearly out (1 card left)" in result.explanation


def test_hint_explains_a_pass_that_keeps_a_bomb_for_later(bomb_deal_match: Match) -> None:
    """Early in a hand, passing on a single 2 with a bomb in hand is explained as keeping the bomb.

    Every seat still holds 11 or 12 cards; seat 1 could bomb the 2H with 6-6 7-7 8-8. Hard passes:
    measured over 2000 fresh samples, pass 2.87 vs bomb 2.05 points (difference 0.82, standard
    error 0.05); the seed-fixed 300-playout search used here scores pass 2.55, bomb 2.10 (plus 0.10
    for being Medium's choice).
    """
    match = bomb_deal_match
    match.play(0, ["3S"])
    match.play(1, ["4S"])
    match.play(2, ["2H"])
    assert match.turn == 3
    match.pass_turn(3)
    match.pass_turn(0)
    assert match.turn == 1
    assert mask("6S 6D 7S 7D 8S 8C") in match.legal_masks()
    result = _check_hint(match)
    assert result.action.is_pass, result.explanation
    assert result.explanation == "Passes on the single 2H to keep your run of pairs 6S 6D 7S 7D 8S 8C for later."
