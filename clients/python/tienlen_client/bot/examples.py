"""Example policies for ``tienlen-bot``: :class:`Polite` plays the lowest legal play and talks a little.

``tienlen-bot --policy tienlen_client.bot.examples:Polite``. A policy class's ``chat(message)`` method is its
chat hook (:func:`~.policy.chat_hook`): given each message of others its seat reads, and the match's end.
"""

from __future__ import annotations

from typing import Any

from .policy import Action, lowest

__all__ = ["Polite"]

GREETINGS = ("hello", "hi", "chào", "xin chào")


class Polite:
    """Plays the lowest legal play; answers a greeting at the table, and says "Good game" (the quick phrase
    ``good_game``, shown in each reader's language) when the match ends."""

    def act(self, view: dict[str, Any]) -> Action:
        """The lowest legal play (pass when there is none)."""
        return lowest(view)

    def chat(self, message: dict[str, Any]) -> str | dict[str, str] | None:
        """``{"phrase": "good_game"}`` at the end; a hello back to a greeting at the table; else nothing."""
        if message["type"] == "match_ended":
            return {"phrase": "good_game"}
        words = str(message.get("text", "")).lower()
        if message.get("room") == "table" and any(words.startswith(greeting) for greeting in GREETINGS):
            return f"Hello {message.get('name', '')}!".replace(" !", "!")
        return None
