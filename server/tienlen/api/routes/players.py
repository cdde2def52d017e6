"""Players: public profiles and histories of accounts (``/v1/players/{name}``), and their bulk export.

Every finished match an account sat in is kept (``TIENLEN_HISTORY_DAYS``
bounds how long; by default for good), whatever became of the live match.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from flask import Response, current_app
from flask.views import MethodView

from ... import wire
from ...service.history import HistoryService, KeptPage, Player
from ...service.kept import KeptMatch
from ..schemas.players import ExportQuerySchema, KeptPageSchema, PlayerMatchesQuerySchema, PlayerSchema
from ..schemas.tournaments import PlacingsQuerySchema, PlayerTournamentsSchema
from ..services import services
from .common import PER_ADDRESS, Blueprint, errors, game, limited

blp = Blueprint("players", __name__, url_prefix="/v1/players", description="Players' profiles and match histories")

NAME = "<string:name>"
EXPORT_DOC = """Every kept match of the player as NDJSON (`application/x-ndjson`), newest first, for bulk download.

One line per match: its `tienlen-replay/1` document (as `GET /v1/matches/{match_id}/replay` answers it) with
`match_id` and `ended_at` added; `tienlen replay` referees each line. Only matches with `since` <= `ended_at`
< `until` (both optional). The answer starts at once and the history is read a page at a time as it is sent.
"""


def history() -> HistoryService:
    """The history service of the running app."""
    return services().history


@blp.route(f"/{NAME}")
class PlayerResource(MethodView):
    """One player's profile."""

    @blp.response(200, PlayerSchema)
    @blp.doc(operationId="get_player", responses=errors("player_not_found", "store_unavailable"))
    def get(self, name: str) -> Player:
        """The public profile of the account named `name` (any case): its kind, when it joined, games and wins.

        `games` counts the finished matches kept in its history, `wins` those
        it won. An unknown or deleted account answers 404 `player_not_found`.
        """
        return history().player(name)


@blp.route(f"/{NAME}/matches")
class PlayerMatches(MethodView):
    """One player's kept matches."""

    @blp.arguments(PlayerMatchesQuerySchema(), location="query")
    @blp.response(200, KeptPageSchema)
    @blp.doc(
        operationId="list_player_matches",
        responses=errors("player_not_found", "invalid_request", "store_unavailable"),
    )
    def get(self, query: dict[str, Any], name: str) -> KeptPage:
        """The player's finished matches, newest first (by when each ended), with seats, places and points.

        Page with `limit` (1 to 100) and the answer's `next_cursor`: a cursor
        names a place in the history, so matches that end meanwhile do not
        shift the pages. The replay of each is at `GET /v1/matches/{match_id}/replay`.
        """
        return history().matches(name, query.get("cursor"), query["limit"])


@blp.route(f"/{NAME}/tournaments")
class PlayerTournaments(MethodView):
    """Where one player finished its tournaments."""

    @blp.arguments(PlacingsQuerySchema(), location="query")
    @blp.response(200, PlayerTournamentsSchema)
    @blp.doc(
        operationId="list_player_tournaments",
        responses=errors("player_not_found", "invalid_request", "store_unavailable"),
    )
    def get(self, query: dict[str, Any], name: str) -> dict[str, Any]:
        """The tournaments the player played to their end, newest first (its latest `limit`, 1 to 100): each
        one's name, format, table size, how many it ranked, the player's place and score. Kept with the
        account (a tournament's own page goes 90 days after its end; this line stays)."""
        return {"placings": game().tournaments.placings(name, query["limit"])}


@blp.route(f"/{NAME}/matches/export")
class PlayerExport(MethodView):
    """One player's kept matches, all at once."""

    @limited("export", PER_ADDRESS)
    @blp.arguments(ExportQuerySchema(), location="query")
    @blp.response(
        200,
        {"type": "string", "description": "One JSON object a line: a replay with `match_id` and `ended_at`"},
        content_type="application/x-ndjson",
        description="The kept matches, one replay a line",
    )
    @blp.doc(
        operationId="export_player_matches",
        description=EXPORT_DOC,
        responses=errors("player_not_found", "invalid_request", "store_unavailable"),
    )
    def get(self, query: dict[str, Any], name: str) -> Response:
        """Download every kept match of the player (NDJSON)."""
        since, until = query.get("since"), query.get("until")
        found = history().export(
            name, None if since is None else since.timestamp(), None if until is None else until.timestamp()
        )
        return current_app.response_class(
            _lines(found), mimetype="application/x-ndjson", headers={"X-Accel-Buffering": "no"}
        )


def _lines(found: Iterator[KeptMatch]) -> Iterator[bytes]:
    for kept in found:
        yield wire.dumps(kept.replay() | {"match_id": kept.match_id, "ended_at": wire.rfc3339(kept.ended_at)}) + b"\n"
