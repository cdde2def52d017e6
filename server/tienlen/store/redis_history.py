"""Kept matches in Redis: a compact record of every finished match an account sat in, and each account's index.

The :class:`~.history.HistoryStore` on the matches' Redis.

Keys (each with a hash tag of its own, so a Redis Cluster spreads them; none is
written in the same atomic step as a match, and every write is idempotent):

- ``tl:{history}:due`` sorted set: match id → when it is to be kept (ms). Registered *before* the commit that
  finishes a match, dropped once it is kept (or found not to have finished), so a process that dies between
  the two leaves the work to the sweeper
- ``tl:{kept:<match id>}`` the kept record (zlib of compact JSON), no lifetime unless ``TIENLEN_HISTORY_DAYS``
- ``tl:{acct:<id>}:matches`` sorted set: match id → when it ended (ms), the account's kept matches
- ``tl:{acct:<id>}:wins`` sorted set: the same, for the matches it won (a set: keeping twice counts once)
- ``tl:{acct:<id>}:seated`` sorted set: match id → when a seat of it was bound to the account (ms), the live
  matches to scrub the account's name from when it is deleted
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar, cast

from .. import wire
from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError
from .history import Indexed
from .layout import events_key, state_key
from .paging import page_down

DUE_KEY = "tl:{history}:due"
SEATED_PRUNE_AT = 100  # live matches an account's index holds before the oldest ones are checked
SEATED_PRUNE_BATCH = 50
T = TypeVar("T")

# Take a due entry for a lease (until ARGV[2] ms), if it is still the one seen at ARGV[1].
_CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[3])
if score == false or tonumber(score) ~= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
return 1
"""

# KEYS: state, events. ARGV: expected version, new version, record, then (entry id, event) pairs: the record
# and its whole event stream are replaced (their lifetimes kept) if the match is still at that version.
SCRUB = WriteScript("""
local current = redis.call('HGET', KEYS[1], 'v')
if current == false or current ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
if #ARGV > 3 then
  local ttl = redis.call('PTTL', KEYS[2])
  redis.call('DEL', KEYS[2])
  for i = 4, #ARGV, 2 do redis.call('XADD', KEYS[2], ARGV[i], 'e', ARGV[i + 1]) end
  if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
end
return 1
""")


def _add_all(client: Any, *, keys: list[str], member: str, score: int) -> None:
    for key in keys:
        client.zadd(key, {member: score})


def kept_key(match_id: str) -> str:
    """The key of a kept match."""
    return f"tl:{{kept:{match_id}}}"


def matches_key(account_id: str) -> str:
    """The key of an account's kept matches, by when each ended."""
    return f"tl:{{acct:{account_id}}}:matches"


def wins_key(account_id: str) -> str:
    """The key of the kept matches an account won."""
    return f"tl:{{acct:{account_id}}}:wins"


def seated_key(account_id: str) -> str:
    """The key of the live matches a seat of which was bound to an account."""
    return f"tl:{{acct:{account_id}}}:seated"


