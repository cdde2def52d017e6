"""The moderators' acts (``Authorization: Bearer <TIENLEN_MODERATOR_TOKEN>``): reports (and dismissing one), removing a
chat message,
muting an account's chat, closing an account, and the audit list of every act."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...service.moderation import AuditPage
from ..caller import require_moderator
from ..schemas.chat import AuditPageSchema, ChatMuteRequestSchema, ChatMuteSchema, PageQuerySchema, ReportsPageSchema
from ..schemas.common import MAX_SEQ
from ..services import services
from .common import AUTH, MATCH_ID, Blueprint, errors, game

blp = Blueprint(
    "moderation",
    __name__,
    url_prefix="/v1/moderation",
    description="The moderators' acts: send the server's moderator token (`TIENLEN_MODERATOR_TOKEN`); every act "
    "is recorded in the audit list",
)
messages = Blueprint(
    "moderation_messages",
    __name__,
    url_prefix="/v1/matches",
    description="A moderator removes a chat message (the moderator token)",
)

NAME = "<string:name>"
MODERATOR = ("not_moderator", "store_unavailable")


@blp.route("/reports")
class Reports(MethodView):
    """Open reports."""

    @blp.arguments(PageQuerySchema(), location="query")
    @blp.response(200, ReportsPageSchema)
    @blp.doc(security=AUTH, operationId="list_reports", responses=errors(*MODERATOR, "invalid_request"))
    def get(self, query: dict[str, Any]) -> dict[str, Any]:
        """Open reports, oldest first: each with the message as reported, its match and the reporter.

        Removing a message closes its reports; `DELETE /v1/moderation/reports/{report_id}` dismisses one.
        """
        require_moderator()
        reports, cursor = game().moderation.reports(query.get("cursor"), query["limit"])
        return {"reports": reports, "next_cursor": cursor}


@blp.route("/reports/<string:report_id>")
class Report(MethodView):
    """One open report."""

    @blp.response(204)
    @blp.doc(
        security=AUTH,
        operationId="dismiss_report",
        responses=errors(*MODERATOR, "report_not_found"),
    )
    def delete(self, report_id: str) -> None:
        """Dismiss report `report_id` (its `id` in the list) and leave its message as it is: the report is closed
        (the message's other reports stay open) and `report_dismissed` is recorded in the audit list."""
        require_moderator()
        game().moderation.dismiss(report_id)


@messages.route(f"/{MATCH_ID}/chat/<int:seq>")
class Message(MethodView):
    """One chat message."""

    @messages.response(204)
    @messages.doc(
        security=AUTH,
        operationId="remove_chat_message",
        parameters=[{"in": "path", "name": "seq", "schema": {"type": "integer", "minimum": 1, "maximum": MAX_SEQ}}],
        responses=errors(*MODERATOR, "match_not_found", "message_not_found", "outcome_unknown"),
    )
    def delete(self, match_id: str, seq: int) -> None:
        """Remove chat message `seq`: its text is gone from the match's events and its kept record, and a
        `chat_removed` event (`message_seq`) follows on the match. Its reports are closed."""
        require_moderator()
        game().moderation.remove(match_id, seq)


@blp.route(f"/muted/{NAME}")
class ChatMute(MethodView):
    """A moderator's mute of an account's chat."""

    @blp.arguments(ChatMuteRequestSchema())
    @blp.response(200, ChatMuteSchema)
    @blp.doc(
        security=AUTH,
        operationId="moderator_mute",
        responses=errors(
            *MODERATOR,
            "player_not_found",
            "bad_request",
            "payload_too_large",
            "unsupported_media_type",
            "invalid_request",
        ),
    )
    def put(self, body: dict[str, Any], name: str) -> dict[str, Any]:
        """Mute the chat of the account named `name` for `minutes` (1 to 43200): until then its messages are
        refused 403 `chat_muted`. Again: the mute runs from now."""
        require_moderator()
        until = game().moderation.mute(name, body["minutes"])
        return {"name": name, "until": until}

    @blp.response(204)
    @blp.doc(security=AUTH, operationId="moderator_unmute", responses=errors(*MODERATOR, "player_not_found"))
    def delete(self, name: str) -> None:
        """Lift a moderator's mute of the account named `name` (none: no change, still recorded)."""
        require_moderator()
        game().moderation.unmute(name)


@blp.route(f"/closed/{NAME}")
class Closed(MethodView):
    """Closing an account."""

    @blp.response(204)
    @blp.doc(security=AUTH, operationId="close_account", responses=errors(*MODERATOR, "player_not_found"))
    def post(self, name: str) -> None:
        """Close the account named `name`: erased as its own deletion would (`DELETE /v1/me`), without its password.

        Its sessions and personal tokens are revoked at once, nobody logs in as
        it again and its name stays taken; its seats in kept and live matches
        are named `(deleted)`.
        """
        require_moderator()
        game().moderation.close(name, services().accounts.close)


@blp.route("/audit")
class Audit(MethodView):
    """The audit list."""

    @blp.arguments(PageQuerySchema(), location="query")
    @blp.response(200, AuditPageSchema)
    @blp.doc(security=AUTH, operationId="list_audit", responses=errors(*MODERATOR, "invalid_request"))
    def get(self, query: dict[str, Any]) -> AuditPage:
        """Every moderator's act, newest first: when, what, whom, and a short detail (never a message's text)."""
        require_moderator()
        return game().moderation.audit(query.get("cursor"), query["limit"])


blueprints = (blp, messages)
