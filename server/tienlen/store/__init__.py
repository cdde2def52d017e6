"""The match store: records of matches and their events; the protocols the service uses, and Redis.

The values (:mod:`.records`, :mod:`.events`, :mod:`.errors`) and the
protocols (:mod:`.base` and the stores beside the matches: :mod:`.accounts`,
:mod:`.challenges`, :mod:`.follows`, :mod:`.history`, :mod:`.inbox`,
:mod:`.live_seats`, :mod:`.queue`, :mod:`.rating_store`, :mod:`.wait_slots`) import no implementation; the
Redis implementations (:mod:`.redis_store` and the ``redis_*`` modules it
uses) import them. The service imports the values and protocols from their
own modules; this face names them too, with the implementation.
"""

from ..redis_options import RedisOptions
from .base import AnswerKey, Loaded, MatchStore
from .errors import OutcomeUnknownError, StoreUnavailableError, TooManyWaitersError, TooManyWaitsError
from .events import DELETED_EVENT
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
