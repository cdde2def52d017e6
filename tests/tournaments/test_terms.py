"""Terms: every bad field refused with reason ``bad_terms`` naming it; each format needs exactly its own field."""

from __future__ import annotations

from typing import Any

import pytest

from tienlen.tournaments import FORMATS, Format, TermsError, verify_terms

from .helpers import terms

GOOD = [
    {},
    {"format": Format.ARENA, "rounds": None, "window_s": 3600.0},
    {"format": Format.DUPLICATE, "rounds": None, "deals": 24, "min_entrants": 32, "max_entrants": 32},
    {"players": 2, "min_entrants": 2, "max_entrants": 1024, "starts_at": 1.7e9, "hands": 13, "turn_seconds": 600},
]

BAD: list[tuple[str, dict[str, Any], str]] = [
    ("name is required", {"name": "  "}, "name"),
    ("name at most 60 characters", {"name": "x" * 61}, "name"),
    ("name printable", {"name": "a\nb"}, "name"),
    ("table size 2..4", {"players": 5}, "players"),
    ("table size an integer", {"players": True}, "players"),
    ("preset is an engine preset", {"preset": "poker"}, "preset"),
    ("hands 1..13", {"hands": 14}, "hands"),
    ("turn clock 5..600", {"turn_seconds": 4}, "turn_seconds"),
    ("starts_at finite epoch seconds", {"starts_at": float("nan")}, "starts_at"),
    ("min_entrants at least the table size", {"min_entrants": 3}, "min_entrants"),
    ("max_entrants at least min_entrants", {"min_entrants": 8, "max_entrants": 7}, "max_entrants"),
    ("max_entrants at most 1024", {"max_entrants": 1025}, "max_entrants"),
    ("rated a boolean", {"rated": 1}, "rated"),
    ("swiss needs rounds", {"rounds": None}, "rounds"),
    ("rounds 1..15", {"rounds": 16}, "rounds"),
    ("a format's foreign field refused", {"window_s": 600.0}, "window_s"),
    ("arena needs window_s", {"format": Format.ARENA, "rounds": None}, "window_s"),
    ("window 60 s..6 h", {"format": Format.ARENA, "rounds": None, "window_s": 59.0}, "window_s"),
    ("duplicate needs deals", {"format": Format.DUPLICATE, "rounds": None, "min_entrants": 8}, "deals"),
    (
        "deals a multiple of hands",
        {"format": Format.DUPLICATE, "rounds": None, "deals": 10, "min_entrants": 8},
        "deals",
    ),
    ("deals at most 96", {"format": Format.DUPLICATE, "rounds": None, "deals": 100, "min_entrants": 8}, "deals"),
    (
        "duplicate: max_entrants a multiple of the table size",
        {"format": Format.DUPLICATE, "rounds": None, "deals": 24, "min_entrants": 8, "max_entrants": 30},
        "max_entrants",
    ),
    (
        "duplicate: min_entrants a multiple of the table size",
        {"format": Format.DUPLICATE, "rounds": None, "deals": 24, "min_entrants": 9, "max_entrants": 32},
        "min_entrants",
    ),
]


@pytest.mark.parametrize("changes", GOOD)
def test_good_terms_pass(changes: dict[str, Any]) -> None:
    """Rule: terms within every bound, with their format's field, are accepted."""
    verify_terms(terms(**changes))


@pytest.mark.parametrize(("rule", "changes", "field"), BAD, ids=[case[0] for case in BAD])
def test_bad_terms_are_refused_naming_the_field(rule: str, changes: dict[str, Any], field: str) -> None:
    """Rule: each bad field is refused with reason bad_terms and a message naming it."""
    with pytest.raises(TermsError) as caught:
        verify_terms(terms(**changes))
    assert caught.value.reason == "bad_terms"
    assert caught.value.field == field
    assert caught.value.message.startswith(f"{field}: ")


def test_duplicate_refusal_says_every_table_is_full() -> None:
    """Rule: duplicate's entry limits must fill whole tables, and the message says why."""
    with pytest.raises(TermsError, match="every table is full"):
        verify_terms(terms(format=Format.DUPLICATE, rounds=None, deals=24, min_entrants=8, max_entrants=30))


def test_every_format_is_declared_once_with_its_field() -> None:
    """Rule: FORMATS declares every format, each needing exactly one of the format fields."""
    assert set(FORMATS) == set(Format)
    assert [spec.needs for spec in FORMATS.values()] == [
        frozenset({"rounds"}),
        frozenset({"window_s"}),
        frozenset({"deals"}),
    ]
    assert all(spec.summary.endswith(".") for spec in FORMATS.values())
