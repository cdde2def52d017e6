"""Tournaments (``/v1/tournaments``): Swiss, arena and duplicate events that accounts (people and bots) enter."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from ...service.tournament_views import FeedPage, StandingsView, TournamentPage, TournamentView
from ...tournaments import Terms
from ..schemas.requests import StreamHeadersSchema
from ..schemas.tournaments import (
    TournamentCreateSchema,
    TournamentEventSchema,
    TournamentEventsQuerySchema,
    TournamentFeedSchema,
    TournamentListQuerySchema,
    TournamentPageSchema,
    TournamentSchema,
    TournamentStandingsSchema,
    TournamentStreamQuerySchema,
)
from .common import (
    AUTH,
    OPTIONAL_AUTH,
    PER_ACCOUNT,
    PER_ADDRESS,
    Blueprint,
    bearer_token,
    errors,
    game,
    limited,
    settings,
    with_retry_after,
)
from .events import EventStreamBody

blp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/v1/tournaments",
    description="Tournaments: Swiss, arena and duplicate events for people and bots",
)

TOURNAMENT = "<string(length=20):tournament_id>"
TOKEN_REASONS = ("invalid_token", "scope_missing", "store_unavailable")
BODY_REASONS = ("bad_request", "payload_too_large", "unsupported_media_type", "invalid_request")
WAIT_ERRORS = with_retry_after(
    with_retry_after(
        errors("invalid_request", "tournament_not_found", "store_unavailable", "too_many_waiters", "too_many_waits"),
        "too_many_waiters",
    ),
    "too_many_waits",
)
TOURNAMENT_EVENT = TournamentEventSchema()
NOTHING_LEFT = {
    "204": {"description": "The tournament is over with no event after `after` (an `EventSource` stops reconnecting)"}
}


@blp.route("")
class Tournaments(MethodView):
    """Creating and listing tournaments."""

    @limited("create", PER_ACCOUNT)
    @blp.arguments(TournamentCreateSchema())
    @blp.response(201, TournamentSchema)
    @blp.doc(
        operationId="create_tournament",
        security=AUTH,
        responses=errors(*BODY_REASONS, "bad_terms", "too_many_tournaments", *TOKEN_REASONS),
    )
    def post(self, terms: Terms) -> TournamentView:
        """Create a tournament (scope `play`); its creator need not enter it.

        The terms are checked (422 `bad_terms`, naming the field). It starts at
        `starts_at` (with fewer than `min_entrants` then, it is cancelled) or,
        with no `starts_at`, as soon as `max_entrants` joined. An account may
        have at most 3 tournaments open at a time (409 `too_many_tournaments`).
        """
        return game().tournaments.create(bearer_token(), terms)

    @blp.arguments(TournamentListQuerySchema(), location="query")
    @blp.response(200, TournamentPageSchema)
    @blp.doc(
        operationId="list_tournaments",
        security=OPTIONAL_AUTH,
        responses=errors("invalid_request", *TOKEN_REASONS),
    )
    def get(self, query: dict[str, Any]) -> TournamentPage:
        """A page of the tournaments of `status`: `open` soonest first, the others newest first; with a token
        (scope `play`) each one's `entered` says whether the caller entered it (false without a token)."""
        return game().tournaments.page(query["status"], query.get("cursor"), query["limit"], bearer_token())


@blp.route(f"/{TOURNAMENT}")
class Tournament(MethodView):
    """One tournament."""

    @blp.response(200, TournamentSchema)
    @blp.doc(
        operationId="get_tournament",
        security=OPTIONAL_AUTH,
        responses=errors("tournament_not_found", *TOKEN_REASONS, "store_unavailable", "outcome_unknown"),
    )
    def get(self, tournament_id: str) -> TournamentView:
        """The tournament: terms, status, entrants (bots marked), rounds with their tables' matches; with a token
        (scope `play`) `you` is the caller's table now (its match made by this read if its seating has not made
        it yet) and `entered` whether it entered."""
        return game().tournaments.get(tournament_id, bearer_token())

    @blp.response(204)
    @blp.doc(
        operationId="cancel_tournament",
        security=AUTH,
        responses=errors("tournament_not_found", "not_creator", "tournament_not_open", *TOKEN_REASONS),
    )
    def delete(self, tournament_id: str) -> None:
        """Cancel the tournament before it starts (its creator only: 403 `not_creator`; once started 409
        `tournament_not_open`). The entrants hear `tournament_cancelled`."""
        game().tournaments.cancel(tournament_id, bearer_token())


