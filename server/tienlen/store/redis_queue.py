"""The quick-play queue in Redis: tickets, the pools they wait in, and pairings made exactly once.

The :class:`~.queue.QueueStore` on the matches' Redis.

Every key shares the hash tag ``{queue}`` (one Cluster slot), so each step below is one script, all or nothing:

- ``tl:{queue}:t:<ticket>`` hash: ``account``, ``players``, ``preset``, ``rated``, ``rating``, ``queued_at``,
  ``status`` (``waiting``, ``claimed``, ``matched`` or ``left``), then ``match_id``, ``seat``, ``matched_at``
- ``tl:{queue}:holder:<account>`` the account's open ticket (one at a time: ``SET NX``)
- ``tl:{queue}:pool:<pool>`` sorted set: the waiting tickets of a pool (table size, preset, rated) by rating;
  ``tl:{queue}:since:<pool>`` hash: ticket → when it was queued; ``tl:{queue}:pools`` the pools with tickets
- ``tl:{queue}:pending`` sorted set: match id → when its tickets were claimed, until the match is stored;
  ``tl:{queue}:pairing:<match id>`` the claimed tickets by seat (to confirm, or to put back if the match never came)

A pairing *claims* its tickets (each still waiting, or nothing happens), the
service stores the match, then *confirms* them (``matched``). A worker that
dies in between leaves the pairing pending: :meth:`RedisQueue.stale` finds it
and the service confirms it (the match exists) or puts its tickets back.
So no ticket is lost, and none is matched twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError
from .queue import TicketRecord, Waiting

DONE_TTL_S = 600  # a matched or left ticket is kept this long, to be read
WAITING_TTL_S = 24 * 3600  # a waiting ticket nobody looked at for a day is dropped with its pool entry


def _key(*parts: str) -> str:
    return "tl:{queue}:" + ":".join(parts)


# KEYS: holder, ticket, pool, since, pools. ARGV: ticket id, pool name, rating, queued_at, ttl, then the ticket's
# field/value pairs. The account's open ticket when it has one (nothing changes), else '' once queued.
_ENQUEUE = """
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[5])
redis.call('HSET', KEYS[2], unpack(ARGV, 6))
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('ZADD', KEYS[3], tonumber(ARGV[3]), ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[4])
redis.call('SADD', KEYS[5], ARGV[2])
return ''
"""

# KEYS: ticket, pool, since, holder. ARGV: ticket id, ttl. The ticket's status before ('' when unknown); a waiting
# ticket leaves its pool, and its account may queue again.
_LEAVE = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return '' end
if status ~= 'waiting' then return status end
redis.call('HSET', KEYS[1], 'status', 'left')
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end
return 'waiting'
"""

# KEYS: pool, since, pending, pairing, then each ticket's key. ARGV: match id, now, then each ticket's id.
# Claim every ticket (each must still be waiting in the pool) for the match, or none: 1 or 0.
_CLAIM = """
local count = #KEYS - 4
for i = 1, count do
  if redis.call('HGET', KEYS[4 + i], 'status') ~= 'waiting' then return 0 end
  if not redis.call('ZSCORE', KEYS[1], ARGV[2 + i]) then return 0 end
end
for i = 1, count do
  redis.call('ZREM', KEYS[1], ARGV[2 + i])
  redis.call('HDEL', KEYS[2], ARGV[2 + i])
  redis.call('HSET', KEYS[4 + i], 'status', 'claimed', 'match_id', ARGV[1], 'seat', i - 1)
  redis.call('HSET', KEYS[4], ARGV[2 + i], i - 1)
end
redis.call('ZADD', KEYS[3], tonumber(ARGV[2]), ARGV[1])
return 1
"""

