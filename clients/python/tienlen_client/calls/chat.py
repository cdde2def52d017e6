"""The chat calls: say something at a match, read its chat, report a message; mute and block accounts."""

from __future__ import annotations

from typing import cast

from ..chat import ChatMessage, ChatReport, ChatRoom, chat_body
from .base import BaseClient
from .bodies import segment

__all__ = ["ChatCalls"]


class ChatCalls(BaseClient):
    """``/v1/matches/{id}/chat``, ``/v1/me/muted``, ``/v1/me/blocked``."""

    def chat(
        self, match_id: str, token: str, text: str | None = None, *, phrase: str | None = None, room: ChatRoom = "table"
    ) -> ChatMessage:
        """``POST …/chat`` → 201 the message: ``text`` (1-200 characters) or a quick ``phrase``'s id
        (``rules()["chat_phrases"]``). A seat (its token, or its account's) writes in ``table``; any other
        account in ``spectators``. Not idempotent: sent once (a retry could say it twice)."""
        body = chat_body(room, text, phrase)
        return cast(
            ChatMessage, self.request("POST", f"/v1/matches/{match_id}/chat", body, token=token, expect=201, once=True)
        )

    def chat_messages(self, match_id: str, token: str | None = None) -> list[ChatMessage]:
        """``GET …/chat``: the match's chat as ``token``'s reader may read it, oldest first (kept after the match)."""
        return cast(
            list[ChatMessage], self.request("GET", f"/v1/matches/{match_id}/chat", token=token, expect=200)["messages"]
        )

    def report(self, match_id: str, seq: int, token: str, why: str | None = None) -> ChatReport:
        """``POST …/chat/{seq}/report`` → 201: report a message to the moderators (once per account)."""
        body = {} if why is None else {"why": why}
        return cast(
            ChatReport, self.request("POST", f"/v1/matches/{match_id}/chat/{seq}/report", body, token=token, expect=201)
        )

    def mute(self, token: str, name: str) -> None:
        """Mute the account named ``name``: its messages are left out of what you read."""
        self.request("PUT", f"/v1/me/muted/{segment(name)}", token=token, expect=204)

    def unmute(self, token: str, name: str) -> None:
        """Stop muting the account named ``name``."""
        self.request("DELETE", f"/v1/me/muted/{segment(name)}", token=token, expect=204)

    def muted(self, token: str) -> list[str]:
        """The names of the accounts you mute."""
        return list(self.request("GET", "/v1/me/muted", token=token, expect=200)["names"])

    def block(self, token: str, name: str) -> None:
        """Block the account named ``name``: no challenge between you, neither reads the other's messages."""
        self.request("PUT", f"/v1/me/blocked/{segment(name)}", token=token, expect=204)

    def unblock(self, token: str, name: str) -> None:
        """Stop blocking the account named ``name``."""
        self.request("DELETE", f"/v1/me/blocked/{segment(name)}", token=token, expect=204)

    def blocked(self, token: str) -> list[str]:
        """The names of the accounts you block."""
        return list(self.request("GET", "/v1/me/blocked", token=token, expect=200)["names"])
