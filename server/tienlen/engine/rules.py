"""Rule sets: every parameter of RULES.md, the named presets, and overrides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from functools import lru_cache
from typing import Any


class Bombs(StrEnum):
    """Which plays bomb which (RULES.md §4)."""

    EXACT = "exact"
    CLASSIC = "classic"
    LADDER = "ladder"
    OFF = "off"


class Scoring(StrEnum):
    """How a hand's places turn into points (RULES.md §6)."""

    PLACES = "places"
    WINS = "wins"
    NONE = "none"


class Tiebreak(StrEnum):
    """How a tie for the highest match total is settled (RULES.md §6)."""

    BEST_FINISH = "best_finish"
    UNTIL_CLEAR = "until_clear"


class RulesError(ValueError):
    """A rule set that RULES.md does not allow; ``parameter`` names the culprit."""

    reason = "invalid_rules"

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter


PRESET_NAMES = ("standard", "classic", "ladder")
MAX_HANDS = 50
MAX_UNTIL_CLEAR_EXTRA_HANDS = 10


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A fully resolved set of rule parameters, validated on creation."""

    players: int = 4
    bombs: Bombs = Bombs.EXACT
    pass_reentry_with_bomb: bool = True
    start_card_rule: bool = True
    end_on_first_out: bool = False
    scoring: Scoring = Scoring.PLACES
    hands: int = 4
    tiebreak: Tiebreak = Tiebreak.BEST_FINISH
    preset: str = "standard"

    def __post_init__(self) -> None:
        _check_int("players", self.players, 2, 4)
        _check_int("hands", self.hands, 1, MAX_HANDS)
        for name, enum in (("bombs", Bombs), ("scoring", Scoring), ("tiebreak", Tiebreak)):
            if not isinstance(getattr(self, name), enum):
                raise RulesError(name, f"must be one of {_choices(enum)}")
        for name in ("pass_reentry_with_bomb", "start_card_rule", "end_on_first_out"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(name, "must be true or false")
        if self.preset not in PRESET_NAMES:
            raise RulesError("preset", f"must be one of {', '.join(PRESET_NAMES)}")
        if self.scoring is Scoring.NONE and self.hands != 1:
            raise RulesError("hands", "scoring 'none' allows only hands = 1")

    def to_dict(self) -> dict[str, Any]:
        """All parameters as JSON-able values, the preset included."""
        return {
            "preset": self.preset,
            "players": self.players,
            "bombs": self.bombs.value,
            "pass_reentry_with_bomb": self.pass_reentry_with_bomb,
            "start_card_rule": self.start_card_rule,
            "end_on_first_out": self.end_on_first_out,
            "scoring": self.scoring.value,
            "hands": self.hands,
            "tiebreak": self.tiebreak.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rebuild a rule set written by :meth:`to_dict`."""
        # The key carries each value's type: True == 1 must not fetch a rule set validated for another.
        return _from_items(tuple(sorted((key, type(value).__name__, value) for key, value in data.items())))


def _choices(enum: type[Enum]) -> str:
    return ", ".join(repr(m.value) for m in enum)


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RulesError(name, f"must be an integer from {low} to {high}")


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "classic": RuleSet(
        bombs=Bombs.CLASSIC,
        pass_reentry_with_bomb=False,
        hands=5,
        tiebreak=Tiebreak.UNTIL_CLEAR,
        preset="classic",
    ),
    "ladder": RuleSet(
        bombs=Bombs.LADDER,
        pass_reentry_with_bomb=False,
        scoring=Scoring.NONE,
        hands=1,
        preset="ladder",
    ),
}
PARAMETERS = (
    "players",
    "bombs",
    "pass_reentry_with_bomb",
    "start_card_rule",
    "end_on_first_out",
    "scoring",
    "hands",
    "tiebreak",
)
_ENUMS: dict[str, type[Enum]] = {"bombs": Bombs, "scoring": Scoring, "tiebreak": Tiebreak}


def resolve_rules(overrides: Mapping[str, Any] | None = None, *, players: int | None = None) -> RuleSet:
    """Resolve ``{"preset": name, **overrides}`` into a :class:`RuleSet`.

    Without ``preset`` the overrides apply to ``standard``. ``players``, when
    given, sets the player count (the API takes it from the seats). Unknown
    parameters and bad values raise :class:`RulesError` naming the parameter.
    """
    data = dict(overrides or {})
    preset_name = data.pop("preset", "standard")
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise RulesError("preset", f"must be one of {', '.join(PRESET_NAMES)}")
    if players is not None:
        data["players"] = players
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in PARAMETERS:
            raise RulesError(key, "is not a rule parameter")
        enum = _ENUMS.get(key)
        if enum is not None:
            try:
                value = enum(value)
            except (ValueError, TypeError):
                raise RulesError(key, f"must be one of {_choices(enum)}") from None
        values[key] = value
    return replace(PRESETS[preset_name], **values)


@lru_cache(maxsize=256)
def _from_items(items: tuple[tuple[str, str, Any], ...]) -> RuleSet:
    """Stored rule sets repeat endlessly; resolve each distinct one once."""
    return resolve_rules({key: value for key, _type, value in items})
