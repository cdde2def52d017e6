"""Hard's exact endgame: in hand-made positions it finds the move that forces a first place.

Each position is named by the rule (docs/rules.md) that makes its win forced.
The search itself is checked on full deals (every hand known): the forcing
move is marked True and the tempting alternatives False. Hard is then checked
on the same positions through its public entry point, where the other hands
are hidden from it and it must find the win on every deal it samples.
"""

from __future__ import annotations

import random

import pytest

from tienlen.bots import bot_rng, choose
from tienlen.bots.endgame import forced_moves
from tienlen.bots.hard import in_endgame
from tienlen.engine import Match, mask_of, parse_cards, resolve_rules, seat_view


def _m(text: str) -> int:
    return mask_of(parse_cards(text.split()))


def _match(deal: list[str], **rules: object) -> Match:
    """A one-hand match of these explicit hands (space-separated cards per seat)."""
    resolved = resolve_rules({"preset": "standard", "hands": 1, **rules}, players=len(deal))
    match, _ = Match.new(resolved, random.Random(0), [text.split() for text in deal])
    return match


def _act(match: Match, actions: list[str]) -> None:
    """Play the actions in turn order: cards, or "pass"."""
    for action in actions:
        assert match.turn is not None
        if action == "pass":
            match.pass_turn(match.turn)
        else:
            match.play(match.turn, _m(action))


def _search(match: Match) -> dict[int, bool | None]:
    assert match.turn is not None
    result, _nodes = forced_moves(
        match.hands,
        match.turn,
        match.table,
        match.table_seat,
        match.locked,
        match.rules.bombs,
        match.rules.pass_reentry_with_bomb,
    )
    return result


def _hard(match: Match) -> int:
    """Hard's move for the seat on turn (0 = pass), from its own view only."""
    assert match.turn is not None
    view = seat_view(match, match.turn)
    assert in_endgame(view)
    action = choose("hard", view, match.legal_plays(), bot_rng(match, match.turn))
    return 0 if action.is_pass else action.mask


def test_a_pair_no_one_can_answer_then_the_last_card() -> None:
    """Rule §3: only a pair answers a pair. Every opponent holds one card, so leading the pair 5-5 wins
    the battle and the last card goes out; leading the 7 lets any higher single go out first."""
    match = _match(["3S 5S 5C 7D", "8H", "9H", "10H"])
    _act(match, ["3S", "pass", "pass", "pass"])
    assert match.turn == 0 and match.table is None
    result = _search(match)
    assert result[_m("5S 5C")] is True
    assert result[_m("7D")] is False
    assert _hard(match) == _m("5S 5C")


def test_the_boss_two_wins_the_battle_then_the_rest_goes_out() -> None:
    """Rules §3-§4: nothing beats the 2 of hearts but a bomb, and no opponent holds enough cards for
    one (four of a kind, or three consecutive pairs). Answering the 10 with the 2H takes the lead and the
    pair 4-4 goes out; passing lets the others pass the lead round to seat 0, which goes out first."""
    match = _match(["3S 10H KC", "4S 4C 2H", "6D 5H 8C", "9C JS QD"], start_card_rule=False)
    _act(match, ["10H"])
    assert match.turn == 1 and match.table is not None
    result = _search(match)
    assert result[_m("2H")] is True
    assert result[0] is False
    assert _hard(match) == _m("2H")


def test_a_pass_locked_seat_bombs_the_two_on_its_reentry_turn_and_goes_out() -> None:
    """Rules §4-§5 (exact bombs, pass_reentry_with_bomb): a seat that passed may still bomb a single 2
    on its turn; three consecutive pairs beat it, no one can answer them, and the last card goes out.
    Passing again lets the 2's owner lead its last card and go out first."""
    match = _match(["3S 9H", "6S 6C 7S 7C 8S 8C 4D", "2H KD", "5D 10C"])
    _act(match, ["3S", "pass", "2H", "pass", "pass"])
    assert match.turn == 1 and match.reentry_turn()
    result = _search(match)
    assert result[_m("6S 6C 7S 7C 8S 8C")] is True
    assert result[0] is False
    assert _hard(match) == _m("6S 6C 7S 7C 8S 8C")


def test_no_forced_win_when_a_higher_single_goes_out() -> None:
    """Rule §3: a single is answered by any higher single. The opponent's one card, the ace, beats
    either of the seat's singles and goes out, so no move forces a first place."""
    match = _match(["3S 4S 5H", "AH"], start_card_rule=False)
    _act(match, ["3S", "pass"])
    assert match.turn == 0 and match.table is None
    result = _search(match)
    assert set(result) == {_m("4S"), _m("5H")}
    assert not any(result.values())


def test_a_triple_then_a_straight_against_two_card_hands() -> None:
    """Rule §2-§3: a play is answered only by the same kind and length. Opponents hold two cards each,
    so neither the triple 9s nor the straight 4-5-6 can be answered: either order goes out first,
    while breaking the straight (leading the 4 alone) does not force it."""
    match = _match(["3S 9S 9C 9D 4H 5H 6H", "JH QH", "KH AH", "10S 10C"], start_card_rule=False)
    assert match.turn == 0
    result = _search(match)
    assert result[_m("9S 9C 9D")] is True
    assert result[_m("4H 5H 6H")] is True
    assert result[_m("4H")] is False
    assert _hard(match) in {_m("9S 9C 9D"), _m("4H 5H 6H"), _m("3S 4H 5H 6H")}


@pytest.mark.parametrize("limit", [1, 5])
def test_the_search_gives_up_past_its_node_budget(limit: int) -> None:
    """An over-budget search answers None (unknown) rather than a wrong True or False."""
    match = _match(["3S 5S 5C 7D 8D 9D JD", "8H 9C 10C", "9H 10D JC", "10H JH QC"])
    _act(match, ["3S", "pass", "pass", "pass"])
    assert match.turn is not None
    result, nodes = forced_moves(match.hands, match.turn, None, None, 0, match.rules.bombs, True, node_limit=limit)
    assert None in result.values()
    assert nodes <= limit + 1
