"""Rule sets: every rule parameter and its values, the bomb table, the presets, overrides.

This module is the engine's vocabulary, declared once as data: the API's
enums, the ``/v1/rules`` answer, the docs' checks and the bots' cache keys all
derive from it. Adding a variant is a row here (and in docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from functools import lru_cache
from typing import Any, NamedTuple

from .kinds import Kind


class Bombs(StrEnum):
    """Which plays bomb which (docs/rules.md §4)."""

    EXACT = "exact"
    CLASSIC = "classic"
    LADDER = "ladder"
    OFF = "off"


class Scoring(StrEnum):
    """How a hand's places turn into points (docs/rules.md §6)."""

    PLACES = "places"
    WINS = "wins"
    NONE = "none"


class Tiebreak(StrEnum):
    """How a tie for the highest match total is settled (docs/rules.md §6)."""

    BEST_FINISH = "best_finish"
    UNTIL_CLEAR = "until_clear"


# ----- the bomb table (docs/rules.md §4) ----------------------------------------------


class Shape(NamedTuple):
    """A bomb's shape: its kind and length (pairs for consecutive pairs)."""

    kind: Kind
    length: int


class Target(NamedTuple):
    """A table a bomb may beat: its kind and length; ``twos`` when it must be made of 2s."""

    kind: Kind
    length: int
    twos: bool


FOUR = Shape(Kind.FOUR_OF_A_KIND, 4)
PAIRS_3, PAIRS_4, PAIRS_5, PAIRS_6 = (Shape(Kind.CONSECUTIVE_PAIRS, n) for n in (3, 4, 5, 6))

SINGLE_TWO = Target(Kind.SINGLE, 1, True)
PAIR_OF_TWOS = Target(Kind.PAIR, 2, True)
TRIPLE_OF_TWOS = Target(Kind.TRIPLE, 3, True)
ANY_FOUR = Target(Kind.FOUR_OF_A_KIND, 4, False)
ANY_PAIRS_3, ANY_PAIRS_4, ANY_PAIRS_5 = (Target(Kind.CONSECUTIVE_PAIRS, n, False) for n in (3, 4, 5))

# Which bomb shape beats which tables, for each ``bombs`` value; nothing else bombs.
BOMB_TABLE: dict[Bombs, dict[Shape, frozenset[Target]]] = {
    Bombs.EXACT: {
        FOUR: frozenset({SINGLE_TWO}),
        PAIRS_3: frozenset({SINGLE_TWO}),
        PAIRS_4: frozenset({PAIR_OF_TWOS}),
        PAIRS_5: frozenset({TRIPLE_OF_TWOS}),
    },
    Bombs.CLASSIC: {
        FOUR: frozenset({SINGLE_TWO}),
        PAIRS_3: frozenset({SINGLE_TWO}),
        PAIRS_4: frozenset({SINGLE_TWO, PAIR_OF_TWOS}),
    },
    Bombs.LADDER: {
        FOUR: frozenset({SINGLE_TWO, PAIR_OF_TWOS, ANY_PAIRS_3}),
        PAIRS_3: frozenset({SINGLE_TWO}),
        PAIRS_4: frozenset({SINGLE_TWO, PAIR_OF_TWOS, ANY_FOUR, ANY_PAIRS_3}),
        PAIRS_5: frozenset({SINGLE_TWO, PAIR_OF_TWOS, ANY_FOUR, ANY_PAIRS_3, ANY_PAIRS_4}),
        PAIRS_6: frozenset({SINGLE_TWO, PAIR_OF_TWOS, ANY_FOUR, ANY_PAIRS_3, ANY_PAIRS_4, ANY_PAIRS_5}),
    },
    Bombs.OFF: {},
}


# ----- parameters -----------------------------------------------------------------------


class RulesError(ValueError):
    """A rule set that the rules do not allow; ``parameter`` names the culprit."""

    reason = "invalid_rules"

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter


@dataclass(frozen=True, slots=True)
class Parameter:
    """One rule parameter: its values (an enum, an integer range or a flag) and what it means."""

    name: str
    about: str
    choices: type[StrEnum] | None = None
    minimum: int | None = None
    maximum: int | None = None
    values_about: Mapping[str, str] | None = None

    @property
    def is_flag(self) -> bool:
        """A true/false parameter."""
        return self.choices is None and self.minimum is None

    @property
    def values(self) -> tuple[str, ...]:
        """The wire names of an enumerated parameter's values (empty for others)."""
        return () if self.choices is None else tuple(m.value for m in self.choices)

    def check(self, value: object) -> object:
        """The value as the rule set holds it (an enum member for choices); raise :class:`RulesError`."""
        if self.choices is not None:
            if isinstance(value, str) and value in self.values:
                return self.choices(value)
            raise RulesError(self.name, f"must be one of {_quoted(self.values)}")
        if self.minimum is not None:
            assert self.maximum is not None
            if isinstance(value, bool) or not isinstance(value, int) or not self.minimum <= value <= self.maximum:
                raise RulesError(self.name, f"must be an integer from {self.minimum} to {self.maximum}")
            return value
        if not isinstance(value, bool):
            raise RulesError(self.name, "must be true or false")
        return value


MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_HANDS = 50
MAX_UNTIL_CLEAR_EXTRA_HANDS = 10

