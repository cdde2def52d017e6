"""Challenges in Redis: each challenge's record, written by compare-and-set, and the challenges due to expire.

The :class:`~.challenges.ChallengeStore` on the matches' Redis.

Keys (Cluster-safe: each challenge has a hash tag of its own, the due set one, an account's index its account's):

- ``tl:{chal:<id>}`` hash: ``v`` (version) and ``doc`` (the record's JSON). Kept while pending and for
  :data:`CLOSED_KEPT_S` after it closed (so a late accept is told it expired or was withdrawn, not that there
  never was such a challenge)
- ``tl:{challenges}:due`` sorted set: challenge id → when it expires (ms). Registered before the challenge is
  stored and dropped once it is closed, so a sweeper finds every pending challenge that ran out
- ``tl:{acct:<id>}:challenges`` sorted set: challenge id → when it was made (ms), the challenges an account
  sent or received (their records go when the account is deleted)
- ``tl:{acct:<id>}:pending:sent`` and ``...:pending:received`` sorted sets: challenge id → when it expires
  (ms), the account's pending challenges, capped (:data:`CLAIM`): a challenge takes its place in its sender's
  and every challenged account's before it is stored, and gives them back when it closes (or at its expiry
  time, when the closing was lost)

Every change of a record is one script that compares the version first (:data:`SAVE`): of two accepts, an
accept and a withdrawal, or an accept and the sweeper's expiry racing, one wins and the other reads again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar, cast

from .challenges import ChallengeRecord
from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError

DUE_KEY = "tl:{challenges}:due"
T = TypeVar("T")

# KEYS: the record. ARGV: expected version ('' for a new challenge), new version, record JSON, lifetime (s).
SAVE = WriteScript("""
local current = redis.call('HGET', KEYS[1], 'v')
if current == false then current = '' end
if current ~= ARGV[1] then return 0 end
if current == '' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'doc', ARGV[3])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[4]))
return 1
""")


# KEYS: an account's pending set. ARGV: challenge id, when it expires (ms), now (ms), the cap.
# 1: the place is taken (or was already); 0: the account has ``cap`` pending challenges already.
CLAIM = WriteScript("""
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[3])
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
return 1
""")


def challenge_key(challenge_id: str) -> str:
    """The key of a challenge's record."""
    return f"tl:{{chal:{challenge_id}}}"


def account_challenges_key(account_id: str) -> str:
    """The key of the challenges an account sent or received."""
    return f"tl:{{acct:{account_id}}}:challenges"


def pending_key(account_id: str, side: str) -> str:
    """The key of an account's pending challenges on one ``side``: ``sent`` or ``received``."""
    return f"tl:{{acct:{account_id}}}:pending:{side}"


def _delete(client: Any, *, key: str) -> Any:
    return client.delete(key)


def _forget_member(client: Any, *, key: str, member: str) -> Any:
    return client.zrem(key, member)


class RedisChallenges:
    """The :class:`ChallengeStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client) -> None:
        self._redis = client

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def load(self, challenge_id: str) -> ChallengeRecord | None:
        """The challenge's record, or None."""
        doc = self._call(lambda r: r.hget(challenge_key(challenge_id), "doc"))
        return None if doc is None else ChallengeRecord.from_json(cast(bytes, doc))

    def save(self, record: ChallengeRecord, expected_version: int | None, ttl_s: int) -> bool:
        """Write ``record`` (its version already raised) if the stored one is still at ``expected_version``."""
        args: list[Any] = [
            "" if expected_version is None else str(expected_version),
            str(record.version),
            record.to_json(),
            max(int(ttl_s), 1),
        ]
        return bool(run_script(self._redis, SAVE, [challenge_key(record.challenge_id)], args))

    def note(self, account_ids: list[str], challenge_id: str, at: float, kept_s: int) -> None:
        """List the challenge under each account; the index lives as long as its newest entry."""
        for account_id in account_ids:  # each account's index has its own slot
            key = account_challenges_key(account_id)

            def add(r: Any, key: str = key) -> None:
                pipe = r.pipeline(transaction=False)
                pipe.zadd(key, {challenge_id: int(at * 1000)})
                pipe.zremrangebyscore(key, "-inf", int((at - kept_s) * 1000))
                pipe.expire(key, kept_s)
                pipe.execute()

            self._call(add)

    def mark_due(self, challenge_id: str, at: float) -> None:
        """The challenge expires at ``at``."""
        self._call(lambda r: r.zadd(DUE_KEY, {challenge_id: int(at * 1000)}))

    def due(self, now: float, limit: int) -> list[str]:
        """Up to ``limit`` ids due at ``now``, earliest first."""
        found = self._call(lambda r: r.zrangebyscore(DUE_KEY, "-inf", int(now * 1000), start=0, num=limit))
        return [member.decode() for member in cast(list[bytes], found)]

    def done_due(self, challenge_id: str) -> None:
        """Forget the challenge's due entry."""
        self._call(lambda r: r.zrem(DUE_KEY, challenge_id))

    def is_due(self, challenge_id: str) -> bool:
        """Whether the challenge has a due entry."""
        return self._call(lambda r: r.zscore(DUE_KEY, challenge_id)) is not None

    def of(self, account_id: str) -> list[str]:
        """The ids of the challenges the account sent or received (still kept)."""
        found = cast(list[bytes], self._call(lambda r: r.zrange(account_challenges_key(account_id), 0, -1)))
        return [member.decode() for member in found]

    def forget(self, account_id: str) -> None:
        """Delete every challenge the account sent or received (one key at a time: fine on a cluster), and the index."""
        key = account_challenges_key(account_id)
        found = cast(list[bytes], self._call(lambda r: r.zrange(key, 0, -1)))
        for member in found:
            self._call(partial(_delete, key=challenge_key(member.decode())))
            self.done_due(member.decode())
        self._call(lambda r: r.delete(key))
        for side in ("sent", "received"):
            self._call(partial(_delete, key=pending_key(account_id, side)))

    def _places(self, record: ChallengeRecord) -> list[tuple[str, str]]:
        """(account id, its pending key) of a challenge: its sender's (sent), then each challenged account's."""
        sender = record.sender_id
        challenged = [account_id for account_id in record.accounts() if account_id != sender]
        return [(sender, pending_key(sender, "sent"))] + [(a, pending_key(a, "received")) for a in challenged]

    def claim_pending(self, record: ChallengeRecord, now: float, max_sent: int, max_received: int) -> str | None:
        """Take the challenge's places, each account's by its own script (one slot each); see the protocol."""
        expires = int(record.expires_at * 1000) + 1
        taken: list[str] = []
        for account_id, key in self._places(record):
            cap = max_sent if key.endswith(":sent") else max_received
            args: list[Any] = [record.challenge_id, expires, int(now * 1000), cap]
            if not run_script(self._redis, CLAIM, [key], args):
                for held in taken:
                    self._call(partial(_forget_member, key=held, member=record.challenge_id))
                return account_id
            taken.append(key)
        return None

    def release_pending(self, record: ChallengeRecord) -> None:
        """Give the challenge's places back."""
        for _account_id, key in self._places(record):
            self._call(partial(_forget_member, key=key, member=record.challenge_id))
