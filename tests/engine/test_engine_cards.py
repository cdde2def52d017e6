"""Cards (docs/rules.md §1): numbering, strength order and the wire notation."""

from __future__ import annotations

import pytest

from tienlen.engine import CARDS, Card, Rank, Suit, UnknownCardError, format_cards, format_mask, mask_of, parse_cards
from tienlen.engine.cards import parse_index

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["S", "C", "D", "H"]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3S", "3S"),
        ("2H", "2H"),
        ("10D", "10D"),
        ("QC", "QC"),
        ("AS", "AS"),
        ("TH", "10H"),
        ("Tc", "10C"),
        ("t♥", "10H"),
        ("3s", "3S"),
        ("qh", "QH"),
        ("kd", "KD"),
        ("jc", "JC"),
        ("as", "AS"),
        ("10s", "10S"),
        ("2♠", "2S"),
        ("9♣", "9C"),
        ("J♦", "JD"),
        ("a♥", "AH"),
        ("10♦", "10D"),
    ],
)
def test_parse_accepts_wire_notation(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert parse_cards([text]) == [card]


@pytest.mark.parametrize(
    "text",
    [
        "1S",
        "10",
        "XS",
        "",
        " 3S",
        "3s ",
        "S3",
        "11H",
        "3",
        "S",
        "TT",
        "1OS",
        "3SS",
        "33S",
        "3ſ",
        "10ſ",
        "3Ｓ",
        "♥3",
        "0S",
        "BS",
    ],
)
def test_parse_refuses_unknown_cards(text: str) -> None:
    with pytest.raises(UnknownCardError) as info:
        Card.parse(text)
    assert info.value.reason == "unknown_card"


@pytest.mark.parametrize("value", [None, 3, 3.0, b"3S", ["3S"]])
def test_parse_refuses_non_text(value: object) -> None:
    with pytest.raises(UnknownCardError):
        parse_index(value)  # type: ignore[arg-type]  # not text, on purpose


def test_every_card_round_trips_through_its_text() -> None:
    for rank_index, rank in enumerate(RANKS):
        for suit_index, suit in enumerate(SUITS):
            card = Card.parse(rank + suit)
            assert card.index == rank_index * 4 + suit_index
            assert card.rank == Rank(rank_index)
            assert card.suit == Suit(suit_index)
            assert str(card) == rank + suit
            assert Card.of(card.rank, card.suit) is CARDS[card.index]


def test_strength_order_rank_first_then_suit() -> None:
    assert Card.parse("3S").index == 0
    assert Card.parse("2H").index == 51
    assert Card.parse("10S") > Card.parse("9H")
    assert Card.parse("9H") > Card.parse("9D")
    assert Card.parse("9D") > Card.parse("9C") > Card.parse("9S")
    assert Card.parse("2S") > Card.parse("AH")
    assert sorted(CARDS) == list(CARDS)


@pytest.mark.parametrize("index", [-1, 52, 100])
def test_card_numbers_outside_the_deck_are_refused(index: int) -> None:
    with pytest.raises(UnknownCardError):
        Card(index)


def test_masks_and_canonical_formatting() -> None:
    picked = parse_cards(["2H", "t♥", "3s", "10H"])
    assert len(picked) == 4  # repeats kept by parse_cards
    m = mask_of(picked)
    assert m == (1 << 51) | (1 << 31) | 1
    assert format_mask(m) == ["3S", "10H", "2H"]
    assert format_cards(parse_cards(["2H", "TH", "3S"])) == ["3S", "10H", "2H"]
    assert mask_of([0, 51]) == (1 << 51) | 1
    assert format_mask(0) == []
