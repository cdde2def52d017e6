"""Tournaments in Redis: the :class:`~.tournaments.TournamentStore` on the matches' Redis.

Keys (Cluster-safe: a tournament's own keys share the hash tag ``{tour:<id>}``; each list has a slot of its own):

- ``tl:{tour:<id>}`` hash: ``v`` (version) and ``doc`` (the record's JSON), written by compare-and-set
  (:data:`~.redis_challenges.SAVE`); kept :data:`TOURNAMENT_TTL_S` after its last write
- ``tl:{tour:<id>}:feed`` stream of the tournament's events, entry ids ``0-<seq>`` (the last
  :data:`FEED_KEPT`); ``tl:{tour:<id>}:feed-seq`` the last seq given; ``tl:{tour:<id>}:feed-wake`` the (sharded)
  pub/sub channel each push publishes on (a feed id ``#<id>`` for :class:`~.feeds.FeedReader`)
- ``tl:{tournaments:<status>}`` sorted set: tournament id -> its start time (open: the planned one, or far
  ahead for "when full"; running: when it started; finished, cancelled: when it ended), ms
- ``tl:{acct:<id>}:tournaments-open`` sorted set: the open tournaments an account created (capped)
- ``tl:{acct:<id>}:placings`` sorted set: the account's placings (JSON) in the tournaments it finished, by end
  time (ms); the latest :data:`PLACINGS_KEPT`, no expiry: deleted with the account
- ``tl:{acct:<id>}:tournaments`` set: the tournaments the account created or entered (to take its name out of
  their records when it is deleted); kept :data:`TOURNAMENT_TTL_S` after its last addition
- ``tl:{tour-lock:<name>}`` a seater's lock (``SET NX PX``)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, TypeVar, cast

from .. import wire
from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError
from .events import Event
from .feeds import FeedReader
from .layout import MAX_EVENTS_PER_READ
from .redis_challenges import SAVE
from .redis_inbox import PUSH, feed_channel
from .tournaments import TOURNAMENT_STATUSES, Placing, TournamentRecord

T = TypeVar("T")
TOURNAMENT_TTL_S = 90 * 24 * 3600
FEED_KEPT = 5000
PLACINGS_KEPT = 500
TOURNAMENT_FEED = "#"  # a feed id that starts with this is a tournament's

# KEYS: the creator's open set. ARGV: tournament id, cap. 1: counted (or was); 0: the cap is reached.
CLAIM_OPEN = WriteScript("""
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], 0, ARGV[1])
return 1
""")


# KEYS: the feed. ARGV: its TTL, the last entry id read, then (id, event) pairs: the feed written again with them,
# unless an entry came since it was read. 1: written; 0: it moved (read again).
REWRITE_FEED = WriteScript("""
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local now = ''
if #last > 0 then now = last[1][1] end
if now ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
for i = 3, #ARGV, 2 do redis.call('XADD', KEYS[1], ARGV[i], 'e', ARGV[i + 1]) end
if #ARGV >= 3 then redis.call('EXPIRE', KEYS[1], tonumber(ARGV[1])) end
return 1
""")
FEED_NAMED = ("name", "winner")  # the feed's fields that hold an account's name


def tournament_key(tournament_id: str) -> str:
    """Key of the tournament's record."""
    return f"tl:{{tour:{tournament_id}}}"


def feed_key(tournament_id: str) -> str:
    """Key of the tournament's event stream."""
    return f"tl:{{tour:{tournament_id}}}:feed"


def feed_seq_key(tournament_id: str) -> str:
    """Key of the last seq given in the tournament's feed."""
    return f"tl:{{tour:{tournament_id}}}:feed-seq"


def tournament_channel(tournament_id: str) -> str:
    """The pub/sub channel a push publishes the tournament's new events on."""
    return f"tl:{{tour:{tournament_id}}}:feed-wake"


def placings_key(account_id: str) -> str:
    """Key of the account's placings in the tournaments it finished."""
    return f"tl:{{acct:{account_id}}}:placings"


def parts_key(account_id: str) -> str:
    """Key of the tournaments the account created or entered."""
    return f"tl:{{acct:{account_id}}}:tournaments"


