"""What a tournament is, declared once as data: its formats and the creator's terms, and their validation.

The API's enum of formats and the docs' table derive from :data:`FORMATS`;
every bound below is a named constant so the docs and the schemas can quote it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from ..engine import PRESETS


class Format(StrEnum):
    """A tournament's format."""

    SWISS = "swiss"
    ARENA = "arena"
    DUPLICATE = "duplicate"


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """One format: its one-sentence summary (shown in the docs and OpenAPI) and the Terms fields it requires."""

    format: Format
    summary: str
    needs: frozenset[str]


FORMATS: Mapping[Format, FormatSpec] = MappingProxyType(
    {
        Format.SWISS: FormatSpec(
            Format.SWISS,
            "A fixed number of rounds; each round seats entrants by score at tables of the chosen size, "
            "avoiding table-mates who already met; byes are filled by house bots, marked as bots.",
            frozenset({"rounds"}),
        ),
        Format.ARENA: FormatSpec(
            Format.ARENA,
            "A time window; an entrant who finishes a match is seated again at once with others waiting near "
            "its score; a first place after two firsts in a row scores double.",
            frozenset({"window_s"}),
        ),
        Format.DUPLICATE: FormatSpec(
            Format.DUPLICATE,
            "A fixed deal set; every table plays the same deals with seats rotated, and each result is scored "
            "in matchpoints against everyone who held the same hand of the same deal.",
            frozenset({"deals"}),
        ),
    }
)

# The fields a format may require; a format's Terms set exactly its own and leave the others None.
FORMAT_FIELDS: tuple[str, ...] = ("rounds", "window_s", "deals")

NAME_MAX = 60
PLAYERS_MIN, PLAYERS_MAX = 2, 4
HANDS_MIN, HANDS_MAX = 1, 13
TURN_SECONDS_MIN, TURN_SECONDS_MAX = 5, 600
ENTRANTS_MIN, ENTRANTS_MAX = 2, 1024
ROUNDS_MIN, ROUNDS_MAX = 1, 15
WINDOW_S_MIN, WINDOW_S_MAX = 60.0, 6 * 3600.0
DEALS_MIN, DEALS_MAX = 1, 96


class TermsError(ValueError):
    """Terms refused: ``reason`` is machine-readable (``bad_terms``), ``field`` names the field at fault."""

    reason = "bad_terms"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = f"{field}: {message}"


@dataclass(frozen=True, slots=True)
class Terms:
    """The creator's choices for a tournament; :func:`verify_terms` holds them to the bounds above."""

    name: str
    format: Format
    players: int
    preset: str
    hands: int
    turn_seconds: int
    starts_at: float | None
    min_entrants: int
    max_entrants: int
    rated: bool
    bots: bool
    rounds: int | None = None
    window_s: float | None = None
    deals: int | None = None

    @property
    def duplicate_rounds(self) -> int:
        """Duplicate: the number of rounds (deals / hands); 0 for other formats."""
        return self.deals // self.hands if self.format is Format.DUPLICATE and self.deals else 0


def _int_in(field: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TermsError(field, "must be an integer")
    if not low <= value <= high:
        raise TermsError(field, f"must be between {low} and {high}")
    return value


def _bool(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise TermsError(field, "must be true or false")


def verify_terms(terms: Terms) -> None:
    """Check every field of ``terms``; raise :class:`TermsError` (reason ``bad_terms``) naming the first at fault.

    Also: a format's own field (``FORMATS[format].needs``) is required and the
    other formats' fields must be absent; a duplicate event seats full tables
    only (no house bot may hold a hand others are compared on), so its
    ``min_entrants`` and ``max_entrants`` must be multiples of ``players``.
    """
    if not isinstance(terms.name, str) or not terms.name.strip():
        raise TermsError("name", "must be a non-empty string")
    if len(terms.name) > NAME_MAX or not terms.name.isprintable():
        raise TermsError("name", f"must be at most {NAME_MAX} printable characters")
    if not isinstance(terms.format, Format):
        raise TermsError("format", f"must be one of {', '.join(Format)}")
    players = _int_in("players", terms.players, PLAYERS_MIN, PLAYERS_MAX)
    if not isinstance(terms.preset, str) or terms.preset not in PRESETS:
        raise TermsError("preset", f"must be one of {', '.join(PRESETS)}")
    hands = _int_in("hands", terms.hands, HANDS_MIN, HANDS_MAX)
    _int_in("turn_seconds", terms.turn_seconds, TURN_SECONDS_MIN, TURN_SECONDS_MAX)
    if terms.starts_at is not None and (
        isinstance(terms.starts_at, bool)
        or not isinstance(terms.starts_at, (int, float))
        or not math.isfinite(terms.starts_at)
        or terms.starts_at <= 0
    ):
        raise TermsError("starts_at", "must be epoch seconds, or null to start when full")
    low = _int_in("min_entrants", terms.min_entrants, max(ENTRANTS_MIN, players), ENTRANTS_MAX)
    _int_in("max_entrants", terms.max_entrants, low, ENTRANTS_MAX)
    _bool("rated", terms.rated)
    _bool("bots", terms.bots)
    needs = FORMATS[terms.format].needs
    for field in FORMAT_FIELDS:
        value = getattr(terms, field)
        if field in needs and value is None:
            raise TermsError(field, f"is required for the {terms.format} format")
        if field not in needs and value is not None:
            raise TermsError(field, f"is not a term of the {terms.format} format")
    if terms.rounds is not None:
        _int_in("rounds", terms.rounds, ROUNDS_MIN, ROUNDS_MAX)
    if terms.window_s is not None:
        w = terms.window_s
        if isinstance(w, bool) or not isinstance(w, (int, float)) or not WINDOW_S_MIN <= w <= WINDOW_S_MAX:
            raise TermsError("window_s", f"must be between {WINDOW_S_MIN:g} and {WINDOW_S_MAX:g} seconds")
    if terms.deals is not None:
        deals = _int_in("deals", terms.deals, DEALS_MIN, DEALS_MAX)
        if deals % hands:
            raise TermsError("deals", f"must be a multiple of hands ({hands}): each round plays `hands` deals")
        for field in ("min_entrants", "max_entrants"):
            if getattr(terms, field) % players:
                raise TermsError(
                    field,
                    f"must be a multiple of players ({players}) in a duplicate event: every table is full, "
                    "no house bot holds a hand",
                )
