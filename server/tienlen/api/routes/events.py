"""The public events of a match: a page with long polling, and a Server-Sent Events stream."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

import marshmallow as ma
from flask import Response, current_app
from flask.views import MethodView

from ... import wire
from ...service import EventPage
from ...service.chat import Reader
from ..schemas import EventPageSchema, EventSchema, EventsQuerySchema, StreamHeadersSchema, StreamQuerySchema
from .common import (
    MATCH_ID,
    PER_ADDRESS,
    Blueprint,
    bearer_token,
    errors,
    game,
    limited,
    settings,
    with_retry_after,
)

blp = Blueprint("events", __name__, url_prefix="/v1/matches", description="Public events, oldest first")

WAIT_ERRORS = with_retry_after(
    with_retry_after(
        errors(
            "match_not_found",
            "not_watchable",
            "invalid_request",
            "store_unavailable",
            "too_many_waiters",
            "too_many_waits",
        ),
        "too_many_waiters",
    ),
    "too_many_waits",
)


@blp.route(f"/{MATCH_ID}/events")
class Events(MethodView):
    """Events of one match."""

    @limited("wait", PER_ADDRESS)
    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventPageSchema)
    @blp.doc(operationId="get_events", responses=WAIT_ERRORS)
    def get(self, query: dict[str, Any], match_id: str) -> EventPage:
        """Events with `seq` > `after` (at most 500), oldest first.

        With `wait` > 0 (seconds, up to 30) and nothing new, the answer comes as
        soon as an event arrives, or empty when the wait ends (or the server
        shuts down). Pass the answer's `last_seq` as the next `after`. A
        spectator that sends its `watcher` id is counted in the match's
        `spectators`. A match whose host turned watching off answers only its
        seats (their token; 403 `not_watchable`).

        Chat messages (`chat_said`) of the `table` room are sent only to a
        reader that sends (`Authorization: Bearer`) a seat's token of the match
        or a token of an account seated there; those of accounts the reader's
        account mutes or blocks (or that block it) are left out. `seq` rises but
        may skip events the reader may not read (a page may then be empty with
        `last_seq` past `after`). A token that is no seat's nor an account's
        reads as none.
        """
        watching = game().watching
        seat = watching.admit(match_id, bearer_token(), seat_needed="watcher" in query)
        if seat is None and "watcher" in query:
            watching.polled(match_id, query["watcher"])
        return game().reads.events(match_id, query["after"], query["wait"], reader(match_id))


STREAM_DOC = """Each event as it happens, as Server-Sent Events (`text/event-stream`).

Every event is sent as `id: <seq>`, `event: <type>`, `data: <the event's JSON>`
(the same JSON as `GET .../events`), oldest first, starting after `after` or
after the `Last-Event-ID` header, which browsers send when they reconnect:
no event is skipped or repeated. A comment line (`: heartbeat`) comes every
15 s while nothing happens.

The stream ends after the event that ends the match (`match_ended`,
`match_abandoned` or `match_cancelled`). A stream opened on a finished match
sends what the match has after `after` (a `rematch` or `seat_left` may follow
`match_ended`) and then ends. When a finished match has nothing after `after`
the answer is **204 No Content**, which tells a browser's `EventSource` to
stop reconnecting; a cancelled match is gone (404). The stream also ends when
the server shuts down (reconnect then). No token is needed: the events are
public, so a browser's `EventSource` can follow a match. A stream without a
seat's token counts among the match's `spectators` while it is open. A
match whose host turned watching off streams only to its seats (a seat's
token, or a `play` token of an account seated in it; 403 `not_watchable`).
Chat messages of the `table` room come only to a reader sending a seat's token
of the match, or a token of an account seated there (`Authorization: Bearer`),
and a reader's account's muted and blocked accounts' messages are left out:
`id` rises but may skip events the reader may not read.
"""

NOTHING_LEFT = {
    "204": {"description": "The match is finished and has no event after `after` (an `EventSource` stops reconnecting)"}
}


@blp.route(f"/{MATCH_ID}/stream")
class Stream(MethodView):
    """A match's events as they happen."""

    @limited("wait", PER_ADDRESS)
    @blp.arguments(StreamQuerySchema(), location="query")
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.response(
        200,
        {"type": "string", "description": "`id: 12\\nevent: played\\ndata: {...}\\n\\n` per event"},
        content_type="text/event-stream",
        description="The events as they come",
    )
    @blp.doc(operationId="stream_events", description=STREAM_DOC, responses=NOTHING_LEFT | WAIT_ERRORS)
    def get(self, query: dict[str, Any], headers: dict[str, Any], match_id: str) -> Response:
        """Follow a match's events (Server-Sent Events)."""
        after = headers.get("last_event_id", query["after"])
        watching = game().watching
        seat = watching.admit(match_id, bearer_token(), seat_needed=True)
        following = game().reads.follow(match_id, after, settings().heartbeat_s, reader(match_id))
        if following.nothing_left:
            return current_app.response_class(status=204, headers={"Cache-Control": "no-cache"})
        return current_app.response_class(
            EventStreamBody(following, spectator=watching.spectator(match_id, seat)),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def reader(match_id: str) -> Reader:
    """Who reads the match's events: the optional ``Authorization`` header's seat or account (see the docs)."""
    return game().chat.reader(match_id, bearer_token())


EVENT = EventSchema()  # each event of a stream is written as GET .../events writes it


class Batches(Protocol):
    """Batches of events as they come (empty when idle), until closed."""

    def __iter__(self) -> Iterator[list[dict[str, Any]]]: ...

    def close(self) -> None: ...


class Beating(Protocol):
    """Told that a stream is still open (each batch and heartbeat), and when it ends."""

    def beat(self) -> None: ...

    def close(self) -> None: ...


class EventStreamBody:
    """The body of a stream: events in Server-Sent Events framing, each written by ``schema``; closing it stops
    following. ``spectator`` (a stream that counts as one) is told of each batch and heartbeat, and of the end."""

    def __init__(self, following: Batches, schema: ma.Schema = EVENT, spectator: Beating | None = None) -> None:
        self._following = following
        self._schema = schema
        self._spectator = spectator

    def __iter__(self) -> Iterator[bytes]:
        yield b": following\n\n"  # sends the headers at once, so the client knows it is connected
        dump = self._schema.dump
        spectator = self._spectator
        for batch in self._following:
            if spectator is not None:
                spectator.beat()
            if not batch:
                yield b": heartbeat\n\n"
                continue
            yield b"".join(
                b"id: %d\nevent: %s\ndata: %s\n\n" % (event["seq"], event["type"].encode(), wire.dumps(dump(event)))
                for event in batch
            )

    def close(self) -> None:
        """Called by the server when the answer ends or the client went away."""
        self._following.close()
        spectator, self._spectator = self._spectator, None
        if spectator is not None:
            spectator.close()