class RedisHistory:
    """The :class:`HistoryStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client
        self._claim = scripts.register_script(_CLAIM)

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    # ----- the due set -------------------------------------------------------------------

    def mark_due(self, match_id: str, at: float) -> None:
        """The match is to be kept by ``at``."""
        self._call(lambda r: r.zadd(DUE_KEY, {match_id: int(at * 1000)}))

    def due_kept(self, now: float, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` due entries, earliest first."""
        found = self._call(
            lambda r: r.zrangebyscore(DUE_KEY, "-inf", int(now * 1000), start=0, num=limit, withscores=True)
        )
        return [(member.decode(), int(score)) for member, score in cast(list[tuple[bytes, float]], found)]

    def claim_due(self, match_id: str, seen_ms: int, until: float) -> bool:
        """Take a due entry until ``until`` (a lease: due again then if the taker died)."""
        taken = self._call(lambda r: self._claim(keys=[DUE_KEY], args=[seen_ms, int(until * 1000), match_id], client=r))
        return bool(taken)

    def done_due(self, match_id: str) -> None:
        """Forget the match's due entry."""
        self._call(lambda r: r.zrem(DUE_KEY, match_id))

    # ----- kept records --------------------------------------------------------------------

    def put(self, match_id: str, blob: bytes, ttl_s: int | None) -> bool:
        """Keep a record unless one is kept already."""
        return bool(self._call(lambda r: r.set(kept_key(match_id), blob, nx=True, ex=ttl_s)))

    def replace(self, match_id: str, blob: bytes) -> None:
        """Rewrite a kept record, its lifetime kept."""
        self._call(lambda r: r.set(kept_key(match_id), blob, xx=True, keepttl=True))

    def get(self, match_id: str) -> bytes | None:
        """A kept record, or None."""
        return cast(bytes | None, self._call(lambda r: r.get(kept_key(match_id))))

    def get_many(self, match_ids: list[str]) -> list[bytes | None]:
        """Several kept records in one round trip."""
        if not match_ids:
            return []

        def read(r: Any) -> list[bytes | None]:
            pipe = r.pipeline(transaction=False)
            for match_id in match_ids:
                pipe.get(kept_key(match_id))
            return cast(list[bytes | None], pipe.execute())

        return self._call(read)

    # ----- the accounts' indexes -------------------------------------------------------------

    def index(self, match_id: str, ended_ms: int, seats: list[Indexed], keep_from_ms: int | None) -> None:
        """List the match for each account (idempotent: sorted sets), trimming what is past the bound."""
        for seat in seats:
            keys = [matches_key(seat.account_id)] + ([wins_key(seat.account_id)] if seat.won else [])
            self._call(partial(_add_all, keys=keys, member=match_id, score=ended_ms))
        if keep_from_ms is not None:
            for seat in seats:
                self.counts(seat.account_id, keep_from_ms)

    def page(
        self, account_id: str, before: tuple[int, str] | None, count: int, since_ms: int, until_ms: int | None
    ) -> list[tuple[str, int]]:
        """Newest first; ties (same ms) in descending id order, skipped up to the cursor."""
        top: int | str = "+inf" if until_ms is None else f"({until_ms}"
        if before is not None and until_ms is not None and before[0] >= until_ms:
            before = None  # a cursor past the bound: the page starts at the bound
        return self._call(lambda r: page_down(r, matches_key(account_id), before, count, top, since_ms))

    def counts(self, account_id: str, keep_from_ms: int | None) -> tuple[int, int]:
        """(games, wins), trimmed to the bound first."""
        keys = (matches_key(account_id), wins_key(account_id))
        if keep_from_ms is not None:
            self._call(lambda r: [r.zremrangebyscore(key, "-inf", f"({keep_from_ms}") for key in keys])
        games, wins = self._call(lambda r: [int(r.zcard(key)) for key in keys])
        return games, wins

    def unindex(self, account_id: str, match_id: str) -> None:
        """Drop one match from the account's indexes."""
        keys = (matches_key(account_id), wins_key(account_id))
        self._call(lambda r: [r.zrem(key, match_id) for key in keys])

    def matches_of(self, account_id: str) -> list[str]:
        """Every match id in the account's index."""
        found = self._call(lambda r: r.zrange(matches_key(account_id), 0, -1))
        return [member.decode() for member in cast(list[bytes], found)]

    def drop_indexes(self, account_id: str) -> None:
        """Forget the account's indexes (one key at a time: fine on a cluster too)."""
        keys = (matches_key(account_id), wins_key(account_id), seated_key(account_id))
        self._call(lambda r: [r.delete(key) for key in keys])

    def seat_bound(self, account_id: str, match_id: str, now: float) -> None:
        """Note the live match; past :data:`SEATED_PRUNE_AT` the oldest whose record is gone are dropped."""
        key = seated_key(account_id)
        self._call(lambda r: r.zadd(key, {match_id: int(now * 1000)}))
        if int(self._call(lambda r: r.zcard(key))) < SEATED_PRUNE_AT:
            return
        oldest = [m.decode() for m in cast(list[bytes], self._call(lambda r: r.zrange(key, 0, SEATED_PRUNE_BATCH - 1)))]
        live = self._call(lambda r: [bool(r.exists(state_key(m))) for m in oldest])
        gone = [m for m, alive in zip(oldest, live, strict=True) if m != match_id and not alive]
        if gone:
            self._call(lambda r: r.zrem(key, *gone))

    def seated(self, account_id: str) -> list[str]:
        """The live matches noted for the account."""
        found = self._call(lambda r: r.zrange(seated_key(account_id), 0, -1))
        return [member.decode() for member in cast(list[bytes], found)]

    def scrub(
        self, match_id: str, expected_version: int, doc: bytes, version: int, events: list[dict[str, Any]]
    ) -> bool:
        """Replace the record and (given) its events, entry ids ``0-<seq>``, lifetimes kept."""
        pairs: list[Any] = []
        for event in events:
            pairs += [f"0-{event['seq']}", wire.dumps(event)]
        keys = [state_key(match_id), events_key(match_id)]
        return bool(run_script(self._redis, SCRUB, keys, [str(expected_version), str(version), doc, *pairs]))
