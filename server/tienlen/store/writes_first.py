"""Writes first: a process's waiting clients are woken once its write requests have been answered.

A play's commit publishes its events; the process's wake-up subscriber
hears them at about the moment the writer hears its commit acknowledged.
Woken first, a thousand streams of the match in this process would each
run before the writer gets its turn again, and the seat's answer would
wait for all of them (with gevent every wake-up is a greenlet scheduled
ahead of the writer's). So the subscriber holds its wake-ups while a write
request of this process is being answered, for at most
:data:`WRITES_FIRST_S`: the seat that acted is answered first, its
spectators a moment later.

And it gathers: the first message of a burst is held :data:`GATHER_S`
before anyone is woken, so the messages that follow it at once (a play,
the bot's answer, a hand's end and the next hand's deal) wake each waiting
client once, and the writers of every process (the seat's answer is still
on its way to it) are not competing with a fan-out that started the same
millisecond.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

WRITES_FIRST_S = 0.025
"""The longest the wake-ups wait for this process's write requests to be answered."""

GATHER_S = 0.004
"""How long the first message of a burst is held so that the next ones wake the same clients at once."""


class WritesFirst:
    """Counts this process's write requests being answered; :meth:`let_through` waits until there is none
    (at most ``limit_s``)."""

    def __init__(self, limit_s: float = WRITES_FIRST_S, gather_s: float = GATHER_S) -> None:
        self.limit_s = limit_s
        self.gather_s = gather_s
        self._answering = 0
        self._quiet = threading.Condition(threading.Lock())

    @property
    def answering_now(self) -> int:
        """Write requests of this process being answered now."""
        return self._answering

    @contextmanager
    def answering(self) -> Iterator[None]:
        """A write request is being answered while in this block."""
        with self._quiet:
            self._answering += 1
        try:
            yield
        finally:
            with self._quiet:
                self._answering -= 1
                if self._answering == 0:
                    self._quiet.notify_all()

    def let_through(self) -> bool:
        """Called on the first message of a burst: wait :attr:`gather_s`, then until no write request is being
        answered (:attr:`limit_s` in all at most); whether none is."""
        deadline = time.monotonic() + self.limit_s
        if self.gather_s > 0:
            time.sleep(self.gather_s)
        with self._quiet:
            return self._quiet.wait_for(lambda: self._answering == 0, max(0.0, deadline - time.monotonic()))


__all__ = ["WRITES_FIRST_S", "WritesFirst"]
