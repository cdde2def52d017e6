"""An entrant of a tournament (re-exported by :mod:`.seating`)."""

from __future__ import annotations

from dataclasses import dataclass

from .results import Sitter


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant: account, shown name, whether a bot account, rating, join order (from 1), withdrawn or not."""

    account_id: str
    name: str
    bot: bool
    rating: int
    number: int
    withdrawn: bool = False

    @property
    def sitter(self) -> Sitter:
        """This entrant as a table's sitter."""
        return Sitter(self.account_id, self.name)
