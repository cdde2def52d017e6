"""Computer players for Tiến Lên: Easy, Medium, Hard and Expert bots and hints.

Bots decide from a seat's view only (own cards plus public state and the public
history of the hand) and the legal plays; their randomness comes only from the
generator they are given (see :func:`bot_rng`). :data:`DEFAULT_BUDGET_S` is
the one default of Hard's seconds a decision where a clock applies (the server,
the tournament, hints); the bot runs deal the numbered deals of :func:`deal_seed`.
"""

from .base import Action, Hint
from .deal_set import deal_seed
from .driver import (
    BOT_LEVELS,
    DEFAULT_BUDGET_S,
    LEVELS,
    DecisionHook,
    Level,
    bot_rng,
    choose,
    decision_budget_s,
    hint,
    play_bot_turns,
)

__all__ = [
    "BOT_LEVELS",
    "DEFAULT_BUDGET_S",
    "LEVELS",
    "Action",
    "DecisionHook",
    "Hint",
    "Level",
    "bot_rng",
    "choose",
    "deal_seed",
    "decision_budget_s",
    "hint",
    "play_bot_turns",
]
