"""Waiting for a match's events without holding a thread or a Redis connection.

Every commit publishes its new events on the match's wake channel (sharded
pub/sub, so a Redis Cluster routes it to the match's own shard). One
subscriber per process listens on the channels of the matches that have local
waiters and wakes exactly those waiters; a waiter then takes the events from
the message, or reads the stream when it missed some. A new long poll or
stream of a match that already has local waiters starts from what the channel
said too, without reading the stream (:meth:`LocalWaiters.news`).

No wake-up is lost: a waiter subscribes first and reads the stream only once
the subscription is confirmed, so an event committed before the read is in
the read, and one committed after it arrives as a message. Each message moves
the feed's wake-up count (:attr:`Hold.generation`); a waiter takes the count
*before* each read and then waits on that count, so a message handled between
its read and its wait ends the wait at once instead of being slept through.
While the subscription is not confirmed (Redis restarting, say) waiters poll
instead: their waits end every :data:`POLL_S` and they read the stream again.

Writes first: the subscriber holds its wake-ups while a write request of
this process is being answered (briefly, see :mod:`.writes_first`), so a
seat's answer never queues behind its spectators' streams.

Under gevent's monkey patching the locks, conditions and the subscriber
thread below are cooperative; with real threads they work the same.

Who waits: the request being served sets :data:`WAITER` (the API does, see
:mod:`tienlen.api.waits`). A hold then also takes that waiter's slots, counted
for all servers per account and per address (:class:`Waiter.take`: refused
with :class:`~.errors.TooManyWaitsError`), renews them while it waits, and
ends as soon as the waiter's client has gone (:meth:`Waiter.watch`), giving
every slot back at once instead of at the next heartbeat.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import Any, Protocol

import redis
from redis.exceptions import RedisClusterException

from .. import wire
from .errors import StoreUnavailableError, TooManyWaitersError
from .events import DELETED_EVENT, Event
from .outage import REDIS_OUTAGE
from .redis_wait_slots import RENEW_S
from .writes_first import WritesFirst

log = logging.getLogger("tienlen.waiting")

TAIL_EVENTS = 64  # recent events kept per followed match, so woken waiters need not read the stream
POLL_S = 0.25  # how often a waiter reads the stream while its subscription is not confirmed
CONFIRM_WAIT_S = 1.0  # how long a new waiter waits for its subscription before it polls instead
LINGER_S = 10.0  # a channel nobody waits on is unsubscribed after this long
TICK_S = 0.05  # the subscriber takes new subscriptions at least this often
RECONNECT_MAX_S = 2.0
GONE_POLL_S = 1.0  # how often a waiter whose client cannot be watched looks whether it has gone


class Waiter(Protocol):
    """The client a hold waits for: its slots for all servers, and whether it is still there."""

    def take(self) -> None:
        """Take this wait's slots (:class:`~.errors.TooManyWaitsError` over a cap: nothing taken)."""

    def renew(self) -> None:
        """Keep the slots taken (called while waiting, at least every few seconds)."""

    def release(self) -> None:
        """Give the slots back (once the wait ends)."""

    def watch(self, wake: Callable[[], None]) -> bool:
        """Call ``wake`` (from another greenlet) once the client has gone; False when it cannot: poll :meth:`gone`."""

    def gone(self) -> bool:
        """Whether the client has closed its connection."""


WAITER: ContextVar[Waiter | None] = ContextVar("tienlen_waiter", default=None)
"""The waiter of the request being served (set by the API before each request), or None."""


class _Feed:
    """The local waiters of one match, and what its wake channel last said."""

    __slots__ = ("changed", "confirmed", "generation", "holders", "idle_since", "tail")

    def __init__(self, lock: threading.Lock) -> None:
        self.holders = 0
        self.generation = 0
        self.confirmed = False
        self.tail: list[Event] = []
        self.idle_since = 0.0
        self.changed = threading.Condition(lock)

    def take_tail(self, after: int) -> list[Event] | None:
        """Events after ``after`` from the tail, or None when the tail cannot tell.

        The tail holds every event published since the subscription was
        confirmed, up to the last message handled; an event committed since
        will still come as a message. So when the tail reaches back to
        ``after + 1`` it holds exactly the events after ``after`` known so
        far (none: wait for the next message). It cannot tell while the
        subscription is not confirmed, when it does not reach back that far,
        and when it ends with a deletion and has nothing newer (the match is
        gone: a read says so).
        """
        tail = self.tail
        if not self.confirmed or not tail or tail[0]["seq"] > after + 1:
            return None
        news = [e for e in tail if e["seq"] > after]
        if not news and tail[-1]["type"] == DELETED_EVENT:
            return None
        return news


