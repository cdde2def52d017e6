"""Answers of friends (``/v1/me/following``): the accounts followed, their presence and live matches (typed JSON).

Times are RFC 3339 text, as they come.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .history import PlayingMatch

__all__ = ["Friend", "Presence"]

Presence = Literal["playing", "online", "away"]


class Friend(TypedDict):
    """An account followed: ``presence`` (``playing`` in ``matches``, ``online`` listening to its inbox in the last
    minute, else ``away``) and ``last_seen`` (when it last listened; None after a day)."""

    name: str
    bot: bool
    presence: Presence
    matches: list[PlayingMatch]
    last_seen: str | None
