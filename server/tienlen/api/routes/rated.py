"""Rated play: challenges (``/v1/challenges``) and the leaderboards (``/v1/leaderboard``).

Only rated matches move ratings; a player has one rating per table size
(2, 3 or 4 seats), shown as one number (1500 for a new player) and
provisional for its first 10 rated matches. The house bots (`easy`,
`medium`, `hard`) are rated accounts too.
"""

from __future__ import annotations

from typing import Any, cast

from flask import current_app, g
from flask.views import MethodView

from ...service import Created
from ...service.history import HistoryService
from ...service.rated import BoardPage
from ..schemas import CreatedMatchSchema
from ..schemas.rated import ChallengeSchema, LeaderboardQuerySchema, LeaderboardSchema
from .common import AUTH, PER_ADDRESS, Blueprint, bearer_token, errors, limited, service

challenges = Blueprint(
    "challenges", __name__, url_prefix="/v1/challenges", description="Challenging players and bots to a match"
)
leaderboard = Blueprint(
    "leaderboard", __name__, url_prefix="/v1/leaderboard", description="The best rated players, by table size"
)
blueprints = (challenges, leaderboard)


def history() -> HistoryService:
    """The history service of the running app (it settles rated matches)."""
    return cast(HistoryService, current_app.extensions["tienlen_history"])


@challenges.route("")
class Challenges(MethodView):
    """Challenges of the token's account."""

    @limited("create", PER_ADDRESS)
    @challenges.arguments(ChallengeSchema())
    @challenges.response(201, CreatedMatchSchema)
    @challenges.doc(
        operationId="create_challenge",
        security=AUTH,
        responses=errors(
            "bad_request",
            "invalid_token",
            "scope_missing",
            "player_not_found",
            "payload_too_large",
            "unsupported_media_type",
            "invalid_request",
            "store_unavailable",
            "outcome_unknown",
        ),
    )
    def post(self, body: dict[str, Any]) -> Created:
        """Challenge house bots to a match, `rated` or not; it starts at once.

        Takes an account's token (scope `play`): the account sits at seat 0
        (its seat token is in `tokens`, and the account's token acts for the
        seat too), the house bots named in `to` at seats 1, 2, ... (the last
        name fills the seats left). Each bot seat holds its bot's account, so
        a rated match moves every rating in it when it ends, once; a
        challenger who leaves is scored last. An unknown name answers 404
        `player_not_found`; an account that is not a house bot 422
        `invalid_request` (challenges between accounts are not available yet).
        """
        created = service().challenge(body, bearer_token())
        g.match_id = created.match_id  # for the request log line
        return created


@leaderboard.route("")
class Leaderboard(MethodView):
    """A leaderboard."""

    @leaderboard.arguments(LeaderboardQuerySchema(), location="query")
    @leaderboard.response(200, LeaderboardSchema)
    @leaderboard.doc(operationId="get_leaderboard", responses=errors("invalid_request", "store_unavailable"))
    def get(self, query: dict[str, Any]) -> BoardPage:
        """The rated accounts of a `kind` (`human` or `bot`) at `players` seats, best rating first.

        Every account with a rated match at that table size is listed;
        `provisional` marks those with fewer than 10. Page with `limit` (1 to
        100) and the answer's `next_cursor`.
        """
        return history().rated.board(query["players"], query["kind"], query.get("cursor"), query["limit"])
