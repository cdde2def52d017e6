"""The match store: records of matches and their events; the protocol the service uses, and Redis."""

from .base import (
    DELETED_EVENT,
    AnswerKey,
    Loaded,
    MatchStore,
    OutcomeUnknownError,
    StoreUnavailableError,
    TooManyWaitersError,
    TooManyWaitsError,
)
from .connect import RedisOptions
from .records import Clock, MatchRecord, SeatRecord, new_fair_secret, new_match_id, new_token, token_digest, token_text
from .redis_store import RedisMatchStore

__all__ = [
    "DELETED_EVENT",
    "AnswerKey",
    "Clock",
    "Loaded",
    "MatchRecord",
    "MatchStore",
    "OutcomeUnknownError",
    "RedisMatchStore",
    "RedisOptions",
    "SeatRecord",
    "StoreUnavailableError",
    "TooManyWaitersError",
    "TooManyWaitsError",
    "new_fair_secret",
    "new_match_id",
    "new_token",
    "token_digest",
    "token_text",
]
