"""The six kinds of combination (docs/rules.md §2), by wire name."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """The six kinds of combination, by wire name."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT = "straight"
    CONSECUTIVE_PAIRS = "consecutive_pairs"
