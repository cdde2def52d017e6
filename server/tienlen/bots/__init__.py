"""Computer players for Tiến Lên: Easy, Medium and Hard bots and hints.

Bots decide from a seat's view only (own cards plus public state and the public
history of the hand) and the legal plays; their randomness comes only from the
generator they are given (see :func:`bot_rng`).
"""

from .base import Action, Hint
from .driver import DEFAULT_BUDGET_S, LEVELS, DecisionHook, bot_rng, choose, hint, play_bot_turns

__all__ = [
    "DEFAULT_BUDGET_S",
    "LEVELS",
    "Action",
    "DecisionHook",
    "Hint",
    "bot_rng",
    "choose",
    "hint",
    "play_bot_turns",
]
