"""Answers of friends (``/v1/me/following``): the accounts followed, their presence and live matches (typed JSON).

Times are RFC 3339 text, as they come.
"""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["Friend", "LiveMatch", "Presence"]

Presence = Literal["playing", "online", "away"]


class LiveMatch(TypedDict):
    """A live match a followed account plays in (for a Watch link): ``started_at`` is when its first hand was dealt."""

    match_id: str
    watchable: bool
    players: int
    rated: bool
    started_at: str


class Friend(TypedDict):
    """An account followed: ``presence`` (``playing`` in ``matches``, ``online`` listening to its inbox in the last
    minute, else ``away``) and ``last_seen`` (when it last listened; None after a day)."""

    name: str
    bot: bool
    presence: Presence
    matches: list[LiveMatch]
    last_seen: str | None
