"""The worked examples of docs/rules.md §8, and the match rules of §5-§6 around them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypedDict

import pytest

from tests.support.answers import public_answer
from tests.support.engine import act, clone, force_hand, mask, new_match, rules, script
from tienlen.engine import Card, IllegalActionError, Match, Status, match_to_dict, public_view, seat_view


def refused(match: Match, seat: int, play: str | None) -> str:
    """Attempt an action that must be refused; return the reason and check nothing changed."""
    before = match_to_dict(match)
    with pytest.raises(IllegalActionError) as info:
        act(match, seat, play)
    assert match_to_dict(match) == before
    if play is None:
        assert not match.can_pass(seat)
    else:
        assert not match.can_play(seat, play.split())
        assert mask(play) not in match.legal_masks()
    return info.value.reason


def played(seat: int, cards: str, kind: str, bomb: bool = False) -> dict[str, Any]:
    return {"type": "played", "seat": seat, "cards": cards.split(), "kind": kind, "bomb": bomb}


def passed(seat: int) -> dict[str, Any]:
    return {"type": "passed", "seat": seat}


def cleared(leader: int) -> dict[str, Any]:
    return {"type": "table_cleared", "leader": leader}


def went_out(seat: int, place: int) -> dict[str, Any]:
    return {"type": "went_out", "seat": seat, "place": place}


def everyone_passes_then_lead(match: Match, leader: int, lead: str) -> None:
    """The leader opens with 3S, all others pass, the leader leads ``lead``."""
    n = match.players
    evs = script(match, [(leader, "3S")] + [((leader + k) % n, None) for k in range(1, n)])
    assert evs[-1] == cleared(leader)
    act(match, leader, lead)


# ----- §8.1 ---------------------------------------------------------------------


def test_rule_8_1_opening_lead_must_contain_3s() -> None:
    m, events = new_match(["5S 6S 7S", "3S 4S 4D 5C 9H", "8S 9S", "10S JS"])
    assert events == [{"type": "hand_started", "hand_number": 1, "leader": 1}]
    assert m.turn == 1 and m.start_card == 0
    assert seat_view(m, 1).start_card == Card.parse("3S").index
    assert [seat_view(m, s).start_card for s in (0, 2, 3)] == [None, None, None]
    assert refused(m, 1, "4S") == "must_include_start_card"
    assert refused(m, 1, "4S 4D") == "must_include_start_card"
    assert refused(m, 1, None) == "cannot_pass_on_lead"
    assert all(mk & 1 for mk in m.legal_masks())
    assert clone(m).can_play(1, ["3S"])
    assert act(m, 1, "3S 4D 5C") == [played(1, "3S 4D 5C", "straight")]
    assert m.turn == 2 and m.start_card is None


# ----- §8.2 / §8.3 --------------------------------------------------------------


def test_rule_8_2_pair_answered_only_by_a_higher_pair() -> None:
    m, _ = new_match(["3S 6S 6C KD", "AH 9S 9C 9D 8C 8D", "4S", "5S"])
    everyone_passes_then_lead(m, 0, "6S 6C")
    assert m.turn == 1
    assert refused(m, 1, "AH") == "does_not_beat"
    assert refused(m, 1, "9S 9C 9D") == "does_not_beat"
    assert act(m, 1, "8C 8D") == [played(1, "8C 8D", "pair")]


def test_rule_8_3_straight_answered_only_by_same_length() -> None:
    m, _ = new_match(["3S 6S 7C 8D 9H", "10S JC QD 7D 8H 9S", "4S", "5S"])
    everyone_passes_then_lead(m, 0, "6S 7C 8D 9H")
    assert refused(m, 1, "10S JC QD") == "does_not_beat"
    assert refused(m, 1, "9S 10S JC QD 8H") == "does_not_beat"
    assert act(m, 1, "7D 8H 9S 10S") == [played(1, "7D 8H 9S 10S", "straight")]


# ----- §8.4 / §8.5 --------------------------------------------------------------

RUN_3 = "4S 4C 5S 5C 6S 6C"
RUN_4 = "4S 4C 5S 5C 6S 6C 7S 7C"
RUN_5 = "4S 4C 5S 5C 6S 6C 7S 7C 8S 8C"
RUN_6 = "4S 4C 5S 5C 6S 6C 7S 7C 8S 8C 9S 9C"


def test_rule_8_4_exact_bombs_single_two() -> None:
    m, _ = new_match(["3S 2S JH", RUN_4, "8S", "8C"])
    everyone_passes_then_lead(m, 0, "2S")
    assert refused(m, 1, RUN_4) == "does_not_beat"
    assert m.can_play(1, ["5S", "5C", "6S", "6C", "7S", "7C"])
    assert act(m, 1, RUN_3) == [played(1, RUN_3, "consecutive_pairs", bomb=True)]


def test_rule_8_4_exact_bombs_pair_of_twos() -> None:
    m, _ = new_match(["3S 2S 2C JH", "9S 9C 9D 9H " + RUN_4, "8S", "8D"])
    everyone_passes_then_lead(m, 0, "2S 2C")
    assert refused(m, 1, "9S 9C 9D 9H") == "does_not_beat"
    assert refused(m, 1, RUN_3) == "does_not_beat"
    assert act(m, 1, RUN_4) == [played(1, RUN_4, "consecutive_pairs", bomb=True)]


def test_rule_8_4_exact_bombs_triple_of_twos() -> None:
    m, _ = new_match(["3S 2S 2C 2D JH", RUN_6, "8D", "8H"])
    everyone_passes_then_lead(m, 0, "2S 2C 2D")
    for run in (RUN_3, RUN_4, RUN_6):
        assert refused(m, 1, run) == "does_not_beat"
    assert act(m, 1, RUN_5) == [played(1, RUN_5, "consecutive_pairs", bomb=True)]


class BombsOverride(TypedDict, total=False):
    """An optional ``bombs`` override of the preset (so that it cannot land on ``new_match``'s own arguments)."""

    bombs: str


@pytest.mark.parametrize("preset", ["standard", "classic", "ladder"])
@pytest.mark.parametrize("bombs", [None, "exact", "classic", "ladder", "off"])
def test_rule_8_5_four_of_a_kind_never_beats_a_single_ace(preset: str, bombs: str | None) -> None:
    overrides: BombsOverride = {} if bombs is None else {"bombs": bombs}
    m, _ = new_match(["3S AS JH", "9S 9C 9D 9H 4S 4C 5S 5C 6S 6C 7S 7C", "8S", "8C"], preset, **overrides)
    everyone_passes_then_lead(m, 0, "AS")
    assert refused(m, 1, "9S 9C 9D 9H") == "does_not_beat"
    assert refused(m, 1, RUN_3) == "does_not_beat"
    assert refused(m, 1, RUN_4) == "does_not_beat"
    assert m.legal_masks() == []
    assert m.legal_plays().can_pass


# ----- §8.6 / §8.7: pass lock and bomb re-entry ---------------------------------

LOCK_DEAL = ["3S KS", "7S QS", "4S 4C 5C 5D 6C 6D JS", "2S AS 8S"]
LOCK_BOMB = "4S 4C 5C 5D 6C 6D"


def test_rule_8_6_standard_locked_seat_may_bomb_the_two() -> None:
    m, _ = new_match(LOCK_DEAL)
    assert script(m, [(0, "3S"), (1, "7S"), (2, None)]) == [
        played(0, "3S", "single"),
        played(1, "7S", "single"),
        passed(2),
    ]
    assert m.is_locked(2)
    assert act(m, 3, "2S") == [played(3, "2S", "single")]
    assert script(m, [(0, None), (1, None)]) == [passed(0), passed(1)]
    assert m.turn == 2 and m.is_locked(2) and m.reentry_turn()
    assert public_view(m).reentry
    offered = m.legal_plays()
    assert offered.can_pass and offered.seat == 2
    assert {c.mask for c in offered.plays} == {mask(LOCK_BOMB)}
    assert refused(m, 2, "JS") == "locked_bomb_only"
    assert act(m, 2, LOCK_BOMB) == [played(2, LOCK_BOMB, "consecutive_pairs", bomb=True)]
    assert not m.is_locked(2)
    assert m.is_locked(0) and m.is_locked(1)
    assert m.turn == 3
    # seats 0 and 1 are still locked (the table is no longer a 2): the battle goes back to seat 2
    assert act(m, 3, None) == [passed(3), cleared(2)]
    assert m.turn == 2 and m.locked == 0 and m.table is None


def test_rule_8_6_standard_locked_seat_may_pass_again() -> None:
    m, _ = new_match(LOCK_DEAL)
    script(m, [(0, "3S"), (1, "7S"), (2, None), (3, "2S"), (0, None), (1, None)])
    assert m.turn == 2
    assert act(m, 2, None) == [passed(2), cleared(3)]
    assert m.turn == 3


def test_rule_8_6_standard_locked_seat_is_skipped_on_an_ace() -> None:
    m, _ = new_match(LOCK_DEAL)
    script(m, [(0, "3S"), (1, "7S"), (2, None), (3, "AS"), (0, None)])
    assert act(m, 1, None) == [passed(1), cleared(3)]
    assert m.turn == 3


def test_reentry_needs_a_bomb_rule() -> None:
    """With bombs off no bomb can beat the 2, so the locked seat is skipped even under standard (§5)."""
    m, _ = new_match(LOCK_DEAL, bombs="off")
    script(m, [(0, "3S"), (1, "7S"), (2, None), (3, "2S"), (0, None)])
    assert act(m, 1, None) == [passed(1), cleared(3)]


def test_rule_8_7_classic_locked_seat_is_skipped_even_on_a_two() -> None:
    m, _ = new_match(LOCK_DEAL, "classic")
    script(m, [(0, "3S"), (1, "7S"), (2, None), (3, "2S"), (0, None)])
    assert act(m, 1, None) == [passed(1), cleared(3)]
    assert m.turn == 3


# ----- §8.8 / §8.9: going out ---------------------------------------------------


def test_rule_8_8_next_seat_with_cards_leads_after_a_winner_went_out() -> None:
    m, _ = new_match(["3S 9S", "KS", "4S 5S", "6S 7S"])
    assert act(m, 0, "3S") == [played(0, "3S", "single")]
    assert act(m, 1, "KS") == [played(1, "KS", "single"), went_out(1, 1)]
    assert m.turn == 2
    assert script(m, [(2, None), (3, None), (0, None)]) == [passed(2), passed(3), passed(0), cleared(2)]
    assert m.turn == 2 and m.table is None and m.locked == 0


def test_rule_8_9_last_seat_takes_last_place_without_playing() -> None:
    m, _ = new_match(["3S 9S", "KS", "4S 5S", "QS"])
    events = script(
        m,
        [(0, "3S"), (1, "KS"), (2, None), (3, None), (0, None), (2, "4S"), (3, "QS"), (0, None), (2, None), (0, "9S")],
    )
    assert events == [
        played(0, "3S", "single"),
        played(1, "KS", "single"),
        went_out(1, 1),
        passed(2),
        passed(3),
        passed(0),
        cleared(2),
        played(2, "4S", "single"),
        played(3, "QS", "single"),
        went_out(3, 2),
        passed(0),
        passed(2),
        cleared(0),
        played(0, "9S", "single"),
        went_out(0, 3),
        went_out(2, 4),
        {"type": "hand_ended", "hand_number": 1, "places": [1, 3, 0, 2], "points": [1, 3, 0, 2]},
        {"type": "hand_started", "hand_number": 2, "leader": 1},
    ]
    assert m.scores == [1, 3, 0, 2]
    # the next hand: a fresh 13-card deal, led by the previous first place, who may lead anything
    assert m.hand_number == 2 and m.turn == 1 and m.start_card is None
    assert [h.bit_count() for h in m.hands] == [13, 13, 13, 13]
    assert m.status is Status.PLAYING
    assert len(m.legal_masks()) == len(set(m.legal_masks())) > 13


# ----- §8.10: three players -----------------------------------------------------


def test_rule_8_10_three_players_lowest_dealt_card_leads() -> None:
    m, events = new_match(["5S 9D", "9H 3C 4S", "3D 6S"])
    assert events == [{"type": "hand_started", "hand_number": 1, "leader": 1}]
    assert m.start_card == mask("3C").bit_length() - 1
    assert [seat_view(m, s).start_card for s in range(3)] == [None, Card.parse("3C").index, None]
    assert "3C" not in str(public_answer(m))
    assert refused(m, 1, "4S") == "must_include_start_card"
    assert refused(m, 1, "9H") == "must_include_start_card"
    assert refused(m, 1, None) == "cannot_pass_on_lead"
    assert act(m, 1, "3C") == [played(1, "3C", "single")]


def test_rule_8_10_three_players_without_any_three() -> None:
    m, events = new_match(["5S", "6S 4D", "4H 7S"])
    assert events[0]["leader"] == 1
    assert refused(m, 1, "6S") == "must_include_start_card"
    assert act(m, 1, "4D") == [played(1, "4D", "single")]


def test_start_card_rule_off_lowest_card_still_leads_anything() -> None:
    m, events = new_match(["5S 9D", "9H 3C 4S", "3D 6S"], start_card_rule=False)
    assert events[0]["leader"] == 1 and m.start_card is None
    assert seat_view(m, 1).start_card is None
    assert act(m, 1, "9H") == [played(1, "9H", "single")]


# ----- §8.11: ladder ------------------------------------------------------------


def test_rule_8_11_ladder_chops_climb() -> None:
    m, _ = new_match(["3S 2S 2C JH", "9S 9C 9D 9H 10S", RUN_4 + " 10C", "8D"], "ladder")
    everyone_passes_then_lead(m, 0, "2S 2C")
    assert act(m, 1, "9S 9C 9D 9H") == [played(1, "9S 9C 9D 9H", "four_of_a_kind", bomb=True)]
    assert act(m, 2, RUN_4) == [played(2, RUN_4, "consecutive_pairs", bomb=True)]


def test_rule_8_11_ladder_four_pairs_beat_three_pairs() -> None:
    m, _ = new_match(["3S 3C 4S 4C 5S 5C JH", "6S 6C 7S 7C 8S 8C 9S 9C 10S", "KS KC KD KH", "8D"], "ladder")
    act(m, 0, "3S 3C 4S 4C 5S 5C")
    assert m.can_play(1, ["6S", "6C", "7S", "7C", "8S", "8C"])  # ordinary: a higher run of 3 pairs
    assert act(m, 1, "6S 6C 7S 7C 8S 8C 9S 9C") == [
        played(1, "6S 6C 7S 7C 8S 8C 9S 9C", "consecutive_pairs", bomb=True)
    ]
    # four of a kind does not answer 4 consecutive pairs
    assert refused(m, 2, "KS KC KD KH") == "does_not_beat"


def test_rule_8_11_ladder_four_of_a_kind_beats_three_pairs() -> None:
    m, _ = new_match(["3S 3C 4S 4C 5S 5C JH", "KS KC KD KH 10S", "8D", "8H"], "ladder")
    act(m, 0, "3S 3C 4S 4C 5S 5C")
    assert act(m, 1, "KS KC KD KH") == [played(1, "KS KC KD KH", "four_of_a_kind", bomb=True)]


def test_rule_8_11_ladder_triple_of_twos_is_never_beaten() -> None:
    m, _ = new_match(["3S 2S 2C 2D JH", RUN_6 + " 2H", "KS KC KD KH", "AS"], "ladder")
    everyone_passes_then_lead(m, 0, "2S 2C 2D")
    assert m.legal_masks() == []
    for run in (RUN_3, RUN_4, RUN_5, RUN_6):
        assert refused(m, 1, run) == "does_not_beat"
    assert refused(m, 1, "2H") == "does_not_beat"
    act(m, 1, None)
    assert m.legal_masks() == []
    assert refused(m, 2, "KS KC KD KH") == "does_not_beat"
    assert script(m, [(2, None), (3, None)]) == [passed(2), passed(3), cleared(0)]


# ----- §8.12, §8.13 and the other tie-breaks ------------------------------------

# Four hands after which seats 0 and 2 share the top (8, 7, 8, 1).
TIED_HANDS = [(0, 2, 3, 1), (1, 2, 0, 3), (1, 0, 2, 3), (2, 0, 1, 3)]


def play_hands(m: Match, orders: Sequence[tuple[int, ...]]) -> tuple[Match, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for order in orders:
        leader = m.completed[-1].places[0] if m.completed else m.turn
        assert m.turn == leader
        m, evs = force_hand(m, order)
        events += evs
    return m, events


def start(preset: str, players: int = 4, seed: int = 3, **overrides: object) -> Match:
    m, _ = Match.new(rules(preset, players=players, **overrides), random.Random(seed))
    return m


def test_rule_8_12_best_finish_decides_among_the_tied_seats() -> None:
    m, events = play_hands(start("standard"), TIED_HANDS)
    assert m.scores == [8, 7, 8, 1]
    assert events[-2:] == [
        {"type": "hand_ended", "hand_number": 4, "places": [2, 0, 1, 3], "points": [2, 1, 3, 0]},
        {"type": "hand_started", "hand_number": 5, "leader": 2},
    ]
    assert m.status is Status.PLAYING and m.hand_number == 5
    # seat 1 wins the fifth hand (and the highest total), seat 2 finishes above seat 0
    m, events = play_hands(m, [(1, 3, 2, 0)])
    assert m.scores == [8, 10, 9, 3]
    assert events[-2:] == [
        {"type": "hand_ended", "hand_number": 5, "places": [1, 3, 2, 0], "points": [0, 3, 1, 2]},
        {"type": "match_ended", "winner": 2, "winners": [2], "scores": [8, 10, 9, 3]},
    ]
    assert m.status is Status.FINISHED
    assert m.outcome is not None and m.outcome.winner == 2 and m.outcome.scores == (8, 10, 9, 3)
    outcome = public_view(m).outcome
    assert outcome is not None and outcome.winner == 2
    assert m.turn is None
    with pytest.raises(IllegalActionError) as info:
        m.pass_turn(0)
    assert info.value.reason == "match_not_playing"


def test_best_finish_tied_seat_below_the_other() -> None:
    m, _ = play_hands(start("standard"), TIED_HANDS)
    m, events = play_hands(m, [(3, 0, 1, 2)])
    assert events[-1] == {"type": "match_ended", "winner": 0, "winners": [0], "scores": [10, 8, 8, 4]}


def test_until_clear_adds_points_and_anyone_may_end_up_alone_on_top() -> None:
    m, events = play_hands(start("standard", tiebreak="until_clear"), TIED_HANDS)
    assert events[-1] == {"type": "hand_started", "hand_number": 5, "leader": 2}
    m, events = play_hands(m, [(1, 3, 2, 0)])
    assert events[-1] == {"type": "match_ended", "winner": 1, "winners": [1], "scores": [8, 10, 9, 3]}


def test_until_clear_keeps_dealing_while_tied() -> None:
    m, _ = play_hands(start("standard", tiebreak="until_clear"), TIED_HANDS)
    m, events = play_hands(m, [(1, 0, 2, 3)])
    assert m.scores == [10, 10, 9, 1]  # a new tie, seats 0 and 1
    assert events[-2:] == [
        {"type": "hand_ended", "hand_number": 5, "places": [1, 0, 2, 3], "points": [2, 3, 1, 0]},
        {"type": "hand_started", "hand_number": 6, "leader": 1},
    ]
    m, events = play_hands(m, [(3, 0, 2, 1)])
    assert events[-1] == {"type": "match_ended", "winner": 0, "winners": [0], "scores": [12, 10, 10, 4]}


# Twelve hands of a 2-hand match that leave a shared top after every hand from the second on.
ALWAYS_TIED = [
    (0, 1, 2, 3),
    (2, 1, 3, 0),
    (0, 1, 2, 3),
    (2, 0, 1, 3),
    (1, 0, 2, 3),
    (2, 0, 1, 3),
    (1, 0, 2, 3),
    (2, 0, 1, 3),
    (1, 0, 2, 3),
    (2, 0, 1, 3),
    (1, 0, 2, 3),
    (2, 0, 1, 3),
]


def totals(orders: Sequence[tuple[int, ...]], n: int = 4) -> list[int]:
    scores = [0] * n
    for order in orders:
        for place, seat in enumerate(order):
            scores[seat] += n - 1 - place
    return scores


def test_until_clear_gives_up_after_ten_extra_hands_with_a_shared_win() -> None:
    for k in range(2, len(ALWAYS_TIED) + 1):  # the sequence really keeps the top shared
        t = totals(ALWAYS_TIED[:k])
        assert t.count(max(t)) >= 2
    m, events = play_hands(start("classic", hands=2), ALWAYS_TIED[:11])
    assert m.status is Status.PLAYING and m.hand_number == 12  # 9 extra hands were not enough
    m, events = play_hands(m, ALWAYS_TIED[11:])
    final = totals(ALWAYS_TIED)
    top = [s for s in range(4) if final[s] == max(final)]
    assert len(top) >= 2
    assert len(m.completed) == 12
    assert events[-1] == {"type": "match_ended", "winner": None, "winners": top, "scores": final}
    assert m.outcome is not None and m.outcome.winner is None and list(m.outcome.winners) == top


def test_until_clear_tenth_extra_hand_can_still_clear() -> None:
    m, _ = play_hands(start("classic", hands=2), ALWAYS_TIED[:11])
    before = list(m.scores)
    leader = m.turn
    assert leader is not None
    others = [s for s in range(4) if s != leader]
    m, events = play_hands(m, [(leader, *others)])
    expected = list(before)
    for place, seat in enumerate((leader, *others)):
        expected[seat] += 3 - place
    top = [s for s in range(4) if expected[s] == max(expected)]
    assert len(top) == 1  # this order clears the tie
    assert events[-1] == {"type": "match_ended", "winner": top[0], "winners": top, "scores": expected}


# ----- scoring ------------------------------------------------------------------


def test_scoring_none_winner_is_first_place() -> None:
    m = start("ladder")
    m, events = play_hands(m, [(3, 1, 0, 2)])
    assert events[-2:] == [
        {"type": "hand_ended", "hand_number": 1, "places": [3, 1, 0, 2], "points": [0, 0, 0, 0]},
        {"type": "match_ended", "winner": 3, "winners": [3], "scores": [0, 0, 0, 0]},
    ]


def test_scoring_wins_gives_one_point_to_first_place() -> None:
    m = start("standard", scoring="wins", hands=2)
    m, events = play_hands(m, [(2, 0, 1, 3)])
    assert events[-2] == {"type": "hand_ended", "hand_number": 1, "places": [2, 0, 1, 3], "points": [0, 0, 1, 0]}
    m, events = play_hands(m, [(2, 1, 3, 0)])
    assert events[-1] == {"type": "match_ended", "winner": 2, "winners": [2], "scores": [0, 0, 2, 0]}


@pytest.mark.parametrize(("players", "order", "points"), [(2, (1, 0), [0, 1]), (3, (2, 0, 1), [1, 0, 2])])
def test_scoring_places_with_fewer_players(players: int, order: tuple[int, ...], points: list[int]) -> None:
    m = start("standard", players=players, hands=1)
    m, events = play_hands(m, [order])
    assert events[-2] == {"type": "hand_ended", "hand_number": 1, "places": list(order), "points": points}
    assert events[-1]["winner"] == order[0]


def test_next_hand_led_by_previous_first_place() -> None:
    m = start("standard", hands=3)
    m, events = play_hands(m, [(3, 0, 1, 2)])
    assert events[-1] == {"type": "hand_started", "hand_number": 2, "leader": 3}
    assert m.turn == 3 and m.start_card is None
    m, events = play_hands(m, [(1, 3, 0, 2)])
    assert events[-1] == {"type": "hand_started", "hand_number": 3, "leader": 1}


# ----- end_on_first_out (§5, §8.14) --------------------------------------------


@pytest.mark.parametrize(
    ("deal", "places"),
    [
        # seat 2 goes out; everyone else holds 2 cards: clockwise after seat 2 is 3, 0, 1
        (["3S 9S 10S", "4S 5S", "6S", "7S 8S"], [2, 3, 0, 1]),
        # seat 1 holds fewer cards than seats 3 and 0, which tie and go clockwise
        (["3S 9S 10S", "4S", "6S", "7S 8S"], [2, 1, 3, 0]),
        # seat 0 holds the fewest
        (["3S 9S", "4S 5S JS", "6S", "7S 8S QS"], [2, 0, 3, 1]),
    ],
)
def test_end_on_first_out_places_by_cards_left(deal: list[str], places: list[int]) -> None:
    m, _ = new_match(deal, end_on_first_out=True, hands=1)
    events = script(m, [(0, "3S"), (1, None), (2, "6S")])
    n = 4
    points = [0] * n
    for place, seat in enumerate(places):
        points[seat] = n - 1 - place
    assert events[2:] == [
        played(2, "6S", "single"),
        *[went_out(seat, k + 1) for k, seat in enumerate(places)],
        {"type": "hand_ended", "hand_number": 1, "places": places, "points": points},
        {"type": "match_ended", "winner": 2, "winners": [2], "scores": points},
    ]
