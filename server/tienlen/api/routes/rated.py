"""Rated play: the leaderboards (``/v1/leaderboard``); challenges are in :mod:`.challenges`.

Only rated matches move ratings; a player has one rating per table size
(2, 3 or 4 seats), shown as one number (1500 for a new player) and
provisional for its first 10 rated matches. The house bots (`easy`,
`medium`, `hard`) are rated accounts too.
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from ...service.history import HistoryService
from ...service.rated import BoardPage
from ..schemas.rated import LeaderboardQuerySchema, LeaderboardSchema
from ..services import services
from .common import Blueprint, errors

leaderboard = Blueprint(
    "leaderboard", __name__, url_prefix="/v1/leaderboard", description="The best rated players, by table size"
)
blueprints = (leaderboard,)


def history() -> HistoryService:
    """The history service of the running app (it settles rated matches)."""
    return services().history


@leaderboard.route("")
class Leaderboard(MethodView):
    """A leaderboard."""

    @leaderboard.arguments(LeaderboardQuerySchema(), location="query")
    @leaderboard.response(200, LeaderboardSchema)
    @leaderboard.doc(operationId="get_leaderboard", responses=errors("invalid_request", "store_unavailable"))
    def get(self, query: dict[str, Any]) -> BoardPage:
        """The rated accounts of a `kind` (`human` or `bot`) at `players` seats, best rating first.

        Every account with a rated match at that table size is listed;
        `provisional` marks those with fewer than 10; `watch` names a live
        match of the account to watch (its newest watchable one), or null.
        Page with `limit` (1 to 100) and the answer's `next_cursor`.
        """
        return history().leaderboard(query["players"], query["kind"], query.get("cursor"), query["limit"])
