"""Spectators, the live matches and the featured one, in Redis (a :class:`~.watching.WatchStore`).

- ``tl:{spec:<match id>}``: watcher id -> when it was last seen (ms); it expires a while after its last watcher
  was seen, and each refresh drops the watchers not seen for the window (one pipeline, one round trip)
- ``tl:{live}``: match id -> score (the mean rating of its rated seats); ``tl:{live}:at``: match id -> when its
  first hand was dealt; ``tl:{live}:featured``: the featured match's id (all on one Cluster slot)

A watcher refreshes its entry at most every few seconds (the service's business), so 1,000 spectators cost a few
hundred small writes a second, not a write per event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .outage import REDIS_OUTAGE
from .watching import LiveEntry

LIVE_KEY = "tl:{live}"
LIVE_AT_KEY = "tl:{live}:at"
FEATURED_KEY = "tl:{live}:featured"
T = TypeVar("T")


def spectators_key(match_id: str) -> str:
    """The key of the match's watchers (a hash tag of its own)."""
    return "tl:{spec:" + match_id + "}"


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


class RedisWatching:
    """The watching store on the matches' Redis (one server, Sentinel or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client

    def seen(self, match_id: str, watcher: str, at: float, window_s: float) -> None:
        """Refresh the watcher's last-seen time and drop the watchers not seen for ``window_s``."""
        key, now = spectators_key(match_id), _ms(at)

        def refresh(r: Any) -> None:
            pipe = r.pipeline(transaction=False)  # one key: one node, one round trip
            pipe.zadd(key, {watcher: now})
            pipe.zremrangebyscore(key, "-inf", now - _ms(window_s))
            pipe.pexpire(key, 2 * _ms(window_s))
            pipe.execute()

        self._hint(refresh)  # a count is a hint: the request goes on

    def gone(self, match_id: str, watcher: str) -> None:
        """Forget the watcher (its stream closed); a failure is only logged (its entry goes stale soon)."""
        try:
            self._redis.zrem(spectators_key(match_id), watcher)
        except STORE_ERRORS as error:
            REDIS_OUTAGE.failed(error)

    def counts(self, match_ids: Sequence[str], since: float) -> list[int]:
        """The watchers of each match seen at or after ``since``."""
        if not match_ids:
            return []

        def read(r: Any) -> list[int]:
            if len(match_ids) == 1:
                return [int(r.zcount(spectators_key(match_ids[0]), _ms(since), "+inf"))]
            pipe = r.pipeline(transaction=False)
            for match_id in match_ids:
                pipe.zcount(spectators_key(match_id), _ms(since), "+inf")
            return [int(n) for n in pipe.execute()]

        return self._call(read)

    def live_add(self, entry: LiveEntry) -> None:
        """Index a live match (its score and start)."""

        def add(r: Any) -> None:
            pipe = r.pipeline(transaction=True)
            pipe.zadd(LIVE_KEY, {entry.match_id: entry.score})
            pipe.hset(LIVE_AT_KEY, entry.match_id, repr(entry.started_at))
            pipe.execute()

        self._hint(add)

    def live_remove(self, match_id: str) -> None:
        """Take a match off the live index."""

        def remove(r: Any) -> None:
            pipe = r.pipeline(transaction=True)
            pipe.zrem(LIVE_KEY, match_id)
            pipe.hdel(LIVE_AT_KEY, match_id)
            pipe.execute()

        self._hint(remove)

    def started(self, match_id: str) -> float | None:
        """When an indexed live match's first hand was dealt."""
        found = self._call(lambda r: r.hget(LIVE_AT_KEY, match_id))
        return None if found is None else float(cast(bytes, found))

    def live_best(self, count: int) -> list[LiveEntry]:
        """Up to ``count`` live matches, highest score first."""

        def read(r: Any) -> list[LiveEntry]:
            found = cast(list[tuple[bytes, float]], r.zrevrange(LIVE_KEY, 0, count - 1, withscores=True))
            if not found:
                return []
            ids = [member.decode() for member, _ in found]
            started = cast(list[bytes | None], r.hmget(LIVE_AT_KEY, ids))
            return [
                LiveEntry(match_id, float(score), float(at) if at is not None else 0.0)
                for match_id, (_, score), at in zip(ids, found, started, strict=True)
            ]

        return self._call(read)

    def feature(self, match_id: str | None) -> None:
        """Feature ``match_id`` (None: none)."""
        self._call(lambda r: r.set(FEATURED_KEY, match_id) if match_id is not None else r.delete(FEATURED_KEY))

    def featured(self) -> str | None:
        """The featured match's id, or None."""
        found = self._call(lambda r: r.get(FEATURED_KEY))
        return None if found is None else cast(bytes, found).decode()

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def _hint(self, command: Callable[[Any], object]) -> None:
        """Change an index; a failure is only logged (the match records are the truth)."""
        try:
            command(self._redis)
        except STORE_ERRORS as error:
            REDIS_OUTAGE.failed(error)