# KEYS: pending, pairing, then each ticket's key, then each ticket's holder key. ARGV: match id, now, ttl, then
# each ticket's id. The claimed tickets are matched; each account may queue again.
_CONFIRM = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local count = (#KEYS - 2) / 2
for i = 1, count do
  local ticket = KEYS[2 + i]
  if redis.call('HGET', ticket, 'status') == 'claimed' then
    redis.call('HSET', ticket, 'status', 'matched', 'matched_at', ARGV[2])
    redis.call('EXPIRE', ticket, ARGV[3])
  end
  local holder = KEYS[2 + count + i]
  if redis.call('GET', holder) == ARGV[3 + i] then redis.call('DEL', holder) end
end
redis.call('DEL', KEYS[2])
return 1
"""

# KEYS: pending, pairing, pool, since, pools, then each ticket's key. ARGV: match id, pool name.
# The match never came: its claimed tickets wait again where they were (their rating and time kept).
_PUT_BACK = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
for i = 6, #KEYS do
  if redis.call('HGET', KEYS[i], 'status') == 'claimed' then
    local ticket = string.match(KEYS[i], ':t:(.+)$')
    local fields = redis.call('HMGET', KEYS[i], 'rating', 'queued_at')
    redis.call('HSET', KEYS[i], 'status', 'waiting')
    redis.call('HDEL', KEYS[i], 'match_id', 'seat')
    redis.call('ZADD', KEYS[3], tonumber(fields[1]), ticket)
    redis.call('HSET', KEYS[4], ticket, fields[2])
    redis.call('SADD', KEYS[5], ARGV[2])
  end
end
redis.call('DEL', KEYS[2])
return 1
"""


class RedisQueue:
    """The quick-play queue on the matches' Redis (one slot: ``{queue}``)."""

    def __init__(self, client: Client) -> None:
        self._redis = client
        scripts: Any = client
        self._enqueue = scripts.register_script(_ENQUEUE)
        self._leave = scripts.register_script(_LEAVE)
        self._claim = scripts.register_script(_CLAIM)
        self._confirm = scripts.register_script(_CONFIRM)
        self._put_back = scripts.register_script(_PUT_BACK)

    def _call(self, work: Callable[[], Any]) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def enqueue(self, ticket: TicketRecord) -> str | None:
        """Queue ``ticket``; None when queued, else the id of the account's open ticket (nothing changed)."""
        fields: dict[str, Any] = {
            "account": ticket.account_id,
            "players": ticket.players,
            "preset": ticket.preset,
            "rated": int(ticket.rated),
            "rating": ticket.rating,
            "queued_at": repr(ticket.queued_at),
            "status": "waiting",
        }
        if ticket.entropy:
            fields["entropy"] = ticket.entropy
        pool = ticket.pool
        keys = [
            _key("holder", ticket.account_id),
            _key("t", ticket.ticket),
            _key("pool", pool),
            _key("since", pool),
            _key("pools"),
        ]
        args = [ticket.ticket, pool, ticket.rating, repr(ticket.queued_at), WAITING_TTL_S]
        args += [part for pair in fields.items() for part in pair]
        held = self._call(lambda: self._enqueue(keys=keys, args=args))
        return held.decode() if held else None

    def get(self, ticket: str) -> TicketRecord | None:
        """A ticket, or None (unknown, or long done)."""
        found = self._call(lambda: self._redis.hgetall(_key("t", ticket)))
        if not found:
            return None
        text = {key.decode(): value.decode() for key, value in found.items()}
        return TicketRecord(
            ticket,
            text["account"],
            int(text["players"]),
            text["preset"],
            text["rated"] == "1",
            int(text["rating"]),
            float(text["queued_at"]),
            text["status"],
            text.get("match_id"),
            int(text["seat"]) if "seat" in text else None,
            float(text["matched_at"]) if "matched_at" in text else None,
            text.get("entropy", ""),
        )

    def held(self, account_id: str) -> str | None:
        """The account's open ticket (waiting or being matched), or None."""
        found = self._call(lambda: self._redis.get(_key("holder", account_id)))
        return None if found is None else str(found.decode())

    def leave(self, ticket: TicketRecord) -> str:
        """Take a waiting ticket out of its pool; the status it had ('waiting' when it left now)."""
        keys = [
            _key("t", ticket.ticket),
            _key("pool", ticket.pool),
            _key("since", ticket.pool),
            _key("holder", ticket.account_id),
        ]
        found = self._call(lambda: self._leave(keys=keys, args=[ticket.ticket, DONE_TTL_S]))
        return str(found.decode())

    def pools(self) -> list[str]:
        """The pools that may hold waiting tickets."""
        return sorted(member.decode() for member in self._call(lambda: self._redis.smembers(_key("pools"))))

    def waiting(self, pool: str) -> list[Waiting]:
        """The tickets waiting in ``pool``, oldest first; a pool found empty is forgotten."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.zrange(_key("pool", pool), 0, -1, withscores=True)
        pipe.hgetall(_key("since", pool))
        ranked, since = self._call(pipe.execute)
        if not ranked:
            self._call(lambda: self._redis.srem(_key("pools"), pool))
            return []
        queued = {key.decode(): float(value) for key, value in since.items()}
        found = [Waiting(m.decode(), int(score), queued.get(m.decode(), 0.0)) for m, score in ranked]
        return sorted(found, key=lambda w: (w.queued_at, w.ticket))

    def claim(self, pool: str, match_id: str, tickets: list[str], now: float) -> bool:
        """Claim ``tickets`` (seats 0, 1, ... in this order) for ``match_id``, all or none; False when one is gone."""
        keys = [_key("pool", pool), _key("since", pool), _key("pending"), _key("pairing", match_id)]
        keys += [_key("t", ticket) for ticket in tickets]
        return bool(self._call(lambda: self._claim(keys=keys, args=[match_id, repr(now), *tickets])))

    def confirm(self, match_id: str, tickets: list[TicketRecord], now: float) -> bool:
        """The match of a claim is stored: its tickets are matched; False when it was confirmed or put back."""
        keys = [_key("pending"), _key("pairing", match_id)]
        keys += [_key("t", t.ticket) for t in tickets] + [_key("holder", t.account_id) for t in tickets]
        args = [match_id, repr(now), DONE_TTL_S, *(t.ticket for t in tickets)]
        return bool(self._call(lambda: self._confirm(keys=keys, args=args)))

    def put_back(self, match_id: str, pool: str, tickets: list[str]) -> bool:
        """The match of a claim never came: its tickets wait again; False when it was confirmed or put back."""
        keys = [_key("pending"), _key("pairing", match_id), _key("pool", pool), _key("since", pool), _key("pools")]
        keys += [_key("t", ticket) for ticket in tickets]
        return bool(self._call(lambda: self._put_back(keys=keys, args=[match_id, pool])))

    def pairing(self, match_id: str) -> list[str]:
        """The tickets a pending claim holds, by seat."""
        found = self._call(lambda: self._redis.hgetall(_key("pairing", match_id)))
        return [ticket.decode() for ticket, _seat in sorted(found.items(), key=lambda item: int(item[1]))]

    def stale(self, before: float, limit: int = 32) -> list[str]:
        """The matches whose tickets were claimed before ``before`` and are neither confirmed nor put back."""
        found = self._call(lambda: self._redis.zrangebyscore(_key("pending"), "-inf", before, start=0, num=limit))
        return [match_id.decode() for match_id in found]

    def lock(self, name: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms`` (one pairer of a pool at a time, across servers); False if held."""
        return bool(self._call(lambda: self._redis.set(_key("lock", name), 1, nx=True, px=ttl_ms)))

    def unlock(self, name: str) -> None:
        """Let the lock ``name`` go."""
        self._call(lambda: self._redis.delete(_key("lock", name)))
