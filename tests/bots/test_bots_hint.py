"""The hint: a legal action for the seat on turn and a plain-words reason naming the cards."""

from __future__ import annotations

import random

import pytest

from tests.support.bots import Advance, MatchFactory
from tienlen.bots import Action, Hint, hint
from tienlen.bots.driver import bot_rng
from tienlen.engine import Match, format_mask, resolve_rules, seat_view


def _check_hint(match: Match) -> Hint:
    assert match.turn is not None
    seat = match.turn
    result = hint(seat_view(match, seat), match.legal_plays(), bot_rng(match, seat), budget_s=0.05)
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
    """Over a whole hand, every hint is a legal action whose explanation names the cards."""
    match = make_match(preset, players, 21)
    hints = 0
    while match.outcome is None and hints < 40:
        _check_hint(match)
        hints += 1
        advance_bots(match, 1, "medium")
    assert hints > 3


def test_hint_names_the_opening_lead_with_the_start_card() -> None:
    """On the opening lead the hinted play contains the lowest dealt card (RULES.md §5) and names it."""
    match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}), random.Random(4))
    result = _check_hint(match)
    assert match.start_card is not None
    assert result.action.mask >> match.start_card & 1
    assert result.explanation.startswith("Leads")


def test_hint_explains_a_bomb_on_a_two(bomb_deal_match: Match) -> None:
    """A bomb on a single 2 is explained as a bomb naming the bomb's cards."""
    match = bomb_deal_match
    match.play(0, ["3S"])
    match.play(1, ["4S"])
    match.play(2, ["2H"])
    assert match.turn == 3
    match.pass_turn(3)
    match.pass_turn(0)
    assert match.turn == 1
    result = _check_hint(match)
    if not result.action.is_pass:
        assert result.explanation.startswith("Bombs the single 2H")
