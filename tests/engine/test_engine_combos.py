"""Combinations (docs/rules.md §2), ordinary comparison (§3) and the bomb table (§4)."""

from __future__ import annotations

import pytest

from tests.support.engine import mask
from tienlen.engine import Bombs, Kind, beats, bomb_beats, bombable_twos, classify, is_bomb, may_reenter
from tienlen.engine.combos import beats_ordinarily

# ----- classification -----------------------------------------------------------

CLASSIFY_CASES = [
    # (cards, kind, length, deciding card)
    ("3S", Kind.SINGLE, 1, "3S"),
    ("2H", Kind.SINGLE, 1, "2H"),
    ("9C 9D", Kind.PAIR, 2, "9D"),
    ("2S 2H", Kind.PAIR, 2, "2H"),
    ("KS KD KH", Kind.TRIPLE, 3, "KH"),
    ("2S 2C 2D", Kind.TRIPLE, 3, "2D"),
    ("7S 7C 7D 7H", Kind.FOUR_OF_A_KIND, 4, "7H"),
    ("2S 2C 2D 2H", Kind.FOUR_OF_A_KIND, 4, "2H"),
    ("3S 4D 5C", Kind.STRAIGHT, 3, "5C"),
    ("5H 3S 4D", Kind.STRAIGHT, 3, "5H"),
    ("QS KC AH", Kind.STRAIGHT, 3, "AH"),
    ("10S JS QS KS AS", Kind.STRAIGHT, 5, "AS"),
    ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH", Kind.STRAIGHT, 12, "AH"),
    ("3S 3C 4D 4H 5S 5H", Kind.CONSECUTIVE_PAIRS, 3, "5H"),
    ("QS QC KS KC AS AD", Kind.CONSECUTIVE_PAIRS, 3, "AD"),
    ("3S 3C 4S 4C 5S 5C 6S 6H", Kind.CONSECUTIVE_PAIRS, 4, "6H"),
    ("3S 3C 4S 4C 5S 5C 6S 6C 7D 7H", Kind.CONSECUTIVE_PAIRS, 5, "7H"),
    ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8D", Kind.CONSECUTIVE_PAIRS, 6, "8D"),
    ("9S 9C 10S 10C JS JC QS QC KS KC AS AH", Kind.CONSECUTIVE_PAIRS, 6, "AH"),
]

NOT_COMBINATIONS = [
    "",
    "KS AC 2D",  # ranks never wrap: K-A-2
    "AS 2C 3D",  # A-2-3
    "2S 3C 4D",  # 2 inside a straight
    "JS QS KS AS 2S",
    "KS KC AS AC 2S 2C",  # 2s inside consecutive pairs
    "3S 3C 4S 4C",  # two consecutive pairs
    "3S 3C 3D 4S 4C",  # full house
    "3S 3C 4S",  # pair plus a single
    "3S 3C 5S",
    "3S 4S",  # too short for a straight
    "3S 4S 6S",  # gap
    "3S 5S 7S 9S JS",  # flush
    "3S 3C 4S 5S",
    "3S 4S 5S 5C",
    "3S 3C 4S 4C 5S",
    "3S 3C 3D 4S 4C 4D 5S 5C 5D",  # consecutive triples
    "3S 3C 4S 4C 5S 5C 6S",
    "3S 3C 5S 5C 6S 6C",  # pairs with a gap
    "3S 3C 4S 4C 5S 5C 6S 6C 6D",
]


@pytest.mark.parametrize(("text", "kind", "length", "top"), CLASSIFY_CASES)
def test_classify_combinations(text: str, kind: Kind, length: int, top: str) -> None:
    combo = classify(mask(text))
    assert combo is not None
    assert combo.kind is kind
    assert combo.kind.value == kind.value
    assert combo.length == length
    assert combo.top == mask(top).bit_length() - 1
    assert combo.mask == mask(text)


