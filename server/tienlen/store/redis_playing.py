"""The live matches each account sits in, in Redis (a :class:`~.playing.PlayingIndex`).

``tl:{plays:<digest>}``: a set of match ids, one key an account (its own hash tag: a Cluster slot of its own; the
digest keeps account ids out of key names). It lives :data:`PLAYING_TTL_S` after its last change, so an entry
whose removal was lost does not stay for good; readers check each id against its record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar, cast

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .outage import REDIS_OUTAGE

PLAYING_TTL_S = 7 * 24 * 3600
T = TypeVar("T")


def playing_key(account_id: str) -> str:
    """The key of the account's live matches."""
    return "tl:{plays:" + hashlib.sha256(account_id.encode("utf-8", "surrogatepass")).hexdigest()[:32] + "}"


class RedisPlaying:
    """The playing index on the matches' Redis."""

    def __init__(self, client: Client) -> None:
        self._redis = client

    def add(self, account_id: str, match_id: str) -> None:
        """The account sits in a live match."""

        def add(r: Any) -> None:
            pipe = r.pipeline(transaction=True)
            pipe.sadd(playing_key(account_id), match_id)
            pipe.expire(playing_key(account_id), PLAYING_TTL_S)
            pipe.execute()

        self._hint(add)

    def remove(self, account_id: str, match_id: str) -> None:
        """The match is over for the account."""
        self._hint(lambda r: r.srem(playing_key(account_id), match_id))

    def matches(self, account_id: str) -> list[str]:
        """The account's live matches (some may have ended since), sorted."""
        try:
            found = cast(set[bytes], self._redis.smembers(playing_key(account_id)))
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        return sorted(member.decode() for member in found)

    def _hint(self, command: Callable[[Any], object]) -> None:
        try:
            command(self._redis)
        except STORE_ERRORS as error:
            REDIS_OUTAGE.failed(error)
