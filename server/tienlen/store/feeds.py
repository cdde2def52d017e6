"""Long polls and follows of a *feed*: numbered events read from Redis and woken by pub/sub (see :mod:`.waiting`).

A match's public events are one feed (its id); an account's inbox is another
(``@`` and its id). Both are read the same way: a long poll answers what is
after a cursor or waits for it, and a follow hands over each batch as it
comes; neither holds a thread or a Redis connection while it waits.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack

from .events import Event
from .waiting import Hold, LocalWaiters

Read = Callable[[str, int], list[Event] | None]
"""Reads a feed's events after a cursor from Redis (at most a page); None when the feed does not exist."""


class FeedReader:
    """Long polls and follows of the feeds that ``read`` reads, woken through ``waiting``.

    ``ready`` is called before the first wait of each long poll or follow (it
    learns the publish command, and may raise when Redis cannot be reached).
    """

    def __init__(self, waiting: LocalWaiters, read: Read, ready: Callable[[], object]) -> None:
        self._waiting = waiting
        self.read = read
        self._ready = ready

    def events(self, feed: str, after: int, wait_s: float = 0) -> list[Event] | None:
        """Events with ``seq`` > ``after``, oldest first (a page); None when the feed does not exist.

        With ``wait_s`` > 0 and nothing new, wait (holding no connection)
        until an event arrives, the wait ends, or the server shuts down. A
        wait on a feed that this process already follows starts from what
        its wake channel said, without reading Redis.
        """
        found = self._waiting.news(feed, after) if wait_s > 0 else None
        if found is None:
            found = self.read(feed, after)
        if found is None or found or wait_s <= 0:
            return found
        self._ready()
        deadline = time.monotonic() + wait_s
        with self._waiting.hold(feed) as hold:
            generation, found = self.look(hold, feed, after)
            while found == [] and not hold.closing:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                hold.wait(generation, remaining)
                generation, found = self.look(hold, feed, after)
            if found == [] and not hold.closing:
                # a commit just before the end may not have woken us yet (a cluster's subscriber looks
                # every TICK_S): read once more, so the answer holds everything committed during the wait
                found = self.read(feed, after)
            return found

    def look(self, hold: Hold, feed: str, after: int) -> tuple[int, list[Event] | None]:
        """The feed's wake-up count, *then* the events after ``after``: wait on that count next.

        The count is taken before the events are looked at, so an event
        committed after the look moves it and ends the wait at once: none
        can slip in between a read and the wait that follows it. The events
        come from the feed's wake messages when those can tell
        (:meth:`Hold.events_after`), else from a read.
        """
        generation = hold.generation
        told = hold.events_after(after)
        return generation, told if told is not None else self.read(feed, after)

    def follow(self, feed: str, after: int, idle_s: float) -> Iterator[list[Event]]:
        """Every event with ``seq`` > ``after`` as it comes; an empty batch after ``idle_s`` without one.

        The waiter's place is taken now (so :class:`~.errors.TooManyWaitersError`
        comes before any answer starts) and given back when the iterator is closed.
        """
        self._ready()
        return Following(self, self._waiting, feed, after, idle_s)


class Following(Iterator[list[Event]]):
    """The iterator of :meth:`FeedReader.follow`: holds a waiter's place until closed."""

    def __init__(self, reader: FeedReader, waiting: LocalWaiters, feed: str, after: int, idle_s: float) -> None:
        self._reader = reader
        self._feed = feed
        self._after = after
        self._idle_s = idle_s
        stack = ExitStack()
        self._hold = stack.enter_context(waiting.hold(feed))
        self._stack: ExitStack | None = stack

    def __next__(self) -> list[Event]:
        hold = self._hold
        if hold.closing:
            self.close()
        if self._stack is None:
            raise StopIteration
        reader, feed, after = self._reader, self._feed, self._after
        # what came while the last batch was being sent is in this look, or moves the count after it
        generation, found = reader.look(hold, feed, after)
        deadline = time.monotonic() + self._idle_s
        while found == [] and not hold.closing:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            hold.wait(generation, remaining)
            generation, found = reader.look(hold, feed, after)
        if found == [] and hold.closing:
            found = None
        elif found == []:
            # idle: make sure the feed still exists, then let the caller send a heartbeat
            found = reader.read(feed, after)
        if found is None:
            self.close()
            raise StopIteration
        if found:
            self._after = found[-1]["seq"]
        return found

    def close(self) -> None:
        """Give the waiter's place back."""
        stack, self._stack = self._stack, None
        if stack is not None:
            stack.close()
