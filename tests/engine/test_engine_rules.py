"""Rule sets (docs/rules.md §4-§7): presets, overrides and refused values."""

from __future__ import annotations

import pytest

from tienlen.engine import PRESET_NAMES, PRESETS, Bombs, RulesError, RuleSet, Scoring, Tiebreak, resolve_rules

# docs/rules.md §7, column by column (players default to 4).
PRESET_TABLE: dict[str, dict[str, str | bool | int]] = {
    "standard": {
        "bombs": "exact",
        "pass_reentry_with_bomb": True,
        "start_card_rule": True,
        "end_on_first_out": False,
        "scoring": "places",
        "hands": 4,
        "tiebreak": "best_finish",
    },
    "classic": {
        "bombs": "classic",
        "pass_reentry_with_bomb": False,
        "start_card_rule": True,
        "end_on_first_out": False,
        "scoring": "places",
        "hands": 5,
        "tiebreak": "until_clear",
    },
    "ladder": {
        "bombs": "ladder",
        "pass_reentry_with_bomb": False,
        "start_card_rule": True,
        "end_on_first_out": False,
        "scoring": "none",
        "hands": 1,
        "tiebreak": "best_finish",
    },
}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_presets_match_the_rules_table(name: str) -> None:
    resolved = resolve_rules({"preset": name})
    expected = PRESET_TABLE[name] | {"players": 4, "preset": name}
    assert resolved.to_dict() == expected
    assert PRESETS[name] == resolved


def test_preset_names_and_default() -> None:
    assert set(PRESET_NAMES) == set(PRESET_TABLE)
    assert resolve_rules() == resolve_rules({}) == resolve_rules({"preset": "standard"}) == RuleSet()


def test_overrides_apply_to_the_preset() -> None:
    r = resolve_rules({"preset": "classic", "bombs": "off", "scoring": "wins"})
    assert r.bombs is Bombs.OFF
    assert r.scoring is Scoring.WINS
    assert r.preset == "classic"
    assert r.hands == 5 and r.tiebreak is Tiebreak.UNTIL_CLEAR and r.pass_reentry_with_bomb is False
    r2 = resolve_rules({"bombs": "ladder", "end_on_first_out": True, "hands": 50, "players": 2})
    assert (r2.preset, r2.bombs, r2.end_on_first_out, r2.hands, r2.players) == ("standard", Bombs.LADDER, True, 50, 2)
    assert resolve_rules({"preset": "ladder", "scoring": "places", "hands": 3}).hands == 3


def test_players_keyword_sets_the_count() -> None:
    assert resolve_rules({"preset": "ladder"}, players=3).players == 3
    assert resolve_rules({"players": 4}, players=2).players == 2


def test_round_trip_through_dict() -> None:
    for name in PRESET_NAMES:
        for players in (2, 3, 4):
            r = resolve_rules({"preset": name, "end_on_first_out": True}, players=players)
            assert RuleSet.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("overrides", "parameter"),
    [
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"players": "4"}, "players"),
        ({"players": True}, "players"),
        ({"hands": 0}, "hands"),
        ({"hands": 51}, "hands"),
        ({"hands": 2.0}, "hands"),
        ({"preset": "ladder", "hands": 4}, "hands"),
        ({"scoring": "none"}, "hands"),
        ({"scoring": "none", "hands": 4}, "hands"),
        ({"speed": "fast"}, "speed"),
        ({"preset": "turbo"}, "preset"),
        ({"preset": ["standard"]}, "preset"),
        ({"preset": None}, "preset"),
        ({"bombs": "nuclear"}, "bombs"),
        ({"bombs": None}, "bombs"),
        ({"bombs": ["exact"]}, "bombs"),
        ({"scoring": "points"}, "scoring"),
        ({"tiebreak": "coin"}, "tiebreak"),
        ({"pass_reentry_with_bomb": "yes"}, "pass_reentry_with_bomb"),
        ({"start_card_rule": 1}, "start_card_rule"),
        ({"end_on_first_out": None}, "end_on_first_out"),
    ],
)
def test_invalid_rules_name_the_parameter(overrides: dict[str, object], parameter: str) -> None:
    with pytest.raises(RulesError) as info:
        resolve_rules(overrides)
    assert info.value.parameter == parameter
    assert info.value.reason == "invalid_rules"


@pytest.mark.parametrize("players", [1, 5, 0])
def test_invalid_players_keyword(players: int) -> None:
    with pytest.raises(RulesError) as info:
        resolve_rules({}, players=players)
    assert info.value.parameter == "players"


def test_scoring_none_with_one_hand_is_allowed() -> None:
    r = resolve_rules({"scoring": "none", "hands": 1})
    assert r.scoring is Scoring.NONE and r.hands == 1


def test_rule_sets_are_frozen() -> None:
    r = resolve_rules()
    with pytest.raises(AttributeError):
        r.hands = 3  # type: ignore[misc]  # assigning to a frozen dataclass on purpose


def test_stored_rule_set_with_a_number_for_a_flag_is_refused_even_after_the_valid_one() -> None:
    """Rule sets are cached by value; 1 == True must not fetch the cached valid rule set."""
    from tienlen.engine import PRESETS, RulesError, RuleSet

    stored = PRESETS["standard"].to_dict()
    assert RuleSet.from_dict(stored) == PRESETS["standard"]
    stored["start_card_rule"] = 1
    with pytest.raises(RulesError) as error:
        RuleSet.from_dict(stored)
    assert error.value.parameter == "start_card_rule"
