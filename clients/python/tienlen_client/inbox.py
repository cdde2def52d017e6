"""Answers of an account's one connection: its inbox events, challenge settings, and the bots online (typed JSON).

Times are RFC 3339 text, as they come.
"""

from __future__ import annotations

from typing import Literal, Required, TypedDict

from .history import PlayerRating

__all__ = ["ChallengeSettings", "InboxEvent", "InboxEventType", "InboxPage", "MySettings", "OnlineBot"]

InboxEventType = Literal[
    "match_started",
    "your_turn",
    "match_finished",
    "challenge_received",
    "challenge_cancelled",
    "challenge_started",
    "queue_matched",
    "queue_left",
    "friend_started",
    "tournament_started",
    "tournament_table_ready",
    "tournament_finished",
    "tournament_cancelled",
]

# The functional form, for the field named ``from``.
InboxEvent = TypedDict(
    "InboxEvent",
    {
        "seq": Required[int],
        "type": Required[InboxEventType],
        "at": Required[str],
        "match_id": str,
        "seat": int,
        "players": int,
        "rated": bool,
        "version": int,
        "place": int | None,
        "rating_before": int | None,
        "rating_after": int | None,
        "challenge_id": str,
        "from": str,
        "to": list[str],
        "preset": str,
        "expires_at": str,
        "cause": Literal["withdrawn", "declined", "expired"],
        "by": str | None,
        "ticket": str,
        "name": str,
        "watchable": bool,
        "tournament_id": str,
        "round": int,
        "table": int,
        "why": str,
    },
    total=False,
)
"""One event of an account's inbox: ``seq`` (1, 2, … per account), ``type``, ``at``, and by type:

- ``match_started``: ``match_id``, ``seat``, ``players``, ``rated``
- ``your_turn``: ``match_id``, ``seat``, ``version`` (act with it)
- ``match_finished``: ``match_id``, ``seat``, ``place``, ``rating_before``, ``rating_after`` (None unless rated)
- ``challenge_received``: ``challenge_id``, ``from``, ``to``, ``players``, ``preset``, ``rated``, ``expires_at``
- ``challenge_cancelled``: ``challenge_id``, ``cause`` (``withdrawn``, ``declined`` by ``by``, ``expired``)
- ``challenge_started``: ``challenge_id``, ``match_id``, ``seat``
- ``queue_matched``: ``ticket``, ``match_id``, ``seat``
- ``queue_left``: ``ticket`` (it left the queue: ``DELETE /v1/queue/{ticket}``, from any client)
- ``friend_started``: ``name``, ``match_id``, ``watchable``, ``players``, ``rated`` (an account it follows started a
  match; only with the ``friends`` setting on)
- ``tournament_started``: ``tournament_id``; ``tournament_table_ready``: ``tournament_id``, ``round``,
  ``table``, ``match_id``, ``seat`` (play it); ``tournament_finished``: ``tournament_id``, ``place``;
  ``tournament_cancelled``: ``tournament_id``, ``why`` (``creator``, ``too_few_entrants``)
"""


class InboxPage(TypedDict):
    """``GET /v1/me/events``: events after a cursor, oldest first; ``last_seq`` is the next ``after``."""

    events: list[InboxEvent]
    last_seq: int


class ChallengeSettings(TypedDict):
    """Which challenges an account takes (``GET``/``PUT /v1/me/settings``): rated ones, casual ones."""

    rated: bool
    casual: bool


class MySettings(ChallengeSettings):
    """An account's settings (``GET``/``PUT /v1/me/settings``): the challenges it takes, and whether it hears
    ``friend_started`` of the accounts it follows (``friends``, off by default)."""

    friends: bool


class OnlineBot(TypedDict):
    """A bot account listening to its inbox in the last minute (``GET /v1/bots``)."""

    name: str
    ratings: list[PlayerRating]
    settings: ChallengeSettings
    last_seen: str
