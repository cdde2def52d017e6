"""Answers of the challenge calls (``/v1/challenges``): a challenge as its sender and challenged accounts see it."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = ["Challenge", "ChallengeStatus", "ChallengeToken"]

ChallengeStatus = Literal["pending", "started", "declined", "withdrawn", "expired"]


class ChallengeToken(TypedDict):
    """The challenger's seat token (given only when a challenge of house bots alone started at once)."""

    seat: int
    token: str


Challenge = TypedDict(
    "Challenge",
    {
        "challenge_id": str,
        "from": str,
        "to": list[str],
        "players": int,
        "preset": str,
        "rated": bool,
        "status": ChallengeStatus,
        "accepted": list[str],
        "declined_by": str | None,
        "created_at": str,
        "expires_at": str,
        "match_id": str | None,
        "tokens": list[ChallengeToken],
        "match": dict[str, Any] | None,
    },
)
"""A challenge: ``from`` its sender, ``to`` the challenged in seat order; ``match_id`` and ``match`` once
``status`` is ``started`` (the match as ``GET /v1/matches/{id}`` shows it); times are RFC 3339 UTC text."""
