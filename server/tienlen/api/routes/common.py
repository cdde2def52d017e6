"""What the route modules share: the service of the current app, request headers, error docs, limits."""

from __future__ import annotations

from typing import Any

import flask_smorest
from flask import request

from ...service import InvalidRequest
from ...service.compose import MatchServices
from ...settings import Settings
from ..caller import bearer_token, client_address
from ..errors import REASON_STATUS
from ..guards import JsonBodyParser
from ..limits import PER_ACCOUNT, PER_ACCOUNT_OR_ADDRESS, PER_ADDRESS, PER_PLAYER, limited
from ..schemas import ErrorSchema
from ..services import services

__all__ = [
    "AUTH",
    "JOIN_REASONS",
    "MATCH_ID",
    "OPTIONAL_AUTH",
    "PER_ACCOUNT",
    "PER_ACCOUNT_OR_ADDRESS",
    "PER_ADDRESS",
    "PER_PLAYER",
    "SEAT_REASONS",
    "Blueprint",
    "bearer_token",
    "client_address",
    "errors",
    "game",
    "idempotency_key",
    "idempotency_parameter",
    "limited",
    "settings",
    "with_retry_after",
]

MATCH_ID = "<string:match_id>"
AUTH: list[dict[str, list[str]]] = [{"bearerAuth": []}]
OPTIONAL_AUTH: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]  # anonymous, or as an account
# What a join may answer, by match id or by room code (each adds how it finds the match).
JOIN_REASONS = (
    "bad_request",
    "invalid_token",
    "scope_missing",
    "match_full",
    "already_seated",
    "payload_too_large",
    "unsupported_media_type",
    "invalid_request",
    "idempotency_key_reused",
    "store_unavailable",
    "outcome_unknown",
)
# Who may act for a seat: its own token, or a token (scope play) of the account that holds it.
SEAT_REASONS = ("invalid_token", "scope_missing", "not_seated")


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]
    """flask-smorest's blueprint, reading bodies with :class:`~tienlen.api.guards.JsonBodyParser`."""

    ARGUMENTS_PARSER = JsonBodyParser()


def game() -> MatchServices:
    """The match use cases of the running app."""
    return services().game


def settings() -> Settings:
    """The settings of the running app."""
    return services().settings


MAX_IDEMPOTENCY_KEY = 200


def idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` header, or None; :class:`InvalidRequest` unless 1 to 200 characters."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
        raise InvalidRequest(f"Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY} characters")
    return key


def idempotency_parameter(description: str) -> dict[str, Any]:
    """The OpenAPI description of the optional ``Idempotency-Key`` header of a write."""
    return {
        "in": "header",
        "name": "Idempotency-Key",
        "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY},
        "description": description,
    }


def errors(*reasons: str) -> dict[str, Any]:
    """OpenAPI ``responses`` for the error reasons an operation can give, grouped by status.

    One ``@blp.doc(responses=...)`` instead of an ``alt_response`` per status:
    each of those adds a wrapper that runs on every request.
    """
    by_status: dict[int, list[str]] = {}
    for reason in dict.fromkeys(reasons):  # each once, in the order first named
        by_status.setdefault(REASON_STATUS[reason], []).append(reason)
    answers: dict[str, Any] = {
        str(status): {
            "description": "Reasons: " + ", ".join(f"`{r}`" for r in found),
            "content": {"application/json": {"schema": ErrorSchema}},
        }
        for status, found in sorted(by_status.items())
    }
    if "401" in answers:
        answers["401"]["headers"] = {"WWW-Authenticate": CHALLENGE}
    return answers


CHALLENGE = {
    "description": 'The scheme this call takes: `Bearer realm="tienlen"`, with `error="invalid_token"` when a '
    "token was sent (RFC 6750)",
    "schema": {"type": "string"},
}


def with_retry_after(responses: dict[str, Any], reason: str) -> dict[str, Any]:
    """``responses`` (from :func:`errors`) with the ``Retry-After`` header documented on the status of ``reason``."""
    status = str(REASON_STATUS[reason])
    header = {
        "description": f"With `{reason}`: seconds to wait before trying again (here or on another server)",
        "schema": {"type": "integer", "minimum": 1},
    }
    return responses | {status: responses[status] | {"headers": {"Retry-After": header}}}