@pytest.mark.parametrize("text", NOT_COMBINATIONS)
def test_classify_refuses_non_combinations(text: str) -> None:
    assert classify(mask(text)) is None


def test_wire_names_of_kinds() -> None:
    assert [k.value for k in Kind] == [
        "single",
        "pair",
        "triple",
        "four_of_a_kind",
        "straight",
        "consecutive_pairs",
    ]


# ----- ordinary comparison (§3) -------------------------------------------------

ORDINARY_CASES = [
    # (play, table, beats under every bombs value)
    ("10S", "9H", True),
    ("9H", "9D", True),
    ("9D", "9H", False),
    ("9H", "10S", False),
    ("9H", "9H", False),
    ("2S", "AH", True),  # docs/rules.md §3 example
    ("JC JH", "JS JD", True),  # docs/rules.md §3 example
    ("8D 9S 10H", "8C 9H 10D", True),  # docs/rules.md §3 example
    ("9S 9D 10C 10D JS JH", "8S 8H 9C 9H 10S 10H", True),  # docs/rules.md §3 example
    ("9S 9H", "9C 9D", True),  # equal ranks: the better suit of each pair decides, 9H > 9D
    ("9C 9D", "9S 9H", False),
    ("10S 10C", "9D 9H", True),
    ("2S 2C", "AD AH", True),
    ("9C 9D 9H", "9S 9C 9D", True),  # suit of the highest card decides
    ("9S 9C 9D", "9C 9D 9H", False),
    ("JS JC JD", "10C 10D 10H", True),
    ("9S 9C 9D 9H", "8S 8C 8D 8H", True),
    ("8S 8C 8D 8H", "9S 9C 9D 9H", False),
    ("5S 6C 7H", "5D 6H 7C", True),  # the top cards decide, 7H > 7C
    ("5D 6H 7C", "5S 6C 7H", False),
    ("QS KC AH", "JS QC KH", True),
    ("3S 4S 5S", "4C 5C 6C", False),
    ("6S 6C 7S 7C 8S 8C", "5S 5C 6D 6H 7D 7H", True),  # a higher run of three pairs
    ("5S 5H 6S 6H 7S 7H", "5C 5D 6C 6D 7C 7D", True),
    ("5C 5D 6C 6D 7C 7D", "5S 5H 6S 6H 7S 7H", False),
    # wrong kind or length is refused
    ("AS", "6C 6D", False),  # a higher single cannot answer a pair
    ("9S 9C 9D", "6C 6D", False),  # a triple cannot answer a pair
    ("6S 6C", "5S", False),
    ("7S 8S 9S 10S", "4S 5S 6S", False),  # 4-card straight on a 3-card one
    ("4S 5S 6S", "3S 4C 5D 6H", False),
    ("10S JC QD", "6S 7C 8D 9H", False),  # a 3-card straight on a 4-card one
    ("9S 10C JD QH", "4D 5S 6C 7H 8D", False),  # docs/rules.md §8.3: four higher cards on five
    ("10S JC QD KS AH", "4D 5S 6C 7H 8D", True),  # docs/rules.md §8.3
    ("4C 5D 6S 7S 8H", "4D 5S 6C 7H 8D", True),  # docs/rules.md §8.3: the same ranks, 8H > 8D
    ("7S 8C 9D 10H", "6S 7C 8D 9H", True),
    ("2S", "3S 3C", False),
    ("2S 2C", "AH", False),
    ("2S 2C 2D", "AS AC", False),
    ("QS KC AH", "5S 5C 5D", False),
]


@pytest.mark.parametrize(("play", "table", "expected"), ORDINARY_CASES)
@pytest.mark.parametrize("bombs", list(Bombs))
def test_ordinary_comparison(play: str, table: str, expected: bool, bombs: Bombs) -> None:
    p, t = classify(mask(play)), classify(mask(table))
    assert p is not None and t is not None
    assert beats(p, t, bombs) is expected
    assert beats_ordinarily(p, t) is expected
    assert not is_bomb(p, t, bombs)


