"""A match's chat: say something in a room, read the chat, report a message; an account's mute and block lists.

The messages also come as the match's events (``chat_said``) on ``GET …/events`` and ``…/stream``.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...service.commands import Report, Say
from ...store.chat import BLOCKED, MUTED
from ..schemas.chat import ChatMessageSchema, ChatSchema, NameListSchema, ReportRequestSchema, ReportSchema, SaySchema
from ..schemas.common import MAX_SEQ
from .common import AUTH, MATCH_ID, PER_PLAYER, Blueprint, bearer_token, errors, game, limited

blp = Blueprint(
    "chat",
    __name__,
    url_prefix="/v1/matches",
    description="A match's chat: the seats' room (`table`) and the spectators' (`spectators`), reports",
)
lists = Blueprint(
    "chat_lists",
    __name__,
    url_prefix="/v1/me",
    description="Whom your account mutes (their messages hidden from you) and blocks (no challenges, no chat "
    "either way): a token with scope `play`",
)

SEQ = "<int:seq>"
NAME = "<string:name>"
BODY_REASONS = ("bad_request", "payload_too_large", "unsupported_media_type", "invalid_request")
ACCOUNT_REASONS = ("invalid_token", "scope_missing", "store_unavailable")
SAY_DOC = """Say something in the match's chat: `text` (1-200 characters once trimmed) or a quick `phrase`'s id.

A seat (its token, or a `play` token of the account holding it) writes in `table`, the seats' room (403
`not_spectator` for `spectators`); any other account (a `play` token) writes in `spectators` (403 `not_seated`
for `table`); without a token 401. A match waiting or in play takes messages, a finished one for 10 minutes
after its end (then 409 `match_not_playing`); a cancelled match is gone (404). An account a moderator muted
is refused 403 `chat_muted` (`errors.until`: when the mute ends). Limited per account (per seat for an
anonymous seat): 429 `rate_limited` past it.

Answers the message, which every reader that may read it also gets as a `chat_said` event. A message is an
event of the match: it moves the match's `version` like every event.
"""


@blp.route(f"/{MATCH_ID}/chat")
class ChatResource(MethodView):
    """A match's chat."""

    @limited("chat", PER_PLAYER)
    @blp.arguments(SaySchema())
    @blp.response(201, ChatMessageSchema)
    @blp.doc(
        security=AUTH,
        operationId="post_chat",
        description=SAY_DOC,
        responses=errors(
            *BODY_REASONS,
            "invalid_token",
            "scope_missing",
            "not_seated",
            "not_spectator",
            "chat_muted",
            "match_not_found",
            "match_not_playing",
            "store_unavailable",
            "outcome_unknown",
        ),
    )
    def post(self, command: Say, match_id: str) -> dict[str, Any]:
        """Say something in a room of the match's chat."""
        return game().chat.say(match_id, bearer_token(), command)

    @blp.response(200, ChatSchema)
    @blp.doc(operationId="get_chat", responses=errors("match_not_found", "store_unavailable"))
    def get(self, match_id: str) -> dict[str, Any]:
        """The match's chat as you may read it, oldest first.

        The `spectators` room for everyone; the `table` room too with a seat's
        token or a token of an account that held a seat. Your account's muted
        and blocked accounts' messages (and those of accounts that block you)
        are left out. Once the live match is gone, the chat kept with its kept
        record (`TIENLEN_HISTORY_DAYS`) is read. A token that is no seat's nor
        an account's reads as none.
        """
        return {"messages": game().chat.messages(match_id, bearer_token())}


@blp.route(f"/{MATCH_ID}/chat/{SEQ}/report")
class ReportResource(MethodView):
    """Reporting a message to the moderators."""

    @limited("chat", PER_PLAYER)
    @blp.arguments(ReportRequestSchema())
    @blp.response(201, ReportSchema)
    @blp.doc(
        security=AUTH,
        operationId="report_chat_message",
        parameters=[{"in": "path", "name": "seq", "schema": {"type": "integer", "minimum": 1, "maximum": MAX_SEQ}}],
        responses=errors(*BODY_REASONS, *ACCOUNT_REASONS, "match_not_found", "message_not_found", "already_reported"),
    )
    def post(self, command: Report, match_id: str, seq: int) -> dict[str, Any]:
        """Report chat message `seq` to the moderators, with an optional `why` (up to 200 characters).

        An account (scope `play`) that may read the message reports it once: a
        second report of the same message by the same account is 409
        `already_reported`. A message that is none, removed, or in a room you
        may not read is 404 `message_not_found`.
        """
        return game().chat.report(match_id, seq, bearer_token(), command)


LIST_REASONS = (*ACCOUNT_REASONS, "player_not_found")


@lists.route(f"/{MUTED}")
class MutedList(MethodView):
    """The accounts you mute."""

    @lists.response(200, NameListSchema)
    @lists.doc(security=AUTH, operationId="list_muted", responses=errors(*ACCOUNT_REASONS))
    def get(self) -> dict[str, Any]:
        """The names of the accounts you mute, first muted first."""
        return {"names": game().chat_lists.names(bearer_token(), MUTED)}


@lists.route(f"/{MUTED}/{NAME}")
class Muted(MethodView):
    """One account you mute."""

    @lists.response(204)
    @lists.doc(security=AUTH, operationId="mute_player", responses=errors(*LIST_REASONS, "invalid_request"))
    def put(self, name: str) -> None:
        """Mute the account named `name`: its chat messages are left out of what you read (again: no change).

        404 `player_not_found` for an unknown name; yourself is 422 `invalid_request`.
        """
        game().chat_lists.put(bearer_token(), MUTED, name)

    @lists.response(204)
    @lists.doc(security=AUTH, operationId="unmute_player", responses=errors(*LIST_REASONS))
    def delete(self, name: str) -> None:
        """Stop muting the account named `name` (not muted: no change)."""
        game().chat_lists.take(bearer_token(), MUTED, name)


@lists.route(f"/{BLOCKED}")
class BlockedList(MethodView):
    """The accounts you block."""

    @lists.response(200, NameListSchema)
    @lists.doc(security=AUTH, operationId="list_blocked", responses=errors(*ACCOUNT_REASONS))
    def get(self) -> dict[str, Any]:
        """The names of the accounts you block, first blocked first."""
        return {"names": game().chat_lists.names(bearer_token(), BLOCKED)}


@lists.route(f"/{BLOCKED}/{NAME}")
class Blocked(MethodView):
    """One account you block."""

    @lists.response(204)
    @lists.doc(security=AUTH, operationId="block_player", responses=errors(*LIST_REASONS, "invalid_request"))
    def put(self, name: str) -> None:
        """Block the account named `name` (again: no change).

        Neither of you reads the other's chat messages, and a challenge between
        you is refused (403 `blocked`), whoever sends it. 404
        `player_not_found` for an unknown name; yourself is 422 `invalid_request`.
        """
        game().chat_lists.put(bearer_token(), BLOCKED, name)

    @lists.response(204)
    @lists.doc(security=AUTH, operationId="unblock_player", responses=errors(*LIST_REASONS))
    def delete(self, name: str) -> None:
        """Stop blocking the account named `name` (not blocked: no change)."""
        game().chat_lists.take(bearer_token(), BLOCKED, name)


blueprints = (blp, lists)
