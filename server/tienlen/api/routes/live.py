"""The live table: one match to watch on the first screen, and moderators featuring one (``/v1/live``)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from ...service.watching import LiveTable
from ..caller import require_moderator
from ..schemas.live import FeatureSchema, LiveSchema
from .common import AUTH, Blueprint, errors, game

blp = Blueprint("live", __name__, url_prefix="/v1/live", description="The live table: a match to watch")


@blp.route("")
class Live(MethodView):
    """The match on the live table."""

    @blp.response(200, LiveSchema)
    @blp.doc(operationId="get_live", responses=errors("store_unavailable"))
    def get(self) -> LiveTable:
        """The match to watch now: the one a moderator featured while it is played, else the live match whose
        seats' mean rating is highest (of those that have one; ties: the newest). `match` is null when no
        watchable match is being played. `others` lists up to 6 more watchable live matches in the same order
        (best first after `match`, never `match` itself). Follow one with `GET /v1/matches/{match_id}/stream`."""
        return game().watching.live()


@blp.route("/featured")
class Featured(MethodView):
    """The featured match (a moderator's choice)."""

    @blp.arguments(FeatureSchema())
    @blp.response(204)
    @blp.doc(
        operationId="feature_match",
        security=AUTH,
        responses=errors(
            "not_moderator",
            "bad_request",
            "invalid_request",
            "payload_too_large",
            "unsupported_media_type",
            "match_not_found",
            "match_not_playing",
            "not_watchable",
            "store_unavailable",
        ),
    )
    def put(self, body: dict[str, Any]) -> Response:
        """Feature a match on the live table while it is played (the moderator token, `TIENLEN_MODERATOR_TOKEN`).

        Refused: 404 `match_not_found`, 409 `match_not_playing` (waiting or
        over), 403 `not_watchable` (its host turned watching off). Once it
        ends, the live table shows the best live match again. Recorded in the
        moderators' audit list (`match_featured`).
        """
        require_moderator()
        game().moderation.feature(body["match_id"])
        return Response(status=204)

    @blp.response(204)
    @blp.doc(operationId="unfeature_match", security=AUTH, responses=errors("not_moderator", "store_unavailable"))
    def delete(self) -> Response:
        """Feature no match (the moderator token): the live table shows the best live match."""
        require_moderator()
        game().moderation.unfeature()
        return Response(status=204)
