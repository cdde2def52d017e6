"""Each account's inbox in Redis: the numbered events the account hears of, and who is online.

The :class:`~.inbox.InboxStore` on the matches' Redis.

Keys (an account's own share its hash tag ``{acct:<id>}``; the online sets each have a slot of their own):

- ``tl:{acct:<id>}:inbox`` stream of the account's events, entry ids ``0-<seq>`` (the last
  :data:`INBOX_KEPT` events, for :data:`INBOX_TTL_S` after the last one)
- ``tl:{acct:<id>}:inbox-seq`` the last ``seq`` given (kept for good, so a cursor never points back in time)
- ``tl:{acct:<id>}:inbox-wake`` the (sharded) pub/sub channel each push publishes its events on
- ``tl:{online:<kind>}`` sorted set: account id → when it last listened to its inbox (epoch seconds)

A push numbers, appends and publishes its events in one script, so a long poll
or a follow of the inbox (``@<id>`` to :class:`~.feeds.FeedReader`) misses none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any, cast

from .. import wire
from .connect import STORE_ERRORS, Client, WriteScript, run_script
from .errors import StoreUnavailableError
from .events import Event
from .feeds import FeedReader
from .layout import MAX_EVENTS_PER_READ, wake_channel

INBOX_KEPT = 1000
INBOX_TTL_S = 7 * 24 * 3600
ONLINE_KEPT_S = 24 * 3600  # presence older than this is dropped from the online sets
INBOX_FEED = "@"  # a feed id that starts with this is an account's inbox, else a match


def inbox_key(account_id: str) -> str:
    """Key of the account's inbox stream."""
    return f"tl:{{acct:{account_id}}}:inbox"


def inbox_seq_key(account_id: str) -> str:
    """Key of the last number given to an event of the account's inbox."""
    return f"tl:{{acct:{account_id}}}:inbox-seq"


def inbox_channel(account_id: str) -> str:
    """The pub/sub channel a push publishes the account's new events on."""
    return f"tl:{{acct:{account_id}}}:inbox-wake"


def online_key(kind: str) -> str:
    """Key of the sorted set of the accounts of ``kind`` by when they last listened."""
    return f"tl:{{online:{kind}}}"


def feed_channel(feed: str) -> str:
    """The wake channel of a feed: an inbox (``@<account id>``) or a match's events (its id)."""
    if feed.startswith(INBOX_FEED):
        return inbox_channel(feed[len(INBOX_FEED) :])
    return wake_channel(feed)


# KEYS: stream, seq counter, wake channel. ARGV: events kept, ttl, publish command, then each event's JSON object
# without its seq. Each event gets the next seq (spliced in as its first field); all are appended and published.
PUSH = WriteScript("""
local out = {}
local seq = 0
for i = 4, #ARGV do
  seq = redis.call('INCR', KEYS[2])
  local body = ARGV[i]
  local event = '{"seq":' .. seq .. '}'
  if body ~= '{}' then event = '{"seq":' .. seq .. ',' .. string.sub(body, 2) end
  redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '0-' .. seq, 'e', event)
  out[#out + 1] = event
end
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
if #out > 0 then redis.call(ARGV[3], KEYS[3], '[' .. table.concat(out, ',') .. ']') end
return seq
""")


class RedisInbox:
    """The :class:`InboxStore` on the matches' Redis; its long polls share the matches' wake-up subscriber."""

    def __init__(
        self,
        client: Client,
        reader: Callable[[Callable[[str, int], list[Event] | None]], FeedReader],
        publish: Callable[[], str],
    ) -> None:
        self._redis = client
        self._publish = publish
        self._feeds = reader(self._read)

    def _call(self, work: Callable[[], Any]) -> Any:
        try:
            return work()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error

    def push(self, account_id: str, events: list[dict[str, Any]]) -> int:
        """Number, append and publish ``events`` (without ``seq``) in the account's inbox; the last seq given."""
        if not events:
            return self.last_seq(account_id)
        keys = [inbox_key(account_id), inbox_seq_key(account_id), inbox_channel(account_id)]
        publish = self._call(self._publish)
        args = [INBOX_KEPT, INBOX_TTL_S, publish, *(wire.dumps(e) for e in events)]
        return int(run_script(self._redis, PUSH, keys, args))

    def _read(self, feed: str, after: int) -> list[Event]:
        account_id = feed[len(INBOX_FEED) :]
        found = self._call(
            lambda: self._redis.xrange(inbox_key(account_id), min=f"0-{after + 1}", count=MAX_EVENTS_PER_READ)
        )
        return [wire.loads(fields[b"e"]) for _id, fields in cast(list[tuple[bytes, dict[bytes, bytes]]], found)]

    def events(self, account_id: str, after: int, wait_s: float = 0) -> list[Event]:
        """The account's events with ``seq`` > ``after`` (a page), waiting up to ``wait_s`` for one."""
        return self._feeds.events(INBOX_FEED + account_id, after, wait_s) or []

    def follow(self, account_id: str, after: int, idle_s: float) -> Iterator[list[Event]]:
        """Every event of the account's inbox after ``after`` as it comes; an empty batch after ``idle_s``."""
        return self._feeds.follow(INBOX_FEED + account_id, after, idle_s)

    def last_seq(self, account_id: str) -> int:
        """The seq of the account's newest event (0 before its first)."""
        found = self._call(lambda: self._redis.get(inbox_seq_key(account_id)))
        return 0 if found is None else int(found)

    def seen(self, account_id: str, kind: str, at: float) -> None:
        """The account (of ``kind``) listens to its inbox at ``at``."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.zadd(online_key(kind), {account_id: at})
        pipe.zremrangebyscore(online_key(kind), "-inf", at - ONLINE_KEPT_S)
        self._call(pipe.execute)

    def online(self, kind: str, since: float) -> list[tuple[str, float]]:
        """The accounts of ``kind`` that listened since ``since``, latest first, with when."""
        found = self._call(lambda: self._redis.zrevrangebyscore(online_key(kind), "+inf", since, withscores=True))
        return [(member.decode(), float(score)) for member, score in found]

    def last_seen(self, account_id: str, kind: str) -> float | None:
        """When the account last listened to its inbox, or None."""
        found = self._call(lambda: self._redis.zscore(online_key(kind), account_id))
        return None if found is None else float(found)

    def forget(self, account_id: str) -> None:
        """The account was deleted: its inbox goes, and it is online no more."""
        self._call(lambda: self._redis.delete(inbox_key(account_id), inbox_seq_key(account_id)))
        for key in (online_key("human"), online_key("bot")):  # each set has a slot of its own
            self._call(partial(self._redis.zrem, key, account_id))

    def drop_challenges(self, account_id: str, challenge_ids: set[str]) -> None:
        """Take the events about these challenges out of the account's inbox (their sender or another was deleted)."""
        key = inbox_key(account_id)
        found = self._call(lambda: self._redis.xrange(key))
        doomed = [
            entry_id
            for entry_id, fields in cast(list[tuple[bytes, dict[bytes, bytes]]], found)
            if wire.loads(fields[b"e"]).get("challenge_id") in challenge_ids
        ]
        if doomed:
            self._call(lambda: self._redis.xdel(key, *doomed))
