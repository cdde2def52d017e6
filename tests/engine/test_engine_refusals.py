"""Refusal reasons, their priority, explicit deals, and exact event sequences."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.support.engine import act, mask, new_match, rules, script
from tienlen.engine import (
    REFUSAL_REASONS,
    Card,
    DealError,
    IllegalActionError,
    Match,
    Played,
    UnknownCardError,
    match_to_dict,
)

# A standard 4-seat position; seat 1 holds 3S and leads the match.
DEAL = ["5S 6S 7S 2S", "3S 4S 4D 5C 9H 9D", "8S 9S 2D", "10S JS 2C 2H"]


def opening() -> Match:
    m, _ = new_match(DEAL)
    assert m.turn == 1
    return m


def after_single_two() -> Match:
    """Seat 2 passed on 3S, seat 3 played 2C, seat 0 passed: seat 1 is on turn, seat 2 locked."""
    m = opening()
    script(m, [(1, "3S"), (2, None), (3, "2C"), (0, None)])
    assert m.turn == 1 and m.is_locked(2)
    return m


def locked_reentry() -> Match:
    """Seat 2 (locked) gets its re-entry turn on 2C."""
    m = after_single_two()
    act(m, 1, None)
    assert m.turn == 2 and m.is_locked(2)
    return m


def finished() -> Match:
    m, _ = new_match(["3S", "4S"], hands=1)
    act(m, 0, "3S")
    assert m.outcome is not None
    return m


Attempt = Callable[[Match], object]

CASES: list[tuple[str, Callable[[], Match], Attempt, str]] = [
    ("wrong seat", opening, lambda m: m.play(0, ["5S"]), "not_your_turn"),
    ("no such seat", opening, lambda m: m.play(7, ["3S"]), "not_your_turn"),
    ("negative seat", opening, lambda m: m.pass_turn(-1), "not_your_turn"),
    ("wrong seat passes", after_single_two, lambda m: m.pass_turn(2), "not_your_turn"),
    ("wrong seat, bad cards", opening, lambda m: m.play(0, ["XX", "XX"]), "not_your_turn"),
    ("match over", finished, lambda m: m.play(1, ["4S"]), "match_not_playing"),
    ("match over, pass", finished, lambda m: m.pass_turn(1), "match_not_playing"),
    ("match over beats seat", finished, lambda m: m.play(9, ["ZZ"]), "match_not_playing"),
    ("unknown card", opening, lambda m: m.play(1, ["3S", "1S"]), "unknown_card"),
    ("unknown card object", opening, lambda m: m.play(1, ["3S", 3]), "unknown_card"),  # type: ignore[list-item]  # a non-card on purpose
    ("unknown before duplicate", opening, lambda m: m.play(1, ["3S", "3S", "ZZ"]), "unknown_card"),
    ("duplicate", opening, lambda m: m.play(1, ["3S", "3S"]), "duplicate_cards"),
    ("duplicate spellings", opening, lambda m: m.play(1, ["3S", "3s", "4S"]), "duplicate_cards"),
    ("duplicate Card objects", opening, lambda m: m.play(1, [Card(0), "3S"]), "duplicate_cards"),
    ("duplicate before not in hand", opening, lambda m: m.play(1, ["2H", "2H"]), "duplicate_cards"),
    ("not in hand", opening, lambda m: m.play(1, ["3S", "4C", "5C"]), "cards_not_in_hand"),
    ("not in hand mask", opening, lambda m: m.play(1, mask("2H")), "cards_not_in_hand"),
    ("not in hand before combination", opening, lambda m: m.play(1, ["3S", "2H"]), "cards_not_in_hand"),
    ("not a combination", opening, lambda m: m.play(1, ["3S", "9H"]), "not_a_combination"),
    ("empty play", opening, lambda m: m.play(1, []), "not_a_combination"),
    ("empty mask", opening, lambda m: m.play(1, 0), "not_a_combination"),
    ("combination before start card", opening, lambda m: m.play(1, ["4S", "9D"]), "not_a_combination"),
    ("must include 3S", opening, lambda m: m.play(1, ["4S", "4D"]), "must_include_start_card"),
    ("pass on lead", opening, lambda m: m.pass_turn(1), "cannot_pass_on_lead"),
    ("does not beat", after_single_two, lambda m: m.play(1, ["9D"]), "does_not_beat"),
    ("wrong kind", after_single_two, lambda m: m.play(1, ["4S", "4D"]), "does_not_beat"),
    ("not a combination before beat", after_single_two, lambda m: m.play(1, ["4S", "9D"]), "not_a_combination"),
    ("locked seat, ordinary higher 2", locked_reentry, lambda m: m.play(2, ["2D"]), "locked_bomb_only"),
    ("locked seat, lower card", locked_reentry, lambda m: m.play(2, ["9S"]), "locked_bomb_only"),
    ("locked seat, not in hand", locked_reentry, lambda m: m.play(2, ["2H"]), "cards_not_in_hand"),
    ("locked seat, not combination", locked_reentry, lambda m: m.play(2, ["9S", "2D"]), "not_a_combination"),
]


@pytest.mark.parametrize(("setup", "attempt", "reason"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_refusal_reason_and_nothing_changes(setup: Callable[[], Match], attempt: Attempt, reason: str) -> None:
    m = setup()
    before = match_to_dict(m)
    legal_before = list(m.legal_masks())
    with pytest.raises(IllegalActionError) as info:
        attempt(m)
    assert info.value.reason == reason
    assert match_to_dict(m) == before
    assert m.legal_masks() == legal_before


def test_every_refusal_reason_is_covered() -> None:
    assert {c[3] for c in CASES} == set(REFUSAL_REASONS)


def test_can_and_verify_agree_with_the_action() -> None:
    m = locked_reentry()
    assert not m.can_play(2, ["2D"]) and not m.can_play(1, ["9D"])
    assert m.legal_masks() == [] and m.legal_plays().can_pass  # seat 2 holds no bomb, yet gets the turn
    assert m.can_pass(2) and not m.can_pass(1)
    m.verify_pass(2)
    with pytest.raises(IllegalActionError):
        m.verify_play(2, ["9S"])
    m.verify_turn(2)
    with pytest.raises(IllegalActionError):
        m.verify_turn(3)
    m2 = opening()
    assert m2.verify_play(1, ["3s", "4d", "5♣"]) == mask("3S 4D 5C")
    assert m2.can_play(1, mask("3S"))


def test_refused_then_accepted_action_is_deterministic() -> None:
    a, b = opening(), opening()
    with pytest.raises(IllegalActionError):
        a.play(1, ["4S"])
    assert a.play(1, ["3S"]) == b.play(1, ["3S"])
    assert match_to_dict(a) == match_to_dict(b)


# ----- explicit deals -----------------------------------------------------------


@pytest.mark.parametrize(
    "deal",
    [
        [["3S"], ["4S"], ["5S"]],  # 3 lists for 4 seats
        [["3S"], ["4S"], ["5S"], ["6S"], ["7S"]],
        [["3S"], [], ["5S"], ["6S"]],  # a seat with no card
        [["3S"], ["4S"], ["5S"], [str(c) for c in map(Card, range(20, 34))]],  # 14 cards
        [["3S", "3S"], ["4S"], ["5S"], ["6S"]],  # twice in one hand
        [["3S", "4S"], ["4S"], ["5S"], ["6S"]],  # one card, two seats
    ],
)
def test_bad_deals_are_refused(deal: list[list[str]]) -> None:
    with pytest.raises(DealError) as info:
        Match.new(rules(), random.Random(0), deal=deal)
    assert info.value.reason == "invalid_deal"


def test_deal_with_unknown_card() -> None:
    with pytest.raises(UnknownCardError):
        Match.new(rules(), random.Random(0), deal=[["3S"], ["4S"], ["5S"], ["1H"]])


def test_explicit_deal_is_used_as_given() -> None:
    m, _ = new_match(["2H", "3s 4♦", "t♥ JS", "KS"])
    assert m.hands == [mask("2H"), mask("3S 4D"), mask("10H JS"), mask("KS")]
    assert m.turn == 1


def test_shuffled_deals_are_reproducible() -> None:
    a, ea = Match.new(rules(), random.Random(11))
    b, eb = Match.new(rules(), random.Random(11))
    assert a == b and ea == eb
    c, _ = Match.new(rules(), random.Random(12))
    assert c.hands != a.hands
    for players in (2, 3, 4):
        m, _ = Match.new(rules(players=players), random.Random(players))
        assert [h.bit_count() for h in m.hands] == [13] * players
        union = 0
        for h in m.hands:
            assert union & h == 0
            union |= h
        lowest = (union & -union).bit_length() - 1
        assert m.turn is not None
        assert m.hands[m.turn] >> lowest & 1
        assert m.start_card == lowest


# ----- exact event sequences ----------------------------------------------------


def test_events_of_a_whole_two_seat_match_with_a_bomb() -> None:
    m, events = new_match(["3S 2S 8S", "4S 4C 5S 5C 6S 6C"], hands=1)
    assert events == [{"type": "hand_started", "hand_number": 1, "leader": 0}]
    events = script(m, [(0, "3S"), (1, None), (0, "2S"), (1, "4S 4C 5S 5C 6S 6C")])
    assert events == [
        {"type": "played", "seat": 0, "cards": ["3S"], "kind": "single", "bomb": False},
        {"type": "passed", "seat": 1},
        {"type": "table_cleared", "leader": 0},
        {"type": "played", "seat": 0, "cards": ["2S"], "kind": "single", "bomb": False},
        {
            "type": "played",
            "seat": 1,
            "cards": ["4S", "4C", "5S", "5C", "6S", "6C"],
            "kind": "consecutive_pairs",
            "bomb": True,
        },
        {"type": "went_out", "seat": 1, "place": 1},
        {"type": "went_out", "seat": 0, "place": 2},
        {"type": "hand_ended", "hand_number": 1, "places": [1, 0], "points": [0, 1]},
        {"type": "match_ended", "winner": 1, "winners": [1], "scores": [0, 1]},
    ]
    assert m.turn is None and m.legal_masks() == [] and not m.legal_plays().can_pass


def test_events_going_out_on_a_two_and_ladder_end() -> None:
    m, _ = new_match(["3S 4S", "2H", "5S"], "ladder")
    events = script(m, [(0, "3S"), (1, "2H")])
    assert events == [
        {"type": "played", "seat": 0, "cards": ["3S"], "kind": "single", "bomb": False},
        {"type": "played", "seat": 1, "cards": ["2H"], "kind": "single", "bomb": False},
        {"type": "went_out", "seat": 1, "place": 1},
    ]
    # seat 2 and seat 0 cannot beat 2H; the battle returns to the finished seat 1 and seat 2 leads
    assert script(m, [(2, None), (0, None)]) == [
        {"type": "passed", "seat": 2},
        {"type": "passed", "seat": 0},
        {"type": "table_cleared", "leader": 2},
    ]
    assert script(m, [(2, "5S")]) == [
        {"type": "played", "seat": 2, "cards": ["5S"], "kind": "single", "bomb": False},
        {"type": "went_out", "seat": 2, "place": 2},
        {"type": "went_out", "seat": 0, "place": 3},
        {"type": "hand_ended", "hand_number": 1, "places": [1, 2, 0], "points": [0, 0, 0]},
        {"type": "match_ended", "winner": 1, "winners": [1], "scores": [0, 0, 0]},
    ]


def test_played_event_cards_are_canonical_and_sorted() -> None:
    deal = ["t♥ 3s J♦ qc", "4S"]
    m, _ = new_match(deal, hands=1)
    with pytest.raises(IllegalActionError) as info:
        m.play(0, ["qc", "J♦", "t♥"])  # the match's opening lead must contain 3S
    assert info.value.reason == "must_include_start_card"
    m, _ = new_match(deal, hands=1, start_card_rule=False)
    events = [e.to_dict() for e in m.play(0, ["qc", "J♦", "t♥"])]
    assert events == [{"type": "played", "seat": 0, "cards": ["10H", "JD", "QC"], "kind": "straight", "bomb": False}]


def test_event_objects_are_frozen() -> None:
    m, _ = new_match(["3S", "4S"], hands=1)
    ev = m.play(0, ["3S"])[0]
    assert isinstance(ev, Played)
    with pytest.raises(AttributeError):
        ev.seat = 1  # type: ignore[misc]  # assigning to a frozen dataclass on purpose
