"""Matches in Redis: one hash per match, its events in a stream, atomic writes.

Keys of one match share the hash tag ``{<match_id>}`` so a Redis Cluster keeps
them on one slot:

- ``tl:{id}:state``  hash: ``v`` (version) and ``doc`` (the record's JSON)
- ``tl:{id}:events`` stream of public events, entry ids ``0-<seq>``
- ``tl:{id}:idem:<sha256>`` a cached answer for an ``Idempotency-Key``

Every write is one Lua script: compare the version, replace the record, append
the events and refresh the TTLs, all or nothing.
"""

from __future__ import annotations

import hashlib
import math
import threading
from typing import Any, cast

import redis

from .. import wire
from .base import AnswerKey, Loaded, StoreUnavailableError
from .records import MatchRecord

IDEMPOTENCY_TTL_S = 24 * 3600
MAX_EVENTS_PER_READ = 500

_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
if KEYS[3] and redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
local ttl = tonumber(ARGV[4])
local first = tonumber(ARGV[5])
local count = tonumber(ARGV[6])
for i = 1, count do
  redis.call('XADD', KEYS[2], '0-' .. (first + i - 1), 'e', ARGV[8 + i])
end
redis.call('EXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
if KEYS[3] then redis.call('SET', KEYS[3], ARGV[7], 'EX', ARGV[8]) end
return 1
"""


def state_key(match_id: str) -> str:
    """Key of the match's hash."""
    return f"tl:{{{match_id}}}:state"


def events_key(match_id: str) -> str:
    """Key of the match's event stream."""
    return f"tl:{{{match_id}}}:events"


def answer_key(match_id: str, answer: AnswerKey) -> str:
    """Key of the answer kept for an ``Idempotency-Key`` within its scope (a seat's token digest)."""
    digest = hashlib.sha256(f"{answer.scope}:{answer.key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"tl:{{{match_id}}}:idem:{digest}"


class RedisMatchStore:
    """Loads and atomically writes match records and their events in Redis (a :class:`MatchStore`)."""

    def __init__(self, client: redis.Redis, blocking_client: redis.Redis, ttl_s: int) -> None:
        self._shared = client
        self._blocking = blocking_client
        self.ttl_s = ttl_s
        self._commit = client.register_script(_COMMIT)
        self._local = threading.local()

    @property
    def _redis(self) -> redis.Redis:
        """This thread's own client, holding one connection of the shared pool.

        Server threads live as long as their worker, so each keeps a connection
        instead of checking one out of the pool (a lock and a poll) per command.
        """
        client: redis.Redis | None = getattr(self._local, "client", None)
        if client is None:
            client = redis.Redis(connection_pool=self._shared.connection_pool, single_connection_client=True)
            self._local.client = client
        return client

    @classmethod
    def from_url(cls, url: str, ttl_s: int) -> RedisMatchStore:
        """A store on the Redis at ``url`` (connections are opened lazily)."""
        client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=2, health_check_interval=30)
        blocking = redis.Redis.from_url(url, socket_timeout=40, socket_connect_timeout=2, health_check_interval=30)
        return cls(client, blocking, ttl_s)

    def ping(self) -> bool:
        """Whether Redis answers."""
        try:
            return bool(self._redis.ping())
        except redis.RedisError:
            return False

    def load(self, match_id: str, answer: AnswerKey | None = None) -> Loaded:
        """Read a match (and, when given, the answer kept under ``answer``) in one round trip."""
        try:
            if answer is None:
                doc = self._redis.hget(state_key(match_id), "doc")
                cached_raw = None
            else:
                pipe = self._redis.pipeline(transaction=False)
                pipe.hget(state_key(match_id), "doc")
                pipe.get(answer_key(match_id, answer))
                doc, cached_raw = pipe.execute()
        except redis.RedisError as error:
            raise StoreUnavailableError(str(error)) from error
        record = None if doc is None else MatchRecord.from_json(cast(bytes, doc))
        cached = None if cached_raw is None else wire.loads(cached_raw)
        return Loaded(record, cached)

    def commit(
        self,
        record: MatchRecord,
        expected_version: int | None,
        events: list[dict[str, Any]],
        answer: tuple[AnswerKey, dict[str, Any]] | None = None,
    ) -> bool:
        """Write ``record`` if the stored version is still ``expected_version``.

        ``None`` means the match must not exist yet. ``events`` are the new
        events, already numbered so that the last one is ``record.last_seq``;
        they are appended in the same atomic step. ``answer`` is an idempotency
        key and the response to cache under it. Returns False when the race
        was lost (nothing was written).
        """
        numbered = events
        first = record.last_seq - len(events) + 1
        keys = [state_key(record.match_id), events_key(record.match_id)]
        answer_args: list[Any] = ["", 0]
        if answer is not None:
            keys.append(answer_key(record.match_id, answer[0]))
            answer_args = [wire.dumps(answer[1]), IDEMPOTENCY_TTL_S]
        args: list[Any] = [
            "" if expected_version is None else str(expected_version),
            str(record.version),
            record.to_json(),
            self.ttl_s,
            first,
            len(numbered),
            *answer_args,
            *(wire.dumps(e) for e in numbered),
        ]
        try:
            won = self._commit(keys=keys, args=args, client=self._redis)
        except redis.RedisError as error:
            raise StoreUnavailableError(str(error)) from error
        return bool(won)

    def events(self, match_id: str, after: int, wait_s: float = 0) -> list[dict[str, Any]] | None:
        """Public events with ``seq`` > ``after``, oldest first (at most 500).

        With ``wait_s`` > 0 and nothing new, block until an event arrives or the
        wait ends. Returns None when the match does not exist.
        """
        stream = events_key(match_id)
        try:
            pipe = self._redis.pipeline(transaction=False)
            pipe.exists(state_key(match_id))
            pipe.xread({stream: f"0-{after}"}, count=MAX_EVENTS_PER_READ)
            exists, found = pipe.execute()
            if not exists:
                return None
            if not found and wait_s > 0:
                block_ms = max(1, math.ceil(wait_s * 1000))  # BLOCK 0 would mean for ever
                found = self._blocking.xread({stream: f"0-{after}"}, count=MAX_EVENTS_PER_READ, block=block_ms)
        except redis.RedisError as error:
            raise StoreUnavailableError(str(error)) from error
        if not found:
            return []
        entries = found[0][1]
        return [wire.loads(fields[b"e"]) for _id, fields in entries]
