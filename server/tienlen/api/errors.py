"""One error shape for every non-2xx answer, with a machine-readable ``reason``.

Every refusal of the service and the engine carries a ``reason``; this module
is the one place that knows which HTTP status each reason answers with. A
reason that an error class declares is named through that class, never typed
again here.
"""

from __future__ import annotations

from typing import Any

from werkzeug.http import HTTP_STATUS_CODES

from ..engine import REFUSAL_REASONS
from ..service.errors import (
    AccountRequired,
    AlreadyMatched,
    AlreadyQueued,
    AlreadyReported,
    AlreadySeated,
    BadTerms,
    Blocked,
    BotsNotAdmitted,
    ChallengeClosed,
    ChallengeExpired,
    ChallengeNotFound,
    ChallengeRefused,
    ChatMuted,
    FixedDealNotPrivate,
    IdempotencyKeyReused,
    InvalidCredentials,
    InvalidRequest,
    InvalidToken,
    MatchFull,
    MatchNotFinished,
    MatchNotFound,
    MatchNotPlaying,
    MatchNotWaiting,
    MessageNotFound,
    NameTaken,
    NotChallenged,
    NotChallenger,
    NotCreator,
    NotEntered,
    NotHost,
    NotModerator,
    NotSeated,
    NotSpectator,
    NotWatchable,
    PlayerNotFound,
    PlayerOffline,
    PuzzleNotFound,
    RematchCancelled,
    ReportNotFound,
    RoomNotFound,
    ScopeMissing,
    StaleVersion,
    Throttled,
    TicketNotFound,
    TokenNotFound,
    TooManyChallenges,
    TooManyFollowed,
    TooManyTokens,
    TooManyTournaments,
    TournamentFull,
    TournamentNotFound,
    TournamentNotOpen,
)

# The engine's refusals that are about the state of the match, not the play itself.
_ENGINE_CONFLICTS = (MatchNotPlaying.reason, "not_your_turn")

# Every reason the API gives, its status, and whether it is the reason an HTTP error of that status
# gives when it carries none of its own (a framework's 400 or 413, an abort without a reason).
# The reasons without a class are the HTTP layer's own (bodies, limits) and the store's.
_REASON_TABLE: tuple[tuple[str, int, bool], ...] = (
    ("moved_permanently", 308, True),  # a routing redirect (a doubled slash): the answer's Location
    ("bad_request", 400, True),
    (InvalidToken.reason, 401, True),
    (InvalidCredentials.reason, 401, False),
    (AccountRequired.reason, 401, False),
    (ScopeMissing.reason, 403, False),
    (NotSeated.reason, 403, False),
    (NotChallenged.reason, 403, False),
    (NotChallenger.reason, 403, False),
    (NotHost.reason, 403, False),
    (NotModerator.reason, 403, False),
    (NotWatchable.reason, 403, False),
    (NotSpectator.reason, 403, False),
    (NotCreator.reason, 403, False),
    (BotsNotAdmitted.reason, 403, False),
    (ChatMuted.reason, 403, False),
    (Blocked.reason, 403, False),
    (MatchNotFound.reason, 404, False),
    (TokenNotFound.reason, 404, False),
    (RoomNotFound.reason, 404, False),
    (PlayerNotFound.reason, 404, False),
    (TicketNotFound.reason, 404, False),
    (ChallengeNotFound.reason, 404, False),
    (MessageNotFound.reason, 404, False),
    (ReportNotFound.reason, 404, False),
    (TournamentNotFound.reason, 404, False),
    (PuzzleNotFound.reason, 404, False),
    (StaleVersion.reason, 409, False),
    (MatchFull.reason, 409, False),
    (MatchNotWaiting.reason, 409, False),
    (MatchNotFinished.reason, 409, False),
    (RematchCancelled.reason, 409, False),
    (NameTaken.reason, 409, False),
    (AlreadySeated.reason, 409, False),
    (AlreadyQueued.reason, 409, False),
    (AlreadyMatched.reason, 409, False),
    (ChallengeClosed.reason, 409, False),
    (PlayerOffline.reason, 409, False),
    (ChallengeRefused.reason, 409, False),
    (TooManyTokens.reason, 409, False),
    (TooManyChallenges.reason, 409, False),
    (TooManyFollowed.reason, 409, False),
    (AlreadyReported.reason, 409, False),
    (TooManyTournaments.reason, 409, False),
    (TournamentFull.reason, 409, False),
    (TournamentNotOpen.reason, 409, False),
    (NotEntered.reason, 409, False),
    (ChallengeExpired.reason, 410, False),
    ("payload_too_large", 413, True),
    ("uri_too_long", 414, True),  # refused by gunicorn before the app (a request line over 4094 bytes)
    ("unsupported_media_type", 415, True),
    ("headers_too_large", 431, True),  # refused by gunicorn before the app
    (InvalidRequest.reason, 422, True),
    (IdempotencyKeyReused.reason, 422, False),
    (FixedDealNotPrivate.reason, 422, False),
    (BadTerms.reason, 422, False),
    (Throttled.reason, 429, True),
    ("store_unavailable", 503, True),
    ("outcome_unknown", 503, False),
    ("too_many_waiters", 503, False),
    ("too_many_waits", 429, False),
    *((reason, 409 if reason in _ENGINE_CONFLICTS else 422, False) for reason in REFUSAL_REASONS),
)

# Status code of every reason the API gives.
REASON_STATUS: dict[str, int] = {reason: status for reason, status, _default in _REASON_TABLE}

# The reason given when an error carries none of its own, by status code: the default reasons of the
# table, and a plain word for the statuses that have none there.
DEFAULT_REASONS: dict[int, str] = {status: reason for reason, status, default in _REASON_TABLE if default} | {
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    500: "internal_error",
}


FALLBACK_REASON = "error"  # an HTTP error of a status that has no reason of its own

# Every reason an error answer may give (the ``reason`` enum of the OpenAPI document).
REASONS: tuple[str, ...] = tuple(dict.fromkeys([*REASON_STATUS, *DEFAULT_REASONS.values(), FALLBACK_REASON]))


def refusal_body(status: int, message: str) -> dict[str, Any]:
    """The error answer of an HTTP status that carries no reason of its own (its default reason)."""
    reason = DEFAULT_REASONS.get(status, FALLBACK_REASON)
    phrase = HTTP_STATUS_CODES.get(status, "Error")
    return {"code": status, "status": phrase, "message": message, "reason": reason}


def error_body(reason: str, message: str, errors: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
    """The error answer of a reason and its status."""
    status = REASON_STATUS[reason]
    body: dict[str, Any] = {"code": status, "status": HTTP_STATUS_CODES[status], "message": message, "reason": reason}
    if errors:
        body["errors"] = errors
    return body, status
