"""Chat beside the matches in Redis: the :class:`~.chat.ChatStore`.

Keys (an account's under its own hash tag, the moderators' under one, a kept match's chat beside its record):

- ``tl:{acct:<id>}:muted``, ``…:blocked`` sorted sets: account id → when it was put on the list (ms)
- ``tl:{acct:<id>}:blocked_by`` sorted set: the accounts that block this one
- ``tl:{acct:<id>}:chat_muted`` a moderator's mute: when it ends (epoch s), expiring then
- ``tl:{moderation}:reports`` hash: report id (``<match>:<seq>:<reporter id>``) → the report (a dismissed one
  too: its reporter cannot report the message again); and ``tl:{moderation}:reports:open`` sorted set: the open
  reports' ids → when each was made (ms)
- ``tl:{moderation}:audit`` list: the moderators' acts, newest first, the newest :data:`AUDIT_KEPT` only
- ``tl:{kept:<match id>}:chat`` hash: seq → a kept match's ``chat_said`` event, living as long as its record
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar, cast

from .. import wire
from .chat import BLOCKED
from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError
from .redis_history import kept_key

T = TypeVar("T")
REPORTS = "tl:{moderation}:reports"
OPEN_REPORTS = "tl:{moderation}:reports:open"
AUDIT = "tl:{moderation}:audit"
AUDIT_KEPT = 10_000
"""How many of the moderators' acts the audit list keeps: the newest (an older one is trimmed as a new one comes)."""

# KEYS: the kept record, its chat. ARGV: (seq, event) pairs. Kept only beside a kept record, as long as it lives.
KEEP_CHAT = WriteScript("""
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
""")


def _drop(client: Any, *, key: str, member: str) -> Any:
    return client.zrem(key, member)


def list_key(account_id: str, kind: str) -> str:
    """The key of an account's list of ``kind`` (muted, blocked, blocked_by)."""
    return f"tl:{{acct:{account_id}}}:{kind}"


def chat_mute_key(account_id: str) -> str:
    """The key of a moderator's mute of an account."""
    return f"tl:{{acct:{account_id}}}:chat_muted"


def kept_chat_key(match_id: str) -> str:
    """The key of a kept match's chat (beside its record, in its slot)."""
    return kept_key(match_id) + ":chat"


