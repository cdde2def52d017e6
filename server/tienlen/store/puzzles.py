"""What a puzzle store is: each account's puzzle attempts and puzzle rating, and each puzzle's rating.

The service (:mod:`tienlen.service.puzzles`) is written against :class:`PuzzleStore`; :mod:`.redis_puzzles`
keeps it in Redis. Ratings are kept as the service's JSON text (the store does not read them). An account's
attempt of a puzzle is ``open`` from its first answer until it is decided once, ``won`` or ``lost``.
"""

from __future__ import annotations

from typing import Protocol

OPEN = "open"


class PuzzleStore(Protocol):
    """Puzzle attempts and ratings."""

    def attempts(self, account_id: str) -> dict[str, str]:
        """The account's attempts: puzzle id → ``open``, ``won`` or ``lost``."""
        ...

    def open_attempt(self, account_id: str, puzzle_id: str) -> bool:
        """Open the account's attempt of the puzzle; False when it has one already (open or decided)."""
        ...

    def decide_attempt(self, account_id: str, puzzle_id: str, result: str) -> bool:
        """Decide the account's open attempt (``won`` or ``lost``) in one step; False when none was open."""
        ...

    def account_rating(self, account_id: str) -> str | None:
        """The account's puzzle rating as stored (None: none yet)."""
        ...

    def puzzle_ratings(self) -> dict[str, str]:
        """Every puzzle's rating as stored (a puzzle never attempted by an account has none)."""
        ...

    def set_ratings(self, account_id: str, account_rating: str, puzzle_id: str, puzzle_rating: str) -> None:
        """Keep the account's and the puzzle's ratings after a decided attempt."""
        ...

    def forget(self, account_id: str) -> None:
        """The account was deleted: its attempts and puzzle rating go."""
        ...
