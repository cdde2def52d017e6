"""One error shape for every non-2xx answer, with a machine-readable ``reason``."""

from __future__ import annotations

from typing import Any, NoReturn

from flask_smorest import abort

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
    500: "internal_error",
    503: "store_unavailable",
}

# Status code of every reason the API gives.
REASON_STATUS = {
    "bad_request": 400,
    "invalid_token": 401,
    "match_not_found": 404,
    "not_your_turn": 409,
    "stale_version": 409,
    "match_not_playing": 409,
    "match_full": 409,
    "payload_too_large": 413,
    "invalid_request": 422,
    "unknown_card": 422,
    "duplicate_cards": 422,
    "cards_not_in_hand": 422,
    "not_a_combination": 422,
    "must_include_start_card": 422,
    "cannot_pass_on_lead": 422,
    "does_not_beat": 422,
    "locked_bomb_only": 422,
    "store_unavailable": 503,
}


def fail(reason: str, message: str, **extra: Any) -> NoReturn:
    """Answer with the status of ``reason`` and this message; never returns."""
    abort(REASON_STATUS[reason], message=message, reason=reason, **extra)
    raise AssertionError("abort returned")  # pragma: no cover