def test_anything_may_lead() -> None:
    for text, *_ in CLASSIFY_CASES:
        combo = classify(mask(text))
        assert combo is not None
        for bombs in Bombs:
            assert beats(combo, None, bombs)
            assert not is_bomb(combo, None, bombs)


# ----- the bomb table (§4) ------------------------------------------------------

PLAYS = {
    "four_of_a_kind": "9S 9C 9D 9H",
    "3_pairs": "JS JC QS QC KD KH",
    "4_pairs": "10S 10C JS JC QS QC KD KH",
    "5_pairs": "9D 9H 10S 10C JS JC QS QC KD KH",
    "6_pairs": "8S 8C 9D 9H 10S 10C JS JC QS QC KD KH",
}
TABLES = {
    "single_2": "2S",
    "single_2H": "2H",
    "pair_2s": "2S 2C",
    "triple_2s": "2C 2D 2H",
    "four_of_a_kind": "5S 5C 5D 5H",
    "3_pairs": "3S 3C 4S 4C 5S 5C",
    "4_pairs": "3S 3C 4S 4C 5S 5C 6S 6C",
    "5_pairs": "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C",
    "6_pairs": "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8D 8H",
    "single_A": "AH",
    "pair_As": "AD AH",
    "triple_As": "AC AD AH",
    "single_3": "3S",
    "straight_3": "QS KC AH",
    "straight_12": "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH",
    "higher_four_of_a_kind": "KS KC KD KH",
    "higher_3_pairs": "QD QH KS KC AS AC",
}
ANY_2 = {"single_2", "single_2H"}
# What each bomb beats *as a bomb*, copied cell by cell from the first table of docs/rules.md §4.
BOMB_TABLE: dict[Bombs, dict[str, set[str]]] = {
    Bombs.EXACT: {
        "four_of_a_kind": ANY_2,
        "3_pairs": ANY_2,
        "4_pairs": {"pair_2s"},
        "5_pairs": {"triple_2s"},
        "6_pairs": set(),
    },
    Bombs.CLASSIC: {
        "four_of_a_kind": ANY_2,
        "3_pairs": ANY_2,
        "4_pairs": ANY_2 | {"pair_2s"},
        "5_pairs": set(),
        "6_pairs": set(),
    },
    Bombs.LADDER: {
        "four_of_a_kind": ANY_2 | {"pair_2s", "3_pairs", "higher_3_pairs"},
        "3_pairs": ANY_2,
        "4_pairs": ANY_2 | {"pair_2s", "four_of_a_kind", "higher_four_of_a_kind", "3_pairs", "higher_3_pairs"},
        "5_pairs": ANY_2
        | {"pair_2s", "four_of_a_kind", "higher_four_of_a_kind", "3_pairs", "higher_3_pairs", "4_pairs"},
        "6_pairs": ANY_2
        | {"pair_2s", "four_of_a_kind", "higher_four_of_a_kind", "3_pairs", "higher_3_pairs", "4_pairs", "5_pairs"},
    },
    Bombs.OFF: {name: set() for name in PLAYS},
}
# Same kind and length, higher deciding card: an ordinary answer under every rule.
ORDINARY_WINS = {
    ("four_of_a_kind", "four_of_a_kind"),
    ("3_pairs", "3_pairs"),
    ("4_pairs", "4_pairs"),
    ("5_pairs", "5_pairs"),
    ("6_pairs", "6_pairs"),
}
BOMB_GRID = [
    pytest.param(bombs, play, table, id=f"{bombs.value}-{play}-on-{table}")
    for bombs in Bombs
    for play in PLAYS
    for table in TABLES
]


