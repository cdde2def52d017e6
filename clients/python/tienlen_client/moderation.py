"""Answers of the moderators' calls (``/v1/moderation``, the moderator token): open reports, a mute, the audit
list (typed JSON; times are RFC 3339 text, as they come)."""

from __future__ import annotations

from typing import Literal, TypedDict

from .chat import ChatMessage

__all__ = ["AuditAct", "AuditActKind", "AuditPage", "ChatMute", "OpenReport", "ReportsPage"]

AuditActKind = Literal[
    "message_removed",
    "report_dismissed",
    "chat_muted",
    "chat_unmuted",
    "account_closed",
    "match_featured",
    "match_unfeatured",
]


class OpenReport(TypedDict):
    """An open report: its ``id`` (to dismiss it), the match, the message as reported, who reported it, why, when."""

    id: str
    match_id: str
    message: ChatMessage
    reporter: str
    why: str | None
    at: str


class ReportsPage(TypedDict):
    """Open reports, oldest first, and the cursor of the next page (None at the end)."""

    reports: list[OpenReport]
    next_cursor: str | None


class ChatMute(TypedDict):
    """A moderator's mute of an account's chat: whose, and when it ends."""

    name: str
    until: str


class AuditAct(TypedDict):
    """A moderator's act: when, what, whom (an account's name, a message ``<match id>/<seq>``, a match) and a short
    detail (never a message's text)."""

    at: str
    act: AuditActKind
    target: str
    detail: str


class AuditPage(TypedDict):
    """The moderators' acts, newest first, and the cursor of the next page (None at the end)."""

    acts: list[AuditAct]
    next_cursor: str | None