@blp.route(f"/{TOURNAMENT}/entry")
class Entry(MethodView):
    """The caller's entry."""

    @limited("join", PER_ACCOUNT)
    @blp.response(200, TournamentSchema, description="Entered already: nothing changed")
    @blp.alt_response(201, schema=TournamentSchema, description="Entered now", success=True)
    @blp.doc(
        operationId="enter_tournament",
        security=AUTH,
        responses=errors(
            "tournament_not_found",
            "bots_not_admitted",
            "tournament_not_open",
            "tournament_full",
            *TOKEN_REASONS,
        ),
    )
    def put(self, tournament_id: str) -> tuple[TournamentView, int]:
        """Enter the tournament before its start (scope `play`); 201 when entered now, 200 when entered already.

        A bot account enters only where bots are admitted (403 `bots_not_admitted`) and is shown as a bot. 409
        `tournament_full` at `max_entrants`; 409 `tournament_not_open` once started (or over). The entry that
        fills a tournament without `starts_at` starts it.
        """
        view, created = game().tournaments.join(tournament_id, bearer_token())
        return view, 201 if created else 200

    @blp.response(204)
    @blp.doc(
        operationId="withdraw_from_tournament",
        security=AUTH,
        responses=errors("tournament_not_found", "not_entered", "tournament_not_open", *TOKEN_REASONS),
    )
    def delete(self, tournament_id: str) -> None:
        """Withdraw before the start (409 `not_entered` when the caller did not enter, 409 `tournament_not_open`
        once started: leave the match instead, the turn clock and takeover play for you)."""
        game().tournaments.withdraw(tournament_id, bearer_token())


@blp.route(f"/{TOURNAMENT}/standings")
class Standings(MethodView):
    """The standings."""

    @blp.response(200, TournamentStandingsSchema)
    @blp.doc(operationId="get_tournament_standings", security=[], responses=errors("tournament_not_found"))
    def get(self, tournament_id: str) -> StandingsView:
        """Every entrant ranked 1..n with its score and tiebreaks (docs/tournaments.md); `final` once over."""
        return game().tournaments.standings(tournament_id)


@blp.route(f"/{TOURNAMENT}/events")
class Events(MethodView):
    """The tournament's feed."""

    @limited("wait", PER_ADDRESS)
    @blp.arguments(TournamentEventsQuerySchema(), location="query")
    @blp.response(200, TournamentFeedSchema)
    @blp.doc(operationId="get_tournament_events", security=[], responses=WAIT_ERRORS)
    def get(self, query: dict[str, Any], tournament_id: str) -> FeedPage:
        """The tournament's events with `seq` > `after` (a page); with `wait` (seconds, up to 30) the answer comes
        as soon as one arrives. Pass `last_seq` as the next `after`."""
        return game().tournaments.events(tournament_id, query["after"], query["wait"])


STREAM_DOC = """The tournament's events as Server-Sent Events (`text/event-stream`): `id: <seq>`, `event: <type>`,
`data: <the event's JSON>` (as `GET /v1/tournaments/{tournament_id}/events`), after `after` or `Last-Event-ID`;
`: heartbeat` every 15 s while nothing happens. The stream ends after the event that ends the tournament
(`tournament_finished` or `tournament_cancelled`); a stream opened on a tournament that is over with nothing
after `after` answers 204, so a browser's `EventSource` stops reconnecting.
"""


@blp.route(f"/{TOURNAMENT}/stream")
class Stream(MethodView):
    """The tournament's feed as it comes."""

    @limited("wait", PER_ADDRESS)
    @blp.arguments(TournamentStreamQuerySchema(), location="query")
    @blp.arguments(StreamHeadersSchema(), location="headers")
    @blp.response(
        200,
        {"type": "string", "description": "`id: 3\\nevent: round_seated\\ndata: {...}\\n\\n` per event"},
        content_type="text/event-stream",
        description="The events as they come",
    )
    @blp.doc(
        operationId="stream_tournament_events",
        security=[],
        description=STREAM_DOC,
        responses=WAIT_ERRORS | NOTHING_LEFT,
    )
    def get(self, query: dict[str, Any], headers: dict[str, Any], tournament_id: str) -> Response:
        """Follow the tournament's events (Server-Sent Events)."""
        after = headers.get("last_event_id", query["after"])
        following = game().tournaments.follow(tournament_id, after, settings().heartbeat_s)
        if following.nothing_left:
            return current_app.response_class(status=204, headers={"Cache-Control": "no-cache"})
        return current_app.response_class(
            EventStreamBody(following, TOURNAMENT_EVENT),
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
