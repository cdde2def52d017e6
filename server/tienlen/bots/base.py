"""Shared bot types: the chosen action and a hint.

Bots read a seat's :class:`~tienlen.engine.SeatView` (its own hand and the
public state) and the legal plays; nothing of another hand reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.cards import format_mask

if TYPE_CHECKING:
    from .explain import Explanation

PLAY = "play"
PASS = "pass"


@dataclass(frozen=True, slots=True)
class Action:
    """What a bot or a hint chooses: ``play`` a card mask or ``pass``."""

    type: str
    mask: int = 0

    @property
    def cards(self) -> list[str]:
        """Canonical card texts of the play, low to high (empty for a pass)."""
        return format_mask(self.mask)

    @property
    def is_pass(self) -> bool:
        """Whether the action is a pass."""
        return self.type == PASS


PASS_ACTION = Action(PASS)


def play_action(mask: int) -> Action:
    """A play of these cards."""
    return Action(PLAY, mask)


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action and a short plain-words reason naming the cards (``reasons``: the same, machine-readable)."""

    action: Action
    explanation: str
    reasons: Explanation | None = None
