"""Where a match lives in Redis, how long, and the Lua scripts that write it.

Keys of one match share the hash tag ``{<match_id>}`` so a Redis Cluster keeps
them on one slot:

- ``tl:{id}:state``  hash: ``v`` (version) and ``doc`` (the record's JSON)
- ``tl:{id}:events`` stream of public events, entry ids ``0-<seq>``
- ``tl:{id}:idem:<sha256>`` the answer kept for an ``Idempotency-Key``
- ``tl:{id}:wake`` the (sharded) pub/sub channel each commit publishes its events on

Every write is one Lua script: compare the version, replace the record, append
the events, refresh the TTLs, keep the answer and publish the events, all or
nothing. A match is kept for its status's lifetime after its last write
(:class:`Lifetimes`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .base import AnswerKey
from .connect import WriteScript

IDEMPOTENCY_TTL_S = 24 * 3600
MAX_EVENTS_PER_READ = 500


@dataclass(frozen=True, slots=True)
class Lifetimes:
    """Seconds a match is kept after its last write: while waiting for seats, in play, finished."""

    playing_s: int
    waiting_s: int
    finished_s: int

    def of(self, status: str) -> int:
        """The lifetime of a match in ``status``."""
        return {"waiting": self.waiting_s, "finished": self.finished_s}.get(status, self.playing_s)


# KEYS: state, events, wake channel[, kept answer]. ARGV: expected version, new version, record,
# ttl, first seq, event count, answer, answer ttl, publish command, then the events.
COMMIT = WriteScript("""
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
-- a new match never has events yet: a stream without a state is a deleted match's last events, kept a while
if current == '' and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
local ttl = tonumber(ARGV[4])
local first = tonumber(ARGV[5])
local count = tonumber(ARGV[6])
local events = {}
for i = 1, count do
  events[i] = ARGV[9 + i]
  redis.call('XADD', KEYS[2], '0-' .. (first + i - 1), 'e', events[i])
end
redis.call('EXPIRE', KEYS[1], ttl)
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ttl) end
if KEYS[4] then redis.call('SET', KEYS[4], ARGV[7], 'EX', ARGV[8]) end
if count > 0 then redis.call(ARGV[9], KEYS[3], '[' .. table.concat(events, ',') .. ']') end
return 1
""")


# KEYS: state, events, wake channel. ARGV: expected version, how long the events stay, publish command,
# then the last events. The record goes at once; its events stay a little for those following it.
DELETE = WriteScript("""
local current = redis.call('HGET', KEYS[1], 'v')
if current == false or current ~= ARGV[1] then return 0 end
local first = tonumber(ARGV[4])
local events = {}
for i = 5, #ARGV do
  events[i - 4] = ARGV[i]
  redis.call('XADD', KEYS[2], '0-' .. (first + i - 5), 'e', ARGV[i])
end
redis.call('DEL', KEYS[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]))
if #events > 0 then redis.call(ARGV[3], KEYS[3], '[' .. table.concat(events, ',') .. ']') end
return 1
""")
GONE_EVENTS_TTL_S = 60


def state_key(match_id: str) -> str:
    """Key of the match's hash."""
    return f"tl:{{{match_id}}}:state"


def events_key(match_id: str) -> str:
    """Key of the match's event stream."""
    return f"tl:{{{match_id}}}:events"


def wake_channel(match_id: str) -> str:
    """The pub/sub channel a commit publishes the match's new events on."""
    return f"tl:{{{match_id}}}:wake"


def answer_key(match_id: str, answer: AnswerKey) -> str:
    """Key of the answer kept for an ``Idempotency-Key`` within its scope (a seat's token digest)."""
    digest = hashlib.sha256(f"{answer.scope}:{answer.key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"tl:{{{match_id}}}:idem:{digest}"
