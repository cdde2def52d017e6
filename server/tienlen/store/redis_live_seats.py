"""Each account's live matches in Redis: the :class:`~.live_seats.LiveSeats` index on the matches' Redis.

Keys:

- ``tl:{acct:<id>}:live`` sorted set: the ids of the live matches the account sits in → when each was dealt
  (epoch seconds). It lasts as long as a match in play is kept after its last write, from its last add: an
  account that never plays again leaves nothing behind; what a record no longer holds is pruned on read.
"""

from __future__ import annotations

from typing import Any

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError


def live_key(account_id: str) -> str:
    """Key of the account's live matches."""
    return f"tl:{{acct:{account_id}}}:live"


class RedisLiveSeats:
    """The :class:`LiveSeats` index on the matches' Redis; an index lasts ``ttl_s`` after its last add."""

    def __init__(self, client: Client, ttl_s: int) -> None:
        self._redis = client
        self._ttl_s = ttl_s

    def _call(self, work: Any) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def add(self, account_id: str, match_id: str, started_at: float) -> None:
        """Add the match (the first time kept: ``NX``) and keep the index as long as a match in play."""
        key = live_key(account_id)
        pipe = self._redis.pipeline(transaction=False)
        pipe.zadd(key, {match_id: started_at}, nx=True)
        pipe.expire(key, self._ttl_s)
        self._call(pipe.execute)

    def remove(self, account_id: str, match_id: str) -> None:
        """Take the match out of the account's index."""
        self._call(lambda: self._redis.zrem(live_key(account_id), match_id))

    def of(self, account_id: str) -> list[tuple[str, float]]:
        """The account's live matches, oldest first."""
        found = self._call(lambda: self._redis.zrange(live_key(account_id), 0, -1, withscores=True))
        return [(member.decode(), float(score)) for member, score in found]

    def forget(self, account_id: str) -> None:
        """Drop the account's index."""
        self._call(lambda: self._redis.delete(live_key(account_id)))
