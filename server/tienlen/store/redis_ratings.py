"""Ratings in Redis: each account's rating per table size, the settled result of each rated match, leaderboards.

The :class:`~.rating_store.RatingStore` on the matches' Redis.

Keys (Cluster-safe: an account's own share its hash tag, the others each have one):

- ``tl:{acct:<id>}:ratings`` hash: table size → the rating's JSON (``mu``, ``sigma``, ``games``)
- ``tl:{acct:<id>}:applied`` sorted set: the rated matches already applied to the account (applied once each),
  by when; notes older than :data:`APPLIED_KEPT_S` are dropped as new ones come (a house bot plays all day)
- ``tl:{rated:<match id>}`` the settled result of a rated match: every rated account's rating before and after;
  the first to settle it wins and every later try reads the same (so a match's end processed twice, or by two
  workers at once, moves each rating once); kept :data:`APPLIED_KEPT_S` (a match is settled within seconds of
  its end, by its request or the sweeper)
- ``tl:{board:<players>:<kind>}`` sorted set: account id → its shown rating at that table size

A result is applied to each account as a change (``mu`` moved by the result's difference, ``sigma`` scaled by
its ratio, one more game) in one script on the account's slot, which also notes the match as applied: so two rated
matches of one account that end together both count, and neither counts twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar, cast

from .. import wire
from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .paging import page_down
from .rating_store import RatingDict

T = TypeVar("T")

APPLIED_KEPT_S = 30 * 24 * 3600  # how long a settled result, and an account's note of it, are kept

# KEYS: ratings hash, applied set. ARGV: match id, table size, mu change, sigma ratio, the new player's rating JSON,
# now, the oldest note kept. The notes are a sorted set by time, pruned as they go (a house bot plays every day).
_APPLY = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local current = redis.call('HGET', KEYS[1], ARGV[2])
if current == false then current = ARGV[5] end
local rating = cjson.decode(current)
rating.mu = rating.mu + tonumber(ARGV[3])
rating.sigma = rating.sigma * tonumber(ARGV[4])
rating.games = rating.games + 1
redis.call('HSET', KEYS[1], ARGV[2], cjson.encode(rating))
redis.call('ZADD', KEYS[2], tonumber(ARGV[6]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[7]))
return 1
"""


def ratings_key(account_id: str) -> str:
    """The key of an account's ratings (by table size)."""
    return f"tl:{{acct:{account_id}}}:ratings"


def applied_key(account_id: str) -> str:
    """The key of the rated matches applied to an account (sorted by when, the last :data:`APPLIED_KEPT_S`)."""
    return f"tl:{{acct:{account_id}}}:applied"


def result_key(match_id: str) -> str:
    """The key of a rated match's settled result."""
    return f"tl:{{rated:{match_id}}}"


def board_key(players: int, kind: str) -> str:
    """The key of the leaderboard of ``kind`` accounts (human, bot) at ``players`` seats."""
    return f"tl:{{board:{players}:{kind}}}"


def _zrem(client: Any, *, key: str, member: str) -> Any:
    return client.zrem(key, member)


class RedisRatings:
    """Ratings, settled results and leaderboards on the store's Redis client (a :class:`RatingStore`)."""

    def __init__(self, client: Client) -> None:
        self._ratings_client = client
        self.clock: Callable[[], float] = time.time  # when a match is applied (to prune old notes)
        scripts: Any = client
        self._apply = scripts.register_script(_APPLY)

    def ratings(self, account_id: str) -> dict[int, RatingDict]:
        """The account's ratings by table size (none where it has no rated game)."""
        found = self._ratings(lambda r: r.hgetall(ratings_key(account_id)))
        return {int(size): cast(RatingDict, wire.loads(value)) for size, value in found.items()}

    def settle(self, match_id: str, result: dict[str, Any]) -> dict[str, Any]:
        """Keep ``result`` as the match's settled result unless one is kept already; the kept one."""
        key = result_key(match_id)
        self._ratings(lambda r: r.set(key, wire.dumps(result), nx=True, ex=APPLIED_KEPT_S))
        kept = self._ratings(lambda r: r.get(key))
        if kept is None:  # cannot be: it was just set, for a month
            raise StoreUnavailableError(f"the rated result of {match_id} was not kept")
        return cast(dict[str, Any], wire.loads(kept))

    def settled(self, match_id: str) -> dict[str, Any] | None:
        """The match's settled result, or None."""
        kept = self._ratings(lambda r: r.get(result_key(match_id)))
        return None if kept is None else cast(dict[str, Any], wire.loads(kept))

    def apply(self, account_id: str, match_id: str, players: int, change: tuple[float, float], new: RatingDict) -> bool:
        """Move the account's rating by ``change`` (mu difference, sigma ratio) once for the match; False if done.

        ``new`` is the rating of a player with none yet at this table size.
        """
        mu_change, sigma_ratio = change
        now = self.clock()
        args = [match_id, players, repr(mu_change), repr(sigma_ratio), wire.dumps(new), repr(now)]
        args.append(repr(now - APPLIED_KEPT_S))
        keys = [ratings_key(account_id), applied_key(account_id)]
        return bool(self._ratings(lambda r: self._apply(keys=keys, args=args, client=r)))

    def rank(self, players: int, kind: str, account_id: str, shown: int) -> None:
        """Put the account on the leaderboard of its kind at ``players`` seats with its ``shown`` rating."""
        self._ratings(lambda r: r.zadd(board_key(players, kind), {account_id: shown}))

    def position(self, players: int, kind: str, account_id: str) -> int | None:
        """The account's 0-based position on the board (equal ratings in descending id order, as pages list them)."""
        found = self._ratings(lambda r: r.zrevrank(board_key(players, kind), account_id))
        return None if found is None else int(found)

    def unrank(self, account_id: str) -> None:
        """Take the account off every leaderboard (it was deleted)."""
        keys = [board_key(players, kind) for players in (2, 3, 4) for kind in ("human", "bot")]
        for key in keys:  # each board has a slot of its own
            self._ratings(partial(_zrem, key=key, member=account_id))

    def board_page(self, players: int, kind: str, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` (account id, shown rating), best first, after the cursor ``before``."""
        return self._ratings(lambda r: page_down(r, board_key(players, kind), before, count))

    def forget(self, account_id: str) -> None:
        """Delete the account's ratings and applied matches (it was deleted), and its id from their results.

        A result without the account still settles the match for the others (the account is no longer rated).
        """
        applied = self._ratings(lambda r: r.zrange(applied_key(account_id), 0, -1))
        for member in cast(list[bytes], applied):
            self._drop_from_result(member.decode(), account_id)
        self._ratings(lambda r: r.delete(ratings_key(account_id), applied_key(account_id)))
        self.unrank(account_id)

    def _drop_from_result(self, match_id: str, account_id: str) -> None:
        result = self.settled(match_id)
        if result is None or account_id not in result.get("accounts", {}):
            return
        del result["accounts"][account_id]
        result["seats"] = {seat: held for seat, held in result["seats"].items() if held != account_id}
        self._ratings(lambda r: r.set(result_key(match_id), wire.dumps(result), xx=True))

    def _ratings(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._ratings_client)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
