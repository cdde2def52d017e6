"""An account's one connection (``/v1/me/events``), its challenge settings, and the bots online (``/v1/bots``).

A bot (or a player's page) listens to its account's inbox to hear of
challenges, quick-play tables, matches starting, its turns and results,
and resumes from the last ``seq`` it saw after a reconnection.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from ...service.commands import ChangeSettings
from ...service.inbox import InboxPage, InboxService, MySettings, OnlineBot
from ..schemas.inbox import (
    ChallengeSettingsChangeSchema,
    InboxEventSchema,
    InboxPageSchema,
    InboxQuerySchema,
    InboxStreamQuerySchema,
    MySettingsSchema,
    OnlineBotsSchema,
)
from ..schemas.requests import StreamHeadersSchema
from ..services import services
from .common import AUTH, PER_ACCOUNT, Blueprint, bearer_token, errors, limited, settings, with_retry_after
from .events import EventStreamBody

INBOX_EVENT = InboxEventSchema()  # each event of a stream is written as GET /v1/me/events writes it

inbox = Blueprint(
    "inbox",
    __name__,
    url_prefix="/v1/me",
    description="The events an account hears of (challenges, quick play, its matches and turns) and its settings",
)
bots = Blueprint("bots", __name__, url_prefix="/v1/bots", description="Bot accounts online")
blueprints = (inbox, bots)

TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")
WAIT_ERRORS = with_retry_after(
    with_retry_after(
        errors("invalid_request", *TOKEN_REASONS, "too_many_waiters", "too_many_waits"), "too_many_waiters"
    ),
    "too_many_waits",
)


def inbox_service() -> InboxService:
    """The inbox service of the running app."""
    return services().inbox


@inbox.route("/events")
class Events(MethodView):
    """The account's inbox."""

    @limited("wait", PER_ACCOUNT)
    @inbox.arguments(InboxQuerySchema(), location="query")
    @inbox.response(200, InboxPageSchema)
    @inbox.doc(operationId="get_my_events", security=AUTH, responses=WAIT_ERRORS)
    def get(self, query: dict[str, Any]) -> InboxPage:
        """The account's events with `seq` > `after` (at most 500), oldest first (scope `play`).

        With `wait` > 0 (seconds, up to 30) and nothing new, the answer comes
        as soon as an event arrives, or empty when the wait ends. Pass the
        answer's `last_seq` as the next `after`: a client that reconnects
        misses nothing (the inbox keeps an account's last 1,000 events, for 7
        days). Listening makes the account *online* for a minute: only an
        online account can be challenged, and `GET /v1/bots` lists online bots.
        """
        return inbox_service().events(bearer_token(), query["after"], query["wait"])


STREAM_DOC = """The account's events as they happen, as Server-Sent Events (`text/event-stream`); scope `play`.

Every event is sent as `id: <seq>`, `event: <type>`, `data: <the event's JSON>` (the same JSON as
`GET /v1/me/events`), oldest first, starting after `after` or after the `Last-Event-ID` header: a
client that reconnects misses nothing. A comment line (`: heartbeat`) comes every 15 s while nothing
happens. The stream never ends by itself, except when the server shuts down (reconnect then). While it
is open the account is *online*.
"""


@inbox.route("/events/stream")
class Stream(MethodView):
    """The account's inbox as it comes."""

    @limited("wait", PER_ACCOUNT)
    @inbox.arguments(InboxStreamQuerySchema(), location="query")
    @inbox.arguments(StreamHeadersSchema(), location="headers")
    @inbox.response(
        200,
        {"type": "string", "description": "`id: 3\\nevent: your_turn\\ndata: {...}\\n\\n` per event"},
        content_type="text/event-stream",
        description="The events as they come",
    )
    @inbox.doc(operationId="stream_my_events", security=AUTH, description=STREAM_DOC, responses=WAIT_ERRORS)
    def get(self, query: dict[str, Any], headers: dict[str, Any]) -> Response:
        """Follow the account's inbox (Server-Sent Events)."""
        after = headers.get("last_event_id", query["after"])
        following = inbox_service().follow(bearer_token(), after, settings().heartbeat_s)
        return current_app.response_class(
            EventStreamBody(following, INBOX_EVENT),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


@inbox.route("/settings")
class Settings(MethodView):
    """Which challenges the account takes, and whether it hears of its friends' matches."""

    @inbox.response(200, MySettingsSchema)
    @inbox.doc(operationId="get_my_settings", security=AUTH, responses=errors(*TOKEN_REASONS))
    def get(self) -> MySettings:
        """Whether the account takes rated challenges and casual ones (both, until changed), and whether it hears
        `friend_started` of the accounts it follows (not until changed); scope `play`."""
        return inbox_service().settings(bearer_token())

    @inbox.arguments(ChallengeSettingsChangeSchema())
    @inbox.response(200, MySettingsSchema)
    @inbox.doc(
        operationId="set_my_settings",
        security=AUTH,
        responses=errors(
            "bad_request", "payload_too_large", "unsupported_media_type", "invalid_request", *TOKEN_REASONS
        ),
    )
    def put(self, command: ChangeSettings) -> MySettings:
        """Change the account's settings (scope `account`); fields left out stay as they are.

        A challenge the account does not take is refused when it is sent
        (409 `challenge_refused`): a bot's owner decides whether it plays rated
        games, casual ones, or neither. With `friends` on, the inbox hears
        `friend_started` when an account it follows (`PUT /v1/me/following/{name}`)
        starts a match.
        """
        return inbox_service().set_settings(bearer_token(), command)


@bots.route("")
class Bots(MethodView):
    """Bot accounts online."""

    @bots.response(200, OnlineBotsSchema)
    @bots.doc(operationId="list_bots", security=[], responses=errors("store_unavailable"))
    def get(self) -> dict[str, list[OnlineBot]]:
        """The bot accounts listening to their inbox in the last minute, the latest first (at most 200).

        Each with its ratings and which challenges it takes. The house bots
        (`easy`, `medium`, `hard`) are always there to challenge and are not listed.
        """
        return {"bots": inbox_service().bots()}
