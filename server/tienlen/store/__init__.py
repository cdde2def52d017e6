"""The match store: records of matches and their events, kept in Redis."""

from .records import MatchRecord, SeatRecord, new_match_id, new_token, token_digest
from .redis_store import Loaded, MatchStore, StoreUnavailableError, idempotency_key

__all__ = [
    "Loaded",
    "MatchRecord",
    "MatchStore",
    "SeatRecord",
    "StoreUnavailableError",
    "idempotency_key",
    "new_match_id",
    "new_token",
    "token_digest",
]