PARAMETERS: tuple[Parameter, ...] = (
    Parameter("players", "Seats; taken from the seats of a match", minimum=MIN_PLAYERS, maximum=MAX_PLAYERS),
    Parameter(
        "bombs",
        "Which plays bomb which (docs/rules.md §4)",
        choices=Bombs,
        values_about={
            "exact": "each bomb beats exactly one table: four of a kind or 3 pairs a single 2, 4 pairs two 2s, "
            "5 pairs three 2s",
            "classic": "four of a kind or 3 pairs beat a single 2; 4 pairs beat a single 2 or two 2s",
            "ladder": "bombs also beat bombs: four of a kind beats 3 pairs, 4+ pairs beat four of a kind and "
            "shorter runs of pairs",
            "off": "no bombs: every play is answered only by a higher play of its kind and length",
        },
    ),
    Parameter("pass_reentry_with_bomb", "A pass-locked seat may still bomb a 2 on its turn"),
    Parameter("start_card_rule", "The match's opening lead must include the lowest card dealt"),
    Parameter("end_on_first_out", "A hand ends when the first seat goes out"),
    Parameter(
        "scoring",
        "Points per place; 'none' needs hands = 1",
        choices=Scoring,
        values_about={
            "places": "first of n players scores n-1, then n-2, ..., last 0",
            "wins": "1 point for first place, 0 otherwise",
            "none": "no points: the first place of the single hand wins",
        },
    ),
    Parameter("hands", "Hands in a match", minimum=1, maximum=MAX_HANDS),
    Parameter(
        "tiebreak",
        "How a tie for the top total is settled",
        choices=Tiebreak,
        values_about={
            "best_finish": "one extra hand; the tied seat that finishes it best wins",
            "until_clear": f"extra hands until one seat leads alone (a shared win after {MAX_UNTIL_CLEAR_EXTRA_HANDS})",
        },
    ),
)
PARAMETER_BY_NAME: dict[str, Parameter] = {p.name: p for p in PARAMETERS}


def _quoted(values: tuple[str, ...]) -> str:
    return ", ".join(repr(v) for v in values)


# ----- rule sets and presets ------------------------------------------------------------

# Each preset's values where it differs from the defaults of :class:`RuleSet` (``standard``).
_PRESET_VALUES: dict[str, dict[str, Any]] = {
    "standard": {},
    "classic": {
        "bombs": Bombs.CLASSIC,
        "pass_reentry_with_bomb": False,
        "hands": 5,
        "tiebreak": Tiebreak.UNTIL_CLEAR,
    },
    "ladder": {"bombs": Bombs.LADDER, "pass_reentry_with_bomb": False, "scoring": Scoring.NONE, "hands": 1},
}
PRESET_NAMES: tuple[str, ...] = tuple(_PRESET_VALUES)
DEFAULT_PRESET = "standard"


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
    preset: str = DEFAULT_PRESET

    def __post_init__(self) -> None:
        for parameter in PARAMETERS:
            value = getattr(self, parameter.name)
            if parameter.choices is not None and not isinstance(value, parameter.choices):
                raise RulesError(parameter.name, f"must be one of {_quoted(parameter.values)}")
            parameter.check(value)
        if self.preset not in PRESET_NAMES:
            raise RulesError("preset", f"must be one of {', '.join(PRESET_NAMES)}")
        if self.scoring is Scoring.NONE and self.hands != 1:
            raise RulesError("hands", "scoring 'none' allows only hands = 1")

    def to_dict(self) -> dict[str, Any]:
        """All parameters as JSON-able values, the preset first."""
        values: dict[str, Any] = {"preset": self.preset}
        for parameter in PARAMETERS:
            value = getattr(self, parameter.name)
            values[parameter.name] = value.value if isinstance(value, Enum) else value
        return values

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Rebuild a rule set written by :meth:`to_dict`."""
        # The key carries each value's type: True == 1 must not fetch a rule set validated for another.
        return _from_items(tuple(sorted((key, type(value).__name__, value) for key, value in data.items())))


PRESETS: dict[str, RuleSet] = {name: RuleSet(preset=name, **values) for name, values in _PRESET_VALUES.items()}


def resolve_rules(overrides: Mapping[str, Any] | None = None, *, players: int | None = None) -> RuleSet:
    """Resolve ``{"preset": name, **overrides}`` into a :class:`RuleSet`.

    Without ``preset`` the overrides apply to ``standard``. ``players``, when
    given, sets the player count (the API takes it from the seats). Unknown
    parameters and bad values raise :class:`RulesError` naming the parameter.
    """
    data = dict(overrides or {})
    preset_name = data.pop("preset", DEFAULT_PRESET)
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise RulesError("preset", f"must be one of {', '.join(PRESET_NAMES)}")
    if players is not None:
        data["players"] = players
    values: dict[str, Any] = {}
    for key, value in data.items():
        parameter = PARAMETER_BY_NAME.get(key)
        if parameter is None:
            raise RulesError(key, "is not a rule parameter")
        values[key] = parameter.check(value)
    return replace(PRESETS[preset_name], **values)


@lru_cache(maxsize=256)
def _from_items(items: tuple[tuple[str, str, Any], ...]) -> RuleSet:
    """Stored rule sets repeat endlessly; resolve each distinct one once."""
    return resolve_rules({key: value for key, _type, value in items})
