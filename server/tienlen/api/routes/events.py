"""The public event stream of a match, with long polling."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from ..schemas import EventsQuerySchema, EventsSchema
from .common import MATCH_ID, errors, send, service

blp = Blueprint("events", __name__, url_prefix="/v1/matches", description="Public events, oldest first")


@blp.route(f"/{MATCH_ID}/events")
class Events(MethodView):
    """Events of one match."""

    @blp.arguments(EventsQuerySchema(), location="query")
    @blp.response(200, EventsSchema)
    @blp.doc(operationId="get_events", responses=errors("match_not_found", "invalid_request", "store_unavailable"))
    def get(self, query: dict[str, Any], match_id: str) -> Response:
        """Events with `seq` > `after` (at most 500), oldest first.

        With `wait` > 0 (seconds, up to 30) and nothing new, the answer comes as
        soon as an event arrives, or empty when the wait ends. Pass the answer's
        `last_seq` as the next `after`.
        """
        return send(service().events(match_id, query["after"], query["wait"]))