def status_key(status: str) -> str:
    """Key of the sorted set of the tournaments of ``status``."""
    return f"tl:{{tournaments:{status}}}"


def open_key(account_id: str) -> str:
    """Key of the open tournaments an account created."""
    return f"tl:{{acct:{account_id}}}:tournaments-open"


def any_feed_channel(feed: str) -> str:
    """The wake channel of any feed: a tournament's (``#<id>``), else an inbox's or a match's."""
    if feed.startswith(TOURNAMENT_FEED):
        return tournament_channel(feed[len(TOURNAMENT_FEED) :])
    return feed_channel(feed)


class RedisTournaments:
    """The :class:`~.tournaments.TournamentStore` on the matches' Redis; its feeds share the wake-up subscriber."""

    def __init__(
        self,
        client: Client,
        reader: Callable[[Callable[[str, int], list[Event] | None]], FeedReader],
        publish: Callable[[], str],
    ) -> None:
        self._redis = client
        self._publish = publish
        self._feeds = reader(self._read)

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def load(self, tournament_id: str) -> TournamentRecord | None:
        """The tournament's record, or None."""
        doc = self._call(lambda r: r.hget(tournament_key(tournament_id), "doc"))
        return None if doc is None else TournamentRecord.from_json(cast(bytes, doc))

    def save(self, record: TournamentRecord, expected_version: int | None) -> bool:
        """Write ``record`` if the stored one is still at ``expected_version`` (None: a new tournament)."""
        args: list[Any] = [
            "" if expected_version is None else str(expected_version),
            str(record.version),
            record.to_json(),
            TOURNAMENT_TTL_S,
        ]
        return bool(run_script(self._redis, SAVE, [tournament_key(record.tournament_id)], args))

    def list_in(self, tournament_id: str, status: str, score: float) -> None:
        """List the tournament under ``status`` (by ``score``) and take it out of the other lists."""
        for other in TOURNAMENT_STATUSES:
            if other != status:
                self._call(partial(_zrem, key=status_key(other), member=tournament_id))
        self._call(lambda r: r.zadd(status_key(status), {tournament_id: int(score * 1000)}))

    def listed(
        self, status: str, after: tuple[float, str] | None, count: int, *, newest: bool = False
    ) -> list[tuple[str, float]]:
        """A page of the tournaments of ``status``, by score then id (``newest``: highest score first)."""
        key = status_key(status)
        if newest:
            top = "+inf" if after is None else int(after[0] * 1000)
            found = self._call(lambda r: r.zrevrangebyscore(key, top, "-inf", start=0, num=count + 64, withscores=True))
        else:
            low = "-inf" if after is None else int(after[0] * 1000)
            found = self._call(lambda r: r.zrangebyscore(key, low, "+inf", start=0, num=count + 64, withscores=True))
        rows = [(member.decode(), float(score) / 1000) for member, score in found]
        if after is not None:
            at_ms, last = int(after[0] * 1000), after[1]

            def beyond(row: tuple[str, float]) -> bool:
                row_ms = round(row[1] * 1000)
                if row_ms != at_ms:
                    return True
                return row[0] < last if newest else row[0] > last

            rows = [row for row in rows if beyond(row)]
        return rows[:count]

    def claim_open(self, creator: str, tournament_id: str, cap: int) -> bool:
        """Count the tournament among its creator's open ones; False at the cap."""
        return bool(run_script(self._redis, CLAIM_OPEN, [open_key(creator)], [tournament_id, cap]))

    def release_open(self, creator: str, tournament_id: str) -> None:
        """The tournament leaves its creator's open count."""
        self._call(partial(_zrem, key=open_key(creator), member=tournament_id))

    def push(self, tournament_id: str, events: list[dict[str, Any]]) -> int:
        """Number, append and publish ``events`` (without ``seq``) in the tournament's feed; the last seq."""
        keys = [feed_key(tournament_id), feed_seq_key(tournament_id), tournament_channel(tournament_id)]
        publish = self._call(lambda _r: self._publish())
        args = [FEED_KEPT, TOURNAMENT_TTL_S, publish, *(wire.dumps(e) for e in events)]
        return int(run_script(self._redis, PUSH, keys, args))

    def _read(self, feed: str, after: int) -> list[Event]:
        tournament_id = feed[len(TOURNAMENT_FEED) :]
        found = self._call(lambda r: r.xrange(feed_key(tournament_id), min=f"0-{after + 1}", count=MAX_EVENTS_PER_READ))
        return [wire.loads(fields[b"e"]) for _id, fields in cast(list[tuple[bytes, dict[bytes, bytes]]], found)]

    def events(self, tournament_id: str, after: int, wait_s: float = 0) -> list[Event]:
        """The feed's events with ``seq`` > ``after`` (a page), waiting up to ``wait_s`` for one."""
        return self._feeds.events(TOURNAMENT_FEED + tournament_id, after, wait_s) or []

    def follow(self, tournament_id: str, after: int, idle_s: float) -> Iterator[list[Event]]:
        """Every event of the feed after ``after`` as it comes; an empty batch after ``idle_s``."""
        return self._feeds.follow(TOURNAMENT_FEED + tournament_id, after, idle_s)

    def place(self, placings: dict[str, Placing]) -> None:
        """Keep each account's placing in its list (the same placing again: no change), the latest
        :data:`PLACINGS_KEPT` of each."""
        for account_id, placing in placings.items():
            key = placings_key(account_id)

            def add(r: Any, key: str = key, placing: Placing = placing) -> None:
                pipe = r.pipeline(transaction=False)
                pipe.zadd(key, {placing.to_json(): int(placing.ended_at * 1000)})
                pipe.zremrangebyrank(key, 0, -PLACINGS_KEPT - 1)
                pipe.execute()

            self._call(add)

    def placings(self, account_id: str, limit: int) -> list[Placing]:
        """The account's latest ``limit`` placings, newest first."""
        found = self._call(lambda r: r.zrevrange(placings_key(account_id), 0, limit - 1))
        return [Placing.from_json(member) for member in cast(list[bytes], found)]

    def note_part(self, account_id: str, tournament_id: str) -> None:
        """The account takes part in the tournament (created or entered it)."""
        key = parts_key(account_id)

        def add(r: Any) -> None:
            pipe = r.pipeline(transaction=False)
            pipe.sadd(key, tournament_id)
            pipe.expire(key, TOURNAMENT_TTL_S)
            pipe.execute()

        self._call(add)

    def parts_of(self, account_id: str) -> list[str]:
        """The tournaments the account created or entered."""
        return sorted(m.decode() for m in cast(set[bytes], self._call(lambda r: r.smembers(parts_key(account_id)))))

    def rename_in_feed(self, tournament_id: str, name: str, replacement: str) -> None:
        """Write ``replacement`` for ``name`` wherever the tournament's feed names it (an account deleted)."""
        key = feed_key(tournament_id)
        for _ in range(8):
            found = self._call(lambda r: r.xrange(key))
            entries = cast(list[tuple[bytes, dict[bytes, bytes]]], found)
            pairs: list[Any] = []
            for entry_id, fields in entries:
                event = wire.loads(fields[b"e"])
                for named in FEED_NAMED:
                    if event.get(named) == name:
                        event[named] = replacement
                pairs += [entry_id, wire.dumps(event)]
            last = entries[-1][0] if entries else b""
            if run_script(self._redis, REWRITE_FEED, [key], [TOURNAMENT_TTL_S, last, *pairs]):
                return
        raise StoreUnavailableError(f"the feed of tournament {tournament_id} kept moving")

    def forget(self, account_id: str) -> None:
        """The account was deleted: its placings and its list of tournaments go."""
        self._call(lambda r: r.delete(placings_key(account_id), parts_key(account_id)))

    def lock(self, name: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms``; False while held."""
        return bool(self._call(lambda r: r.set(f"tl:{{tour-lock:{name}}}", 1, nx=True, px=ttl_ms)))

    def unlock(self, name: str) -> None:
        """Let the lock ``name`` go."""
        self._call(lambda r: r.delete(f"tl:{{tour-lock:{name}}}"))


def _zrem(client: Any, *, key: str, member: str) -> Any:
    return client.zrem(key, member)
