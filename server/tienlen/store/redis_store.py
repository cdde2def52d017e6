"""Matches in Redis: load, atomic writes, events and wake-ups (the keys and scripts are in :mod:`.layout`).

Waiting for events holds no connection (see :mod:`.waiting`). A write that
fails says whether it may have been applied (see :mod:`.connect`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager
from functools import partial
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.cluster import RedisCluster

from .. import wire
from .base import AnswerKey, Loaded, StoreObserver
from .connect import (
    STORE_ERRORS,
    Client,
    Pinger,
    RedisOptions,
    confirm_earlier_writes,
    connect,
    read_replies,
    run_script,
    thread_client,
)
from .errors import StoreUnavailableError
from .feeds import FeedReader
from .indexes import RedisIndexes
from .layout import (
    COMMIT,
    DELETE,
    GONE_EVENTS_TTL_S,
    IDEMPOTENCY_TTL_S,
    MAX_EVENTS_PER_READ,
    Lifetimes,
    answer_key,
    events_key,
    state_key,
    wake_channel,
)
from .reach import bare_url, no_retry, node_kwargs, sentinel_kwargs
from .records import MatchRecord
from .redis_accounts import RedisAccounts
from .redis_challenges import RedisChallenges
from .redis_chat import RedisChat
from .redis_follows import RedisFollows
from .redis_history import RedisHistory
from .redis_inbox import RedisInbox
from .redis_live_seats import RedisLiveSeats
from .redis_puzzles import RedisPuzzles
from .redis_queue import RedisQueue
from .redis_ratings import RedisRatings
from .redis_reviews import RedisReviews
from .redis_tournaments import RedisTournaments, any_feed_channel
from .redis_wait_slots import RedisWaitSlots
from .redis_watching import RedisWatching
from .rooms import RedisRooms
from .waiting import LocalWaiters


class RedisMatchStore(RedisIndexes, RedisRooms):
    """Loads and atomically writes match records and their events in Redis (a :class:`MatchStore`).

    With ``per_thread`` (threaded servers on one Redis) each thread keeps one
    connection of the pool; otherwise (gevent, where every request is a
    greenlet, or a cluster) commands take a connection from a pool only for as
    long as they run. On a Redis Cluster the match's keys share one slot, the
    wake-ups use the cluster's sharded pub/sub, and each index has a slot of its own.
    """

    def __init__(
        self,
        client: Client,
        lifetimes: Lifetimes,
        *,
        max_waiters: int,
        per_thread: bool = True,
        pinger: Pinger | None = None,
        limits_uri: str = "",
        limits_options: dict[str, Any] | None = None,
    ) -> None:
        self._shared = client
        self._limits_uri = limits_uri
        self._limits_options = dict(limits_options or {})
        self._cluster = isinstance(client, RedisCluster)
        self._per_thread = per_thread and not self._cluster
        self.lifetimes = lifetimes
        self._local = threading.local()
        self._publish: str | None = "SPUBLISH" if self._cluster else None
        self._waiting = LocalWaiters(client.pubsub, any_feed_channel, max_waiters, cluster=self._cluster)
        self._feeds = FeedReader(self._waiting, lambda match_id, after: self._read(match_id, after), self._ready)
        self._pinger = pinger
        self._observer: StoreObserver | None = None
        self._history = RedisHistory(client)
        self._reviews = RedisReviews(client)
        self._inbox = RedisInbox(client, partial(FeedReader, self._waiting, ready=self._ready), self._publish_command)
        self._ratings = RedisRatings(client)
        self._queue = RedisQueue(client)
        self._challenges = RedisChallenges(client)
        self._tournaments = RedisTournaments(
            client, partial(FeedReader, self._waiting, ready=self._ready), self._publish_command
        )
        self._chat = RedisChat(client)
        self._wait_slots = RedisWaitSlots(client)
        self._follows = RedisFollows(client)
        self._puzzles = RedisPuzzles(client)
        self._live_seats = RedisLiveSeats(client, lifetimes.playing_s)
        self._watching = RedisWatching(client)
        RedisIndexes.__init__(self, client)
        RedisRooms.__init__(self, client, lifetimes.waiting_s)

    def limits_uri(self) -> str:
        """Where the rate limits are counted: this Redis (``redis+cluster://`` and one node for a cluster)."""
        return self._limits_uri

    def limits_options(self) -> dict[str, Any]:
        """How the rate limits' storage connects to this Redis: credentials, TLS, timeouts (:mod:`.reach`)."""
        return dict(self._limits_options)

    def accounts(self) -> RedisAccounts:
        """The players' accounts, sessions and personal tokens, in this Redis (:mod:`.redis_accounts`)."""
        return RedisAccounts(self._shared)

    def history(self) -> RedisHistory:
        """The kept matches and the accounts' indexes of them, in this Redis (:mod:`.redis_history`)."""
        return self._history

    def reviews(self) -> RedisReviews:
        """The reviews of finished matches and their pending jobs, in this Redis (:mod:`.redis_reviews`)."""
        return self._reviews

    def ratings(self) -> RedisRatings:
        """The ratings, rated matches' settled results and the leaderboards, in this Redis (:mod:`.redis_ratings`)."""
        return self._ratings

    def queue(self) -> RedisQueue:
        """The quick-play queue, in this Redis (:mod:`.redis_queue`)."""
        return self._queue

    def inbox(self) -> RedisInbox:
        """The accounts' inboxes and who is online, in this Redis (:mod:`.redis_inbox`)."""
        return self._inbox

    def wait_slots(self) -> RedisWaitSlots:
        """The waiting slots each account and address holds, counted for all servers (:mod:`.redis_wait_slots`)."""
        return self._wait_slots

    def follows(self) -> RedisFollows:
        """Whom each account follows, its followers and ``friends`` setting, in this Redis (:mod:`.redis_follows`)."""
        return self._follows

    def puzzles(self) -> RedisPuzzles:
        """Puzzle attempts and ratings, in this Redis (:mod:`.redis_puzzles`)."""
        return self._puzzles

    def live_seats(self) -> RedisLiveSeats:
        """Each account's live matches, in this Redis (:mod:`.redis_live_seats`)."""
        return self._live_seats

    def watching(self) -> RedisWatching:
        """Spectators, the live matches and the featured one, in this Redis (:mod:`.redis_watching`)."""
        return self._watching

    def challenges(self) -> RedisChallenges:
        """The challenges between accounts and those due to expire, in this Redis (:mod:`.redis_challenges`)."""
        return self._challenges

    def tournaments(self) -> RedisTournaments:
        """The tournaments, their lists and event feeds, in this Redis (:mod:`.redis_tournaments`)."""
        return self._tournaments

    def chat(self) -> RedisChat:
        """Mute and block lists, reports, moderators' acts, kept matches' chat, in this Redis (:mod:`.redis_chat`)."""
        return self._chat

    def observe(self, observer: StoreObserver) -> None:
        """Tell ``observer`` of every applied commit, lost race and change in the number of waiters."""
        self._observer = observer
        self._waiting.on_change = observer.waiters

    @property
    def _redis(self) -> Client:
        """The client for one command: this thread's own, or the shared one under gevent and on a cluster."""
        if not self._per_thread:
            return self._shared
        client: redis.Redis | None = getattr(self._local, "client", None)
        if client is None:
            assert isinstance(self._shared, redis.Redis)
            client = thread_client(self._shared)
            self._local.client = client
        return client

    @classmethod
    def connect(cls, options: RedisOptions, lifetimes: Lifetimes, *, max_waiters: int) -> RedisMatchStore:
        """A store on the Redis (or Redis Cluster) of ``options``."""
        client = connect(options)
        per_thread = not options.cooperative
        return cls(
            client,
            lifetimes,
            max_waiters=max_waiters,
            per_thread=per_thread,
            pinger=Pinger(options, client),
            limits_uri=limits_uri(options),
            limits_options=limits_options(options),
        )

    @property
    def waiters(self) -> int:
        """Clients of this process waiting for events now (long polls and streams)."""
        return self._waiting.waiters

    def answering(self) -> AbstractContextManager[None]:
        """A write request of this process is being answered while in this block."""
        return self._waiting.writes_first.answering()

    def ping(self) -> bool:
        """Whether Redis answers."""
        if self._pinger is not None:
            return self._pinger()
        try:
            return bool(self._redis.ping())
        except STORE_ERRORS:
            return False

    def close(self) -> None:
        """End every wait and follow now (the server is shutting down)."""
        self._waiting.close()

    def _publish_command(self) -> str:
        """SPUBLISH (sharded pub/sub, Redis 7+) or PUBLISH on older servers, asked once."""
        if self._publish is None:
            version = str(cast(dict[str, Any], self._redis.info("server")).get("redis_version", "7"))
            sharded = int(version.split(".")[0]) >= 7
            self._waiting.sharded = sharded
            self._publish = "SPUBLISH" if sharded else "PUBLISH"
        return self._publish

    def load(self, match_id: str, answer: AnswerKey | None = None) -> Loaded:
        """Read a match (and, when given, the answer kept under ``answer``) in one round trip."""
        state = state_key(match_id)
        if answer is None:
            (doc,) = read_replies(self._shared, state, [("HGET", state, "doc")])
            cached_raw = None
        else:
            doc, cached_raw = read_replies(
                self._shared, state, [("HGET", state, "doc"), ("GET", answer_key(match_id, answer))]
            )
        record = None if doc is None else MatchRecord.from_json(cast(bytes, doc))
        cached = None if cached_raw is None else wire.loads(cached_raw)
        if cached is not None:
            self.confirm(match_id)  # the answer given again is as durable as the first
        return Loaded(record, cached)

    def commit(
        self,
        record: MatchRecord,
        expected_version: int | None,
        events: list[dict[str, Any]],
        answer: tuple[AnswerKey, dict[str, Any]] | None = None,
    ) -> bool:
        """Write ``record`` if the stored version is still ``expected_version``.

        ``None`` means the match must not exist yet (nor have been deleted in
        the last :data:`GONE_EVENTS_TTL_S`, while its last events are kept, so
        a cancelled match is not made again under its id). ``events`` are the new
        events, already numbered so that the last one is ``record.last_seq``;
        they are appended and published in the same atomic step. ``answer`` is
        an idempotency key and the response to keep under it. Returns False
        when the race was lost (nothing was written).
        """
        match_id = record.match_id
        keys = [state_key(match_id), events_key(match_id), wake_channel(match_id)]
        answer_args: list[Any] = ["", 0]
        if answer is not None:
            keys.append(answer_key(match_id, answer[0]))
            answer_args = [wire.dumps(answer[1]), IDEMPOTENCY_TTL_S]
        try:
            args: list[Any] = [
                "" if expected_version is None else str(expected_version),
                str(record.version),
                record.to_json(),
                self.lifetimes.of(record.status),
                record.last_seq - len(events) + 1,
                len(events),
                *answer_args,
                self._publish_command(),
                *(wire.dumps(e) for e in events),
            ]
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        done = bool(run_script(self._shared, COMMIT, keys, args))
        if self._observer is not None:
            if done:
                self._observer.committed(expected_version is None, events)
            else:
                self._observer.lost_race()
        return done

    def keep(self, match_id: str, answer: AnswerKey, kept: dict[str, Any]) -> bool:
        """Keep ``kept`` (a refusal) under ``answer`` for 24 h unless something is kept there already."""
        try:
            done = self._redis.set(answer_key(match_id, answer), wire.dumps(kept), nx=True, ex=IDEMPOTENCY_TTL_S)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        return bool(done)

    def confirm(self, match_id: str) -> None:
        """Wait until every write so far to the match's node has its copy (nothing when writes do not wait)."""
        confirm_earlier_writes(self._shared, state_key(match_id))

    def delete(self, record: MatchRecord, expected_version: int, events: list[dict[str, Any]]) -> bool:
        """Delete the match if it is still at ``expected_version``, after publishing its last ``events``."""
        match_id = record.match_id
        keys = [state_key(match_id), events_key(match_id), wake_channel(match_id)]
        try:
            args: list[Any] = [
                str(expected_version),
                GONE_EVENTS_TTL_S,
                self._publish_command(),
                record.last_seq - len(events) + 1,
                *(wire.dumps(e) for e in events),
            ]
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        return bool(run_script(self._shared, DELETE, keys, args))

    def load_many(self, match_ids: list[str]) -> list[MatchRecord | None]:
        """Several records in one round trip (None where a match is gone)."""
        if not match_ids:
            return []
        try:
            pipe = self._redis.pipeline(transaction=False)
            for match_id in match_ids:
                pipe.hget(state_key(match_id), "doc")
            docs = pipe.execute()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        return [None if doc is None else MatchRecord.from_json(cast(bytes, doc)) for doc in docs]

    def all_events(self, match_id: str) -> list[dict[str, Any]]:
        """Every event the match has had, oldest first."""
        try:
            entries = self._redis.xrange(events_key(match_id))
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        return [wire.loads(fields[b"e"]) for _id, fields in cast(list[tuple[bytes, dict[bytes, bytes]]], entries)]

    def _read(self, match_id: str, after: int) -> list[dict[str, Any]] | None:
        """Events with ``seq`` > ``after`` (at most 500) in one round trip; None when the match does not exist."""
        try:
            pipe = self._redis.pipeline(transaction=False)
            pipe.exists(state_key(match_id))
            pipe.xread({events_key(match_id): f"0-{after}"}, count=MAX_EVENTS_PER_READ)
            exists, found = pipe.execute()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
        if not exists:
            return None
        if not found:
            return []
        return [wire.loads(fields[b"e"]) for _id, fields in found[0][1]]

    def events(self, match_id: str, after: int, wait_s: float = 0) -> list[dict[str, Any]] | None:
        """Public events with ``seq`` > ``after``, oldest first (at most 500); None when the match does not exist.

        With ``wait_s`` > 0 and nothing new, wait (holding no connection)
        until an event arrives, the wait ends, or the server shuts down
        (:meth:`.feeds.FeedReader.events`).
        """
        return self._feeds.events(match_id, after, wait_s)

    def follow(self, match_id: str, after: int, idle_s: float) -> Iterator[list[dict[str, Any]]]:
        """Every event with ``seq`` > ``after`` as it comes; an empty batch after ``idle_s`` without one.

        The waiter's place is taken now (so :class:`TooManyWaitersError` comes
        before any answer starts) and given back when the iterator is closed.
        """
        return self._feeds.follow(match_id, after, idle_s)

    def _ready(self) -> None:
        """Learn the publish command before a wait (Redis unreachable: :class:`StoreUnavailableError`)."""
        try:
            self._publish_command()
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error


def limits_uri(options: RedisOptions) -> str:
    """The ``limits`` storage URI of the Redis of ``options``, without credentials (:func:`limits_options` has
    them): its URL, ``redis+cluster://`` and its node, or ``redis+sentinel://`` and the sentinels, then the
    primary's name."""
    if options.sentinels:
        hosts = ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in options.sentinels)
        return f"redis+sentinel://{hosts}/{options.sentinel_master}"
    if not options.cluster:
        return bare_url(options)
    parts = urlsplit(bare_url(options))
    return urlunsplit(("redis+cluster", parts.netloc, "", "", ""))


def limits_options(options: RedisOptions) -> dict[str, Any]:
    """The connection arguments of the ``limits`` storage of :func:`limits_uri`: those of every connection
    (:func:`~.reach.node_kwargs`), no retry (:func:`~.reach.no_retry`: fail fast, as the store does), and behind
    Sentinel the sentinels' own (:func:`~.reach.sentinel_kwargs`)."""
    found = node_kwargs(options) | {"retry": no_retry()}
    if options.sentinels:
        return found | {"sentinel_kwargs": sentinel_kwargs(options)}
    if not options.cluster:
        found.pop("ssl", None)  # the rediss:// scheme of the URI says it
    return found