class Hold:
    """One waiter's place on a match's feed (see :meth:`LocalWaiters.hold`)."""

    def __init__(self, waiting: LocalWaiters, feed: _Feed, waiter: Waiter | None = None) -> None:
        self._waiting = waiting
        self._feed = feed
        self._waiter = waiter
        self._gone = False
        self._poll_gone = False
        self._renewed = time.monotonic()
        if waiter is not None:
            self._poll_gone = not waiter.watch(self._client_gone)

    def _client_gone(self) -> None:
        """The client went away: wake this feed's waiters, so this one ends now."""
        self._gone = True
        with self._feed.changed:
            self._feed.changed.notify_all()

    def _tick(self) -> None:
        """Renew the waiter's slots when due; look whether its client has gone when it cannot be watched."""
        waiter = self._waiter
        if waiter is None:
            return
        if self._poll_gone and not self._gone and waiter.gone():
            self._gone = True
        if time.monotonic() - self._renewed >= RENEW_S:
            self._renewed = time.monotonic()
            with suppress(StoreUnavailableError):  # the next renewal may pass; the lease outlasts a few misses
                waiter.renew()

    @property
    def generation(self) -> int:
        """How many wake-ups the feed has had: take it before a read, then :meth:`wait` on it."""
        return self._feed.generation

    @property
    def closing(self) -> bool:
        """The server is shutting down, or the client has gone: end the wait now."""
        return self._waiting.closing or self._gone

    def wait(self, generation: int, timeout_s: float) -> None:
        """Sleep until the feed moves past ``generation``, the server closes, or the timeout.

        ``generation`` is the count taken before the caller's last read: if a
        wake-up came since, this returns at once. While the subscription is
        not confirmed, sleep at most :data:`POLL_S` so the caller reads the
        stream again (polling instead of being woken).
        """
        feed = self._feed
        if self._poll_gone:
            timeout_s = min(timeout_s, GONE_POLL_S)
        with feed.changed:
            if not feed.confirmed:
                timeout_s = min(timeout_s, POLL_S)
            if feed.generation == generation and not self.closing:
                feed.changed.wait(timeout_s)
        self._tick()

    def events_after(self, after: int) -> list[Event] | None:
        """The events after ``after`` as the wake messages told them, or None when they cannot tell (read then)."""
        self._tick()
        return self._feed.take_tail(after)


