"""Policies the bot runner's tests load by file (``tienlen-bot --policy tests/clients/bot_policies.py:NAME``)."""

from __future__ import annotations

from typing import Any


def lowest_first(view: dict[str, Any]) -> dict[str, Any]:
    """The lowest legal play (pass when none), worked out with the botkit."""
    from tienlen_client.botkit import lowest_play

    cards = lowest_play(view)
    return {"type": "play", "cards": cards} if cards else {"type": "pass"}


def on_chat(message: dict[str, Any]) -> str | None:
    """The chat hook of this module's function policies: answers "ping" with "pong"."""
    return "pong" if message.get("text") == "ping" else None
