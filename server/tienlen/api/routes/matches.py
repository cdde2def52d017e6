"""Matches: create, read, join."""

from __future__ import annotations

from typing import Any

from flask import Response, g
from flask.views import MethodView
from flask_smorest import Blueprint

from ...service.present import created_answer, match_answer, token_answer
from ..schemas import CreatedMatchSchema, CreateMatchSchema, JoinSchema, MatchSchema, TokenSchema
from .common import MATCH_ID, errors, send, service

blp = Blueprint("matches", __name__, url_prefix="/v1/matches", description="Create, read and join matches")


@blp.route("")
class Matches(MethodView):
    """The collection of matches."""

    @blp.arguments(CreateMatchSchema())
    @blp.response(201, CreatedMatchSchema)
    @blp.doc(
        operationId="create_match",
        responses=errors("bad_request", "payload_too_large", "invalid_request", "store_unavailable"),
    )
    def post(self, body: dict[str, Any]) -> Response:
        """Create a match.

        Seats are remote (`{"name"}`, answered with a token), server bots
        (`{"name", "bot"}`) or open (`{"open": true}`, filled by joins). The
        first hand is dealt at once unless a seat is open; bots that are on
        turn play before the answer. At least one seat must not be a bot.
        """
        created = service().create(body)
        g.match_id = created.record.match_id  # for the request log line
        return send(created_answer(created.record, created.tokens), 201)


@blp.route(f"/{MATCH_ID}")
class MatchResource(MethodView):
    """One match, public."""

    @blp.response(200, MatchSchema)
    @blp.doc(operationId="get_match", responses=errors("match_not_found", "store_unavailable"))
    def get(self, match_id: str) -> Response:
        """The public state of a match: no card of any hand."""
        return send(match_answer(service().get(match_id)))


@blp.route(f"/{MATCH_ID}/join")
class Join(MethodView):
    """Taking an open seat."""

    @blp.arguments(JoinSchema())
    @blp.response(201, TokenSchema)
    @blp.doc(
        operationId="join_match",
        responses=errors(
            "bad_request", "match_not_found", "match_full", "payload_too_large", "invalid_request", "store_unavailable"
        ),
    )
    def post(self, body: dict[str, Any], match_id: str) -> Response:
        """Join a match: fills the lowest open seat and answers its token.

        The first hand is dealt when the last open seat fills.
        """
        joined = service().join(match_id, body["name"])
        return send(token_answer(joined.seat, joined.token), 201)
