"""Indexes across matches in Redis: the turn clocks' deadlines and the lobby of open matches.

Each is one sorted set with a hash tag of its own (a Redis Cluster keeps it
on one slot), so neither is written in the same atomic step as a match: they
are hints, and the match record is the truth. Deadlines are registered before
the commit that sets them (a lost race leaves a near-duplicate the sweeper
sorts out by reading the record); the lobby lists only what the record says
is still open. Changes to the lobby come after a match's commit, so a failure
there is logged and the request still answers what it committed.

- ``tl:{clock}:deadlines``: match id → when its turn clock runs out (ms)
- ``tl:{lobby}:open``: match id → when it was created (ms), listed matches with an open seat
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .outage import REDIS_OUTAGE
from .paging import page_down

DEADLINES_KEY = "tl:{clock}:deadlines"
LOBBY_KEY = "tl:{lobby}:open"
T = TypeVar("T")

# Take a due deadline for ``ARGV[2]`` ms (a lease), if it is still the one seen at ``ARGV[1]``.
_CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
if score == false or tonumber(score) ~= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return 1
"""

# Forget a deadline, if it is still the one seen at ``ARGV[1]`` (a newer one stays).
_DROP = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[2])
if score ~= false and tonumber(score) == tonumber(ARGV[1]) then redis.call('ZREM', KEYS[1], ARGV[2]) end
return 1
"""


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


class RedisIndexes:
    """The deadline and lobby sorted sets, on the store's Redis client."""

    def __init__(self, client: Client) -> None:
        self._indexes_client = client
        scripts: Any = client  # one server or a cluster: both register scripts
        self._claim = scripts.register_script(_CLAIM)
        self._drop = scripts.register_script(_DROP)

    # ----- turn clocks -----------------------------------------------------------------

    def schedule(self, match_id: str, at: float) -> None:
        """The match's clock runs out at ``at`` (epoch seconds)."""
        self._call(lambda r: r.zadd(DEADLINES_KEY, {match_id: _ms(at)}))

    def due(self, now: float, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` (match id, deadline ms) whose deadline is at or before ``now``, earliest first."""
        found = self._call(
            lambda r: r.zrangebyscore(DEADLINES_KEY, "-inf", _ms(now), start=0, num=limit, withscores=True)
        )
        return [(member.decode(), int(score)) for member, score in cast(list[tuple[bytes, float]], found)]

    def claim(self, match_id: str, seen_ms: int, until: float) -> bool:
        """Take a due deadline until ``until`` (a lease: if the taker dies, it is due again then)."""
        taken = self._call(lambda r: self._claim(keys=[DEADLINES_KEY], args=[seen_ms, _ms(until), match_id], client=r))
        return bool(taken)

    def unschedule(self, match_id: str, seen_ms: int) -> None:
        """Forget the match's deadline, unless it changed since it was seen at ``seen_ms``."""
        self._call(lambda r: self._drop(keys=[DEADLINES_KEY], args=[seen_ms, match_id], client=r))

    # ----- the lobby ---------------------------------------------------------------------

    def lobby_add(self, match_id: str, created_at: float) -> None:
        """List the match (it is listed and has an open seat)."""
        self._hint(lambda r: r.zadd(LOBBY_KEY, {match_id: _ms(created_at)}))

    def lobby_remove(self, match_id: str) -> None:
        """Take the match off the list."""
        self._hint(lambda r: r.zrem(LOBBY_KEY, match_id))

    def lobby_page(self, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` listed (match id, created ms), newest first, after the cursor ``before``."""
        return self._call(lambda r: page_down(r, LOBBY_KEY, before, count))

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._indexes_client)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def _hint(self, command: Callable[[Any], object]) -> None:
        """Change the lobby; a failure is only logged (the match's records are the truth)."""
        try:
            command(self._indexes_client)
        except STORE_ERRORS as error:
            REDIS_OUTAGE.failed(error)  # the next listing drops or shows it right
