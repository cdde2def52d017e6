"""Reviews of finished matches (``GET /v1/matches/{match_id}/review``): each decision graded, computed on request."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from ... import wire
from ...service.reviews import ReviewPending
from ..caller import bearer_token
from ..schemas.reviews import ReviewPendingSchema, ReviewSchema
from .common import MATCH_ID, Blueprint, errors, game

blp = Blueprint("reviews", __name__, url_prefix="/v1/matches", description="Reviews of finished matches")


@blp.route(f"/{MATCH_ID}/review")
class Review(MethodView):
    """A finished match's review."""

    @blp.response(200, ReviewSchema, description="The review")
    @blp.alt_response(202, schema=ReviewPendingSchema, description="Queued or being computed", success=True)
    @blp.doc(
        operationId="get_review",
        responses=errors("match_not_found", "match_not_finished", "not_watchable", "store_unavailable"),
    )
    def get(self, match_id: str) -> dict[str, Any] | Response:
        """Each decision of each seat graded (`good`, `inaccuracy`, `mistake`, `blunder`; `forced` when one action
        was legal), with the best action found and the expected first-place chance and points of both.

        Public once the match is finished (409 `match_not_finished` before), read by whoever may read its replay:
        a match whose host turned watching off (or a duplicate tournament's table) answers only its seats (403
        `not_watchable` for anyone else). The first call queues the review and
        answers 202 with its progress; a server computes it in the background (seconds for a 4-hand match) and
        keeps it with the match; call again until 200. Each decision is judged by Expert's search over the deals
        consistent with what its seat had seen then (never the other hands), reproducibly.
        """
        found = game().reviews.review(match_id, bearer_token())
        if isinstance(found, ReviewPending):
            body = {"status": found.status, "progress": {"done": found.done, "total": found.total}}
            return Response(wire.dumps(body), status=202, mimetype="application/json")
        return found
