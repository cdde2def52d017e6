"""The moderators' calls, each with the server's moderator token (``TIENLEN_MODERATOR_TOKEN``) as ``token``: the
open reports and dismissing one, removing a chat message, muting an account's chat, closing an account, the audit
list, and featuring a match on the live table.

Any other token is refused 403 ``not_moderator`` (:class:`~tienlen_client.ApiError`). The reads and the mutes and
featuring (the same again changes nothing more) are retried as any call; dismissing, removing and closing are sent
once, since a retry of one that was applied would be refused 404: after a failure, read the reports or the audit
list to learn whether it was.
"""

from __future__ import annotations

from typing import Any, cast

from ..moderation import AuditPage, ChatMute, ReportsPage
from .base import BaseClient
from .bodies import segment

__all__ = ["ModerationCalls"]


def _page_query(limit: int, cursor: str | None) -> str:
    return f"?limit={limit}" + ("" if cursor is None else f"&cursor={segment(cursor)}")


class ModerationCalls(BaseClient):
    """``/v1/moderation``, ``DELETE /v1/matches/{id}/chat/{seq}``, ``/v1/live/featured``."""

    def reports(self, token: str, *, limit: int = 50, cursor: str | None = None) -> ReportsPage:
        """``GET /v1/moderation/reports``: a page of the open reports (1 to 100), oldest first, each with its ``id``
        and the message as reported; pass ``next_cursor`` as ``cursor`` for the next page."""
        path = "/v1/moderation/reports" + _page_query(limit, cursor)
        return cast(ReportsPage, self.request("GET", path, token=token, expect=200))

    def dismiss_report(self, token: str, report_id: str) -> None:
        """``DELETE /v1/moderation/reports/{report_id}`` → 204: dismiss one report (its ``id``), leaving the
        message; 404 ``report_not_found`` when no report is open under that id. Sent once."""
        path = f"/v1/moderation/reports/{segment(report_id)}"
        self.request("DELETE", path, token=token, expect=204, once=True)

    def remove_message(self, token: str, match_id: str, seq: int) -> None:
        """``DELETE /v1/matches/{match_id}/chat/{seq}`` → 204: the message's text is gone (a ``chat_removed``
        event follows on the match) and its reports are closed; 404 ``message_not_found``. Sent once."""
        self.request("DELETE", f"/v1/matches/{segment(match_id)}/chat/{seq}", token=token, expect=204, once=True)

    def mute_chat(self, token: str, name: str, minutes: int) -> ChatMute:
        """``PUT /v1/moderation/muted/{name}`` ``{minutes}`` (1 to 43200): the account cannot chat until the
        answer's ``until`` (again: from now); 404 ``player_not_found``."""
        path = f"/v1/moderation/muted/{segment(name)}"
        return cast(ChatMute, self.request("PUT", path, {"minutes": minutes}, token=token, expect=200))

    def unmute_chat(self, token: str, name: str) -> None:
        """``DELETE /v1/moderation/muted/{name}`` → 204: lift a moderator's mute (none: no change, still audited)."""
        self.request("DELETE", f"/v1/moderation/muted/{segment(name)}", token=token, expect=204)

    def close_account(self, token: str, name: str) -> None:
        """``POST /v1/moderation/closed/{name}`` → 204: the account is erased as its own deletion would, its
        tokens revoked at once; 404 ``player_not_found`` (also for a closed one). Sent once."""
        self.request("POST", f"/v1/moderation/closed/{segment(name)}", token=token, expect=204, once=True)

    def audit(self, token: str, *, limit: int = 50, cursor: str | None = None) -> AuditPage:
        """``GET /v1/moderation/audit``: a page of the moderators' acts (1 to 100), newest first; the list keeps
        the newest 10,000."""
        path = "/v1/moderation/audit" + _page_query(limit, cursor)
        return cast(AuditPage, self.request("GET", path, token=token, expect=200))

    def feature_match(self, token: str, match_id: str) -> None:
        """``PUT /v1/live/featured`` ``{match_id}`` → 204: the match is the live table's while it is played;
        404 ``match_not_found``, 409 ``match_not_playing``, 403 ``not_watchable``."""
        body: dict[str, Any] = {"match_id": match_id}
        self.request("PUT", "/v1/live/featured", body, token=token, expect=204)

    def unfeature_match(self, token: str) -> None:
        """``DELETE /v1/live/featured`` → 204: the live table shows the best live match again."""
        self.request("DELETE", "/v1/live/featured", token=token, expect=204)
