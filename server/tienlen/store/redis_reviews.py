"""Reviews of finished matches in Redis: the review beside the kept match, and the pending jobs.

Keys:

- ``tl:{kept:<match id>}:review`` hash: ``status`` (pending, running, done), ``done`` and ``total`` (actions
  reviewed, of all), ``worker`` (the job's holder), ``doc`` (the review, zlib of compact JSON, once done);
  the kept match's lifetime left (``TIENLEN_HISTORY_DAYS``, or for good); a day for a match that is not kept
- ``tl:{reviews}:pending`` sorted set: match id → until when its job is held (ms; 0 = never taken). A job whose
  lease ran out (its worker died) is taken again by the next sweeper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .redis_history import kept_key
from .reviews import ReviewRecord

PENDING_KEY = "tl:{reviews}:pending"
T = TypeVar("T")

# KEYS: pending. ARGV: now ms, lease ms, worker. Take the earliest job whose lease ran out; its match id or nil.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return false end
local id = due[1]
redis.call('ZADD', KEYS[1], ARGV[2], id)
return id
"""


def review_key(match_id: str) -> str:
    """The key of a match's review (beside its kept record: the same hash tag)."""
    return f"tl:{{kept:{match_id}}}:review"


class RedisReviews:
    """The :class:`~.reviews.ReviewStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client
        self._claim = scripts.register_script(_CLAIM)

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def get(self, match_id: str) -> ReviewRecord | None:
        """The match's review (or its job), or None."""
        found = cast(dict[bytes, bytes], self._call(lambda r: r.hgetall(review_key(match_id))))
        if not found or b"status" not in found:
            return None
        return ReviewRecord(
            found[b"status"].decode(), int(found.get(b"done", b"0")), int(found.get(b"total", b"0")), found.get(b"doc")
        )

    def enqueue(self, match_id: str, ttl_s: int | None) -> bool:
        """Ask for the review once (``HSETNX``): a pending job lasting ``ttl_s`` (None: as long as the kept match
        is kept); whether it is new."""

        def write(r: Any) -> bool:
            key = review_key(match_id)
            if not r.hsetnx(key, "status", "pending"):
                return False
            if ttl_s is not None:
                r.expire(key, ttl_s)
            else:
                left = r.pttl(kept_key(match_id))  # the kept match's lifetime left (-1: for good)
                if left > 0:
                    r.pexpire(key, left)
            r.zadd(PENDING_KEY, {match_id: 0}, nx=True)
            return True

        return self._call(write)

    def claim(self, now: float, lease_s: float, worker: str) -> str | None:
        """Take the earliest job whose lease ran out, until ``now + lease_s``; its match id."""

        def take(r: Any) -> str | None:
            lease = [int(now * 1000), int((now + lease_s) * 1000), worker]
            taken = self._claim(keys=[PENDING_KEY], args=lease, client=r)
            if taken is None:
                return None
            match_id = taken.decode() if isinstance(taken, bytes) else str(taken)
            r.hset(review_key(match_id), mapping={"status": "running", "worker": worker})
            return match_id

        return self._call(take)

    def _holds(self, r: Any, match_id: str, worker: str) -> bool:
        held = r.hget(review_key(match_id), "worker")
        return held is not None and held.decode() == worker

    def renew(self, match_id: str, worker: str, until: float, done: int, total: int) -> bool:
        """Hold the job until ``until`` and record the progress, if ``worker`` still holds it."""

        def write(r: Any) -> bool:
            if not self._holds(r, match_id, worker):
                return False
            r.zadd(PENDING_KEY, {match_id: int(until * 1000)}, xx=True)
            r.hset(review_key(match_id), mapping={"done": done, "total": total})
            return True

        return self._call(write)

    def finish(self, match_id: str, worker: str, document: bytes) -> bool:
        """Store the review (status done) and end the job, if ``worker`` still holds it."""

        def write(r: Any) -> bool:
            if not self._holds(r, match_id, worker):
                return False
            r.hset(review_key(match_id), mapping={"status": "done", "doc": document})
            r.zrem(PENDING_KEY, match_id)
            return True

        return self._call(write)

    def drop(self, match_id: str) -> None:
        """Forget the job and the review."""

        def write(r: Any) -> None:
            r.zrem(PENDING_KEY, match_id)
            r.delete(review_key(match_id))

        self._call(write)
