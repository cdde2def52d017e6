"""What the route modules share: the service of the current app and error docs."""

from __future__ import annotations

from typing import Any, cast

import flask_smorest
from flask import Response, current_app, request

from ... import wire
from ...service import MatchService
from ...settings import Settings
from ..errors import REASON_STATUS
from ..guards import JsonBodyParser
from ..schemas import ErrorSchema

MATCH_ID = "<string:match_id>"
AUTH: list[dict[str, list[str]]] = [{"bearerAuth": []}]


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's blueprint, reading bodies with :class:`~tienlen.api.guards.JsonBodyParser`."""

    ARGUMENTS_PARSER = JsonBodyParser()


def service() -> MatchService:
    """The match service of the running app."""
    return cast(MatchService, current_app.extensions["tienlen"])


def settings() -> Settings:
    """The settings of the running app."""
    return cast(Settings, current_app.extensions["tienlen_settings"])


def bearer_token() -> str | None:
    """The token of the request's ``Authorization: Bearer <token>`` header, or None."""
    authorization = request.headers.get("Authorization")
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def errors(*reasons: str) -> dict[str, Any]:
    """OpenAPI ``responses`` for the error reasons an operation can give, grouped by status.

    One ``@blp.doc(responses=...)`` instead of an ``alt_response`` per status:
    each of those adds a wrapper that runs on every request.
    """
    by_status: dict[int, list[str]] = {}
    for reason in reasons:
        by_status.setdefault(REASON_STATUS[reason], []).append(reason)
    return {
        str(status): {
            "description": "Reasons: " + ", ".join(f"`{r}`" for r in found),
            "content": {"application/json": {"schema": ErrorSchema}},
        }
        for status, found in sorted(by_status.items())
    }


def send(data: dict[str, Any], status: int = 200) -> Response:
    """Answer JSON built by the service as it is.

    The schemas on each view document the answer; the service already builds
    exactly that shape (a contract test checks each answer dumps to itself), so
    dumping it through marshmallow again would only cost time on every request.
    """
    return current_app.response_class(wire.dumps(data), status=status, mimetype="application/json")
