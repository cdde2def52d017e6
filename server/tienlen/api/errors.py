"""One error shape for every non-2xx answer, with a machine-readable ``reason``.

Every refusal of the service and the engine carries a ``reason``; this module
is the one place that knows which HTTP status each reason answers with.
"""

from __future__ import annotations

from typing import Any

from werkzeug.http import HTTP_STATUS_CODES

from ..engine import REFUSAL_REASONS

# The reason given when an error carries none of its own, by status code.
DEFAULT_REASONS = {
    400: "bad_request",
    401: "invalid_token",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    503: "store_unavailable",
}

# Status code of every reason the API gives.
REASON_STATUS: dict[str, int] = {
    "bad_request": 400,
    "invalid_token": 401,
    "match_not_found": 404,
    "stale_version": 409,
    "match_full": 409,
    "match_not_waiting": 409,
    "match_not_finished": 409,
    "payload_too_large": 413,
    "unsupported_media_type": 415,
    "invalid_request": 422,
    "idempotency_key_reused": 422,
    "rate_limited": 429,
    "store_unavailable": 503,
    "outcome_unknown": 503,
    "too_many_waiters": 503,
} | {reason: 409 if reason in ("match_not_playing", "not_your_turn") else 422 for reason in REFUSAL_REASONS}


FALLBACK_REASON = "error"  # an HTTP error of a status that has no reason of its own

# Every reason an error answer may give (the ``reason`` enum of the OpenAPI document).
REASONS: tuple[str, ...] = tuple(dict.fromkeys([*REASON_STATUS, *DEFAULT_REASONS.values(), FALLBACK_REASON]))


def error_body(reason: str, message: str, errors: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
    """The error answer of a reason and its status."""
    status = REASON_STATUS[reason]
    body: dict[str, Any] = {"code": status, "status": HTTP_STATUS_CODES[status], "message": message, "reason": reason}
    if errors:
        body["errors"] = errors
    return body, status
