"""The chat's answers and events, as typed dictionaries (their JSON as it comes: times are RFC 3339 text).

A match's chat has two rooms: ``table`` (the seats write there, and only the seats' readers read it) and
``spectators`` (any other account writes there; everyone reads it). A message comes as a match event
(:class:`ChatSaid`, on ``GET …/events`` and ``…/stream``); a moderator's removal as :class:`ChatRemoved`.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

ChatRoom = Literal["table", "spectators"]


class ChatSaid(TypedDict):
    """The ``chat_said`` event: a message (``text`` empty once a moderator removed it)."""

    seq: int
    type: Literal["chat_said"]
    room: ChatRoom
    name: str
    from_seat: int | None
    account: str | None
    text: str
    phrase: str | None
    said_at: str


class ChatRemoved(TypedDict):
    """The ``chat_removed`` event: a moderator removed message ``message_seq``."""

    seq: int
    type: Literal["chat_removed"]
    message_seq: int


class ChatFrom(TypedDict):
    """Who said a message: its name, seat (None for a spectator), account name (None for an anonymous seat)."""

    name: str
    seat: int | None
    account: str | None


ChatMessage = TypedDict(
    "ChatMessage",
    {"seq": int, "room": ChatRoom, "from": ChatFrom, "text": str, "phrase": str | None, "at": str},
)
"""A message as ``POST …/chat`` and ``GET …/chat`` answer it."""


class ChatReport(TypedDict):
    """A report kept for the moderators."""

    match_id: str
    message: ChatMessage
    reporter: str
    why: str | None
    at: str


def chat_body(room: ChatRoom, text: str | None, phrase: str | None) -> dict[str, Any]:
    """The body of a message: exactly one of ``text`` and ``phrase`` (a quick phrase's id); ValueError else."""
    if (text is None) == (phrase is None):
        raise ValueError("give exactly one of text and phrase")
    return {"room": room, "text": text} if text is not None else {"room": room, "phrase": phrase}


CHAT_EVENTS = frozenset({"chat_said", "chat_removed"})
"""The ``type`` of the chat's match events."""

__all__ = ["CHAT_EVENTS", "ChatFrom", "ChatMessage", "ChatRemoved", "ChatReport", "ChatRoom", "ChatSaid", "chat_body"]
