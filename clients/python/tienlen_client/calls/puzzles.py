"""The puzzle calls: the next puzzle, a move of its solution, an account's puzzle rating."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ..puzzles import Puzzle, PuzzleMoveAnswer, PuzzleStats
from .base import BaseClient
from .bodies import segment

__all__ = ["PuzzleCalls"]


class PuzzleCalls(BaseClient):
    """``/v1/puzzles`` and ``/v1/me/puzzles``."""

    def next_puzzle(self, token: str | None = None) -> Puzzle:
        """``GET /v1/puzzles/next``: with an account's token (scope ``play``) the unattempted puzzle nearest its
        puzzle rating; without, a random one. Both hands are shown (perfect information)."""
        return cast(Puzzle, self.request("GET", "/v1/puzzles/next", token=token, expect=200))

    def puzzle_move(
        self, puzzle_id: str, step: int, cards: Sequence[str] | None, token: str | None = None
    ) -> PuzzleMoveAnswer:
        """``POST /v1/puzzles/{puzzle_id}/moves``: the solver's move number ``step`` (from 0): ``cards`` played, or
        None for a pass. ``correct`` (with the opponent's replies), ``solved`` or ``wrong`` (the right move shown).

        An illegal move is refused with the engine's reason (422), an unknown puzzle 404 ``puzzle_not_found``.
        Safe to retry: with a token, the account's attempt is decided once.
        """
        body = {"step": step, "type": "pass"} if cards is None else {"step": step, "type": "play", "cards": list(cards)}
        path = f"/v1/puzzles/{segment(puzzle_id)}/moves"
        return cast(PuzzleMoveAnswer, self.request("POST", path, body, token=token, expect=200))

    def my_puzzles(self, token: str) -> PuzzleStats:
        """``GET /v1/me/puzzles``: the account's puzzle rating and its attempts (scope ``play``)."""
        return cast(PuzzleStats, self.request("GET", "/v1/me/puzzles", token=token, expect=200))