class LocalWaiters:
    """Per process: the subscriber of the wake channels and every local waiter.

    ``subscriber`` makes the pub/sub object (its connection is opened on first
    use); :attr:`sharded` chooses SSUBSCRIBE over SUBSCRIBE (Redis 7+). Only
    the subscriber thread touches the pub/sub connection: waiters leave the
    channels they need in :attr:`_pending` and it subscribes them within
    :data:`TICK_S`. With ``cluster`` the pub/sub object is redis-py's cluster
    pub/sub: one connection per shard that holds a followed match, read in turn.
    """

    def __init__(
        self,
        subscriber: Callable[[], Any],
        channel_of: Callable[[str], str],
        max_waiters: int,
        *,
        cluster: bool = False,
    ) -> None:
        self._make_pubsub = subscriber
        self._cluster = cluster
        self._channel_of = channel_of
        self.max_waiters = max_waiters
        self.sharded = True
        self.closing = False
        self.waiters = 0
        self._lock = threading.Lock()
        self._feeds: dict[str, _Feed] = {}  # by channel
        self._pending: list[str] = []
        self._thread: threading.Thread | None = None
        self._pid = 0
        self.on_change: Callable[[int], None] | None = None  # told the number of waiters when it changes
        self.writes_first = WritesFirst()  # wake-ups wait while this process answers a write (see its module)

    # ----- waiters --------------------------------------------------------------------

    def news(self, match_id: str, after: int) -> list[Event] | None:
        """The match's events after ``after`` as its wake channel told them here, or None when it cannot tell.

        Only a match that local waiters follow (or followed a moment ago) has
        a confirmed subscription whose messages can tell; a long poll asked
        again right after its answer usually finds its match here, and then
        needs no read of the stream at all (see :meth:`_Feed.take_tail`).
        """
        channel = self._channel_of(match_id)
        with self._lock:
            feed = self._feeds.get(channel)
            return None if feed is None else feed.take_tail(after)

    @contextmanager
    def hold(self, match_id: str) -> Iterator[Hold]:
        """A place on the match's feed for as long as the ``with`` lasts.

        Raises :class:`TooManyWaitersError` when this process already holds
        ``max_waiters``, and :class:`~.errors.TooManyWaitsError` when the
        request's :data:`WAITER` holds as many slots as it may. The caller gets
        the :class:`Hold` once the wake channel's subscription is confirmed (or
        after :data:`CONFIRM_WAIT_S`, and then polls until it is).
        """
        channel = self._channel_of(match_id)
        waiter = WAITER.get()
        if waiter is not None:
            waiter.take()
        try:
            with self._place(channel) as feed:
                yield Hold(self, feed, waiter)
        finally:
            if waiter is not None:
                with suppress(StoreUnavailableError):  # not given back: its lease ends it
                    waiter.release()

    @contextmanager
    def _place(self, channel: str) -> Iterator[_Feed]:
        """This process's place on the channel's feed (:meth:`hold`), its subscription confirmed or waited for."""
        with self._lock:
            if self.waiters >= self.max_waiters:
                raise TooManyWaitersError(f"this server already holds {self.max_waiters} waiting clients")
            self.waiters += 1
            feed = self._feeds.get(channel)
            if feed is None:
                feed = self._feeds[channel] = _Feed(self._lock)
                self._pending.append(channel)
            feed.holders += 1
            count = self.waiters
        self._told(count)
        try:
            self._ensure_subscriber()
            with feed.changed:
                if not feed.confirmed and not self.closing:
                    feed.changed.wait(CONFIRM_WAIT_S)
            yield feed
        finally:
            with self._lock:
                self.waiters -= 1
                feed.holders -= 1
                if feed.holders == 0:
                    feed.idle_since = time.monotonic()
                count = self.waiters
            self._told(count)

    def _told(self, count: int) -> None:
        """Tell :attr:`on_change` the number of waiters (outside the lock)."""
        if self.on_change is not None:
            self.on_change(count)

    def close(self) -> None:
        """Shut down: wake every waiter so streams end and long polls answer what they have."""
        with self._lock:
            self.closing = True
            feeds = list(self._feeds.values())
        for feed in feeds:
            with feed.changed:
                feed.changed.notify_all()

    # ----- the subscriber -------------------------------------------------------------

    def _ensure_subscriber(self) -> None:
        """Start this process's subscriber thread (again in a forked child)."""
        pid = os.getpid()
        with self._lock:
            if self._thread is not None and self._pid == pid:
                return
            self._pid = pid
            self._thread = threading.Thread(target=self._run, name="tienlen-wakeups", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        pubsub: Any = None
        backoff = 0.05
        last_sweep = time.monotonic()
        while not self.closing:
            try:
                if pubsub is None:
                    pubsub = self._make_pubsub()
                    with self._lock:
                        self._pending = [c for c, f in self._feeds.items() if f.holders > 0]
                drop: list[str] = []
                if time.monotonic() - last_sweep > LINGER_S / 2:
                    last_sweep = time.monotonic()
                    drop = self._drop_idle()
                with self._lock:
                    add, self._pending = self._pending, []
                if drop:
                    (pubsub.sunsubscribe if self.sharded else pubsub.unsubscribe)(*drop)
                if add:
                    (pubsub.ssubscribe if self.sharded else pubsub.subscribe)(*add)
                self._read_messages(pubsub)
                REDIS_OUTAGE.answered()
                backoff = 0.05
            except (redis.RedisError, RedisClusterException, OSError, ValueError) as error:
                REDIS_OUTAGE.failed(StoreUnavailableError(f"the wake-up subscriber lost Redis: {error}"))
                self._disconnected(pubsub)
                pubsub = None
                time.sleep(backoff)
                backoff = min(RECONNECT_MAX_S, backoff * 2)
        if pubsub is not None:
            self._disconnected(pubsub)

    def _read_messages(self, pubsub: Any) -> None:
        """Handle the messages that arrive within :data:`TICK_S` (and any already there)."""
        if not self._cluster:
            message = pubsub.get_message(timeout=TICK_S)
            if message is not None:
                self.writes_first.let_through()
            while message is not None:
                self._on_message(message)
                message = pubsub.get_message(timeout=0)
            return
        started = time.monotonic()
        message = pubsub.get_sharded_message(timeout=TICK_S)
        if message is None and time.monotonic() - started < TICK_S / 2:
            time.sleep(TICK_S)  # no shard subscribed yet: the call did not wait
        if message is not None:
            self.writes_first.let_through()
        while message is not None:
            self._on_message(message)
            message = pubsub.get_sharded_message(timeout=0)

    def _disconnected(self, pubsub: Any) -> None:
        """Forget the subscriptions and wake everyone: they read the stream and poll until resubscribed."""
        if pubsub is None:
            return
        with suppress(redis.RedisError, OSError):
            pubsub.close()
        with self._lock:
            feeds = list(self._feeds.values())
            for feed in feeds:
                feed.confirmed = False
                feed.tail = []
                feed.generation += 1
                feed.changed.notify_all()

    def _on_message(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        channel = message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        with self._lock:
            feed = self._feeds.get(channel)
            if feed is None:
                return
            if kind in ("ssubscribe", "subscribe"):
                # also after a reconnect, when events may have been missed: wake and re-read
                feed.confirmed = True
            elif kind in ("smessage", "message"):
                events: list[Event] = wire.loads(message["data"])
                tail = feed.tail
                if tail and events and tail[-1]["seq"] + 1 == events[0]["seq"]:
                    feed.tail = (tail + events)[-TAIL_EVENTS:]
                else:
                    feed.tail = events[-TAIL_EVENTS:]
            else:
                return
            feed.generation += 1
            feed.changed.notify_all()

    def _drop_idle(self) -> list[str]:
        """Forget the channels nobody has waited on for :data:`LINGER_S`; the caller unsubscribes them."""
        now = time.monotonic()
        with self._lock:
            idle = [c for c, f in self._feeds.items() if f.holders == 0 and now - f.idle_since > LINGER_S]
            for channel in idle:
                del self._feeds[channel]
        return idle