@pytest.mark.parametrize(("bombs", "play", "table"), BOMB_GRID)
def test_bomb_table(bombs: Bombs, play: str, table: str) -> None:
    p, t = classify(mask(PLAYS[play])), classify(mask(TABLES[table]))
    assert p is not None and t is not None
    as_bomb = table in BOMB_TABLE[bombs][play]
    ordinary = (play, table) in ORDINARY_WINS
    assert bomb_beats(p, t, bombs) is as_bomb
    assert is_bomb(p, t, bombs) is as_bomb
    assert beats(p, t, bombs) is (as_bomb or ordinary)


@pytest.mark.parametrize("bombs", list(Bombs))
def test_no_bomb_beats_a_non_two_single_pair_triple_or_straight(bombs: Bombs) -> None:
    for table in ("single_A", "pair_As", "triple_As", "single_3", "straight_3", "straight_12"):
        t = classify(mask(TABLES[table]))
        assert t is not None
        for play in PLAYS.values():
            p = classify(mask(play))
            assert p is not None
            assert not beats(p, t, bombs), (play, table)


@pytest.mark.parametrize("bombs", list(Bombs))
def test_a_lower_bomb_never_beats_a_higher_one_of_its_kind(bombs: Bombs) -> None:
    low_quad, high_quad = classify(mask("5S 5C 5D 5H")), classify(mask("KS KC KD KH"))
    low_run, high_run = classify(mask("3S 3C 4S 4C 5S 5C")), classify(mask("QD QH KS KC AS AC"))
    assert low_quad and high_quad and low_run and high_run
    assert beats(high_quad, low_quad, bombs) and not beats(low_quad, high_quad, bombs)
    assert beats(high_run, low_run, bombs) and not beats(low_run, high_run, bombs)
    assert not beats(low_run, low_run, bombs)
    # four of a kind never answers 4+ consecutive pairs, under any rule
    assert not beats(high_quad, classify(mask(TABLES["4_pairs"])), bombs)


@pytest.mark.parametrize("bombs", list(Bombs))
def test_ladder_triple_of_twos_is_never_beaten_except_by_a_higher_triple(bombs: Bombs) -> None:
    table = classify(mask("2S 2C 2D"))
    assert table is not None
    for play in [*PLAYS.values(), "3S 3C 3D", "AS AC AD", "2H", "2S 2H"]:
        combo = classify(mask(play))
        assert combo is not None
        expected = bombs is Bombs.EXACT and combo.kind is Kind.CONSECUTIVE_PAIRS and combo.length == 5
        assert beats(combo, table, bombs) is expected, (bombs, play)


BOMBABLE = {
    Bombs.EXACT: {"single_2", "single_2H", "pair_2s", "triple_2s"},
    Bombs.CLASSIC: {"single_2", "single_2H", "pair_2s"},
    Bombs.LADDER: {"single_2", "single_2H", "pair_2s"},
    Bombs.OFF: set(),
}


@pytest.mark.parametrize("table", [*TABLES, None])
@pytest.mark.parametrize("bombs", list(Bombs))
def test_bombable_twos(bombs: Bombs, table: str | None) -> None:
    combo = None if table is None else classify(mask(TABLES[table]))
    assert bombable_twos(combo, bombs) is (table in BOMBABLE[bombs])


@pytest.mark.parametrize("reentry_rule", [True, False])
@pytest.mark.parametrize("table", [*TABLES, "four_2s", None])
@pytest.mark.parametrize("bombs", list(Bombs))
def test_may_reenter_on_bombable_twos_only_under_the_reentry_rule(
    bombs: Bombs, table: str | None, reentry_rule: bool
) -> None:
    """docs/rules.md §5: a locked seat gets its turn back while the table shows 2s that some bomb beats."""
    cards = {**TABLES, "four_2s": "2S 2C 2D 2H"}
    combo = None if table is None else classify(mask(cards[table]))
    assert may_reenter(combo, bombs, reentry_rule) is (reentry_rule and table in BOMBABLE[bombs])