class RedisChat:
    """The :class:`~.chat.ChatStore` on the matches' Redis (one server or a cluster)."""

    def __init__(self, client: Client, *, audit_kept: int = AUDIT_KEPT) -> None:
        self._redis = client
        self.audit_kept = audit_kept

    def _call(self, command: Callable[[Any], T]) -> T:
        try:
            return command(self._redis)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    # ----- mute and block lists -----------------------------------------------------------------

    def listed(self, account_id: str, kind: str) -> list[str]:
        """The accounts on the list, first put there first."""
        found = self._call(lambda r: r.zrange(list_key(account_id, kind), 0, -1))
        return [member.decode() for member in cast(list[bytes], found)]

    def put(self, account_id: str, kind: str, other_id: str, at: float) -> None:
        """Put ``other_id`` on the list (kept when there already); a block is noted on the other account too."""
        ms = int(at * 1000)
        self._call(lambda r: r.zadd(list_key(account_id, kind), {other_id: ms}, nx=True))
        if kind == BLOCKED:
            self._call(lambda r: r.zadd(list_key(other_id, "blocked_by"), {account_id: ms}, nx=True))

    def take(self, account_id: str, kind: str, other_id: str) -> None:
        """Take ``other_id`` off the list."""
        self._call(lambda r: r.zrem(list_key(account_id, kind), other_id))
        if kind == BLOCKED:
            self._call(lambda r: r.zrem(list_key(other_id, "blocked_by"), account_id))

    def hidden(self, account_id: str) -> set[str]:
        """Muted, blocked and blocking accounts, in one round trip (the three keys share a slot)."""

        def read(r: Any) -> list[list[bytes]]:
            pipe = r.pipeline(transaction=False)
            for kind in ("muted", "blocked", "blocked_by"):
                pipe.zrange(list_key(account_id, kind), 0, -1)
            return cast(list[list[bytes]], pipe.execute())

        return {member.decode() for found in self._call(read) for member in found}

    def blocks(self, account_id: str, other_id: str) -> bool:
        """Whether either blocks the other."""
        score = self._call(lambda r: r.zscore(list_key(account_id, BLOCKED), other_id))
        if score is not None:
            return True
        return self._call(lambda r: r.zscore(list_key(account_id, "blocked_by"), other_id)) is not None

    def forget(self, account_id: str) -> None:
        """Drop the account's lists and take it off the block lists of those it blocked."""
        for other in self.listed(account_id, BLOCKED):
            self._call(partial(_drop, key=list_key(other, "blocked_by"), member=account_id))
        for other in self.listed(account_id, "blocked_by"):
            self._call(partial(_drop, key=list_key(other, BLOCKED), member=account_id))
        keys = [list_key(account_id, kind) for kind in ("muted", "blocked", "blocked_by")]
        self._call(lambda r: r.delete(*keys, chat_mute_key(account_id)))

    # ----- reports ------------------------------------------------------------------------------

    def report(self, report_id: str, report: dict[str, Any], at: float) -> bool:
        """Keep the report once (HSETNX), then list it as open."""
        if not self._call(lambda r: r.hsetnx(REPORTS, report_id, wire.dumps(report))):
            return False
        self._call(lambda r: r.zadd(OPEN_REPORTS, {report_id: int(at * 1000)}))
        return True

    def reports(self, offset: int, count: int) -> list[dict[str, Any]]:
        """Open reports, oldest first, each with its id."""
        ids = cast(list[bytes], self._call(lambda r: r.zrange(OPEN_REPORTS, offset, offset + count - 1)))
        if not ids:
            return []
        blobs = cast(list[bytes | None], self._call(lambda r: r.hmget(REPORTS, ids)))
        return [wire.loads(blob) | {"id": key.decode()} for key, blob in zip(ids, blobs, strict=True) if blob]

    def dismiss_report(self, report_id: str) -> dict[str, Any] | None:
        """Unlist the report (ZREM decides between two moderators dismissing it at once); its record stays."""
        if not self._call(lambda r: r.zrem(OPEN_REPORTS, report_id)):
            return None
        blob = cast(bytes | None, self._call(lambda r: r.hget(REPORTS, report_id)))
        return {} if blob is None else cast(dict[str, Any], wire.loads(blob))

    def close_reports(self, prefix: str) -> int:
        """Forget the reports whose id starts with ``prefix`` (a message's: ``<match>:<seq>:``)."""
        found = [key for key, _ in self._call(lambda r: list(r.hscan_iter(REPORTS, match=prefix + "*")))]
        if not found:
            return 0
        self._call(lambda r: r.hdel(REPORTS, *found))
        self._call(lambda r: r.zrem(OPEN_REPORTS, *found))
        return len(found)

    # ----- moderators ---------------------------------------------------------------------------

    def mute_chat(self, account_id: str, until: float) -> None:
        """Mute the account's chat until ``until``; the key expires then."""
        self._call(lambda r: r.set(chat_mute_key(account_id), repr(until), pxat=int(until * 1000)))

    def lift_chat_mute(self, account_id: str) -> bool:
        """Lift the mute."""
        return bool(self._call(lambda r: r.delete(chat_mute_key(account_id))))

    def chat_muted_until(self, account_id: str) -> float | None:
        """When the mute ends, or None."""
        found = self._call(lambda r: r.get(chat_mute_key(account_id)))
        return None if found is None else float(cast(bytes, found))

    def audit(self, entry: dict[str, Any]) -> None:
        """Add the act at the list's head and trim the list to its newest :attr:`audit_kept` acts, in one
        transaction (one key: one slot)."""

        def add(r: Any) -> None:
            pipe = r.pipeline(transaction=True)
            pipe.lpush(AUDIT, wire.dumps(entry))
            pipe.ltrim(AUDIT, 0, self.audit_kept - 1)
            pipe.execute()

        self._call(add)

    def audit_page(self, offset: int, count: int) -> list[dict[str, Any]]:
        """Acts, newest first."""
        found = cast(list[bytes], self._call(lambda r: r.lrange(AUDIT, offset, offset + count - 1)))
        return [wire.loads(blob) for blob in found]

    # ----- the chat of a kept match -------------------------------------------------------------

    def keep_chat(self, match_id: str, messages: list[dict[str, Any]]) -> bool:
        """Keep the messages beside the kept record (one script: only while the record is kept)."""
        if not messages:
            return True
        pairs: list[Any] = []
        for message in messages:
            pairs += [str(message["seq"]), wire.dumps(message)]
        keys = [kept_key(match_id), kept_chat_key(match_id)]
        return bool(run_script(self._redis, KEEP_CHAT, keys, pairs))

    def kept_chat(self, match_id: str) -> list[dict[str, Any]]:
        """The kept chat, by seq."""
        found = cast(dict[bytes, bytes], self._call(lambda r: r.hgetall(kept_chat_key(match_id))))
        return sorted((wire.loads(blob) for blob in found.values()), key=lambda message: int(message["seq"]))
