"""Answers of puzzles (``/v1/puzzles``, ``/v1/me/puzzles``): positions from real endgames (typed JSON)."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["Puzzle", "PuzzleAction", "PuzzleMoveAnswer", "PuzzleStats", "PuzzleTable"]


class PuzzleTable(TypedDict):
    """The battle on the table: the play to beat and the seat that played it (it may be out)."""

    cards: list[str]
    seat: int | None


class Puzzle(TypedDict):
    """A puzzle's position: the solver's hand and the opponent's cards (perfect information), the table."""

    id: str
    preset: str
    seat: int
    hand: list[str]
    opponent_seat: int
    opponent: list[str]
    opponent_count: int
    table: PuzzleTable | None
    locked: list[int]
    out: list[int]
    moves: int
    choices: int
    difficulty: int
    rating: int


class PuzzleAction(TypedDict):
    """A move: ``play`` with its cards, or ``pass`` (no cards)."""

    type: Literal["play", "pass"]
    cards: list[str]


class PuzzleMoveAnswer(TypedDict):
    """What a move did: ``correct`` (``replies``, go on at ``next_step``), ``solved`` or ``wrong`` (``answer``)."""

    result: Literal["correct", "solved", "wrong"]
    replies: list[PuzzleAction]
    answer: PuzzleAction | None
    next_step: int | None
    rating: int | None


class PuzzleStats(TypedDict):
    """An account's puzzle rating and attempts."""

    rating: int
    provisional: bool
    attempts: int
    solved: int
    failed: int
    open: int
