"""A Redis outage told in a few log lines, not one per failed call (one tracker a process).

While Redis does not answer, the turn clocks' sweeper fails ten times a
second, the waiting clients' subscriber reconnects and lobby updates fail:
each tells :data:`REDIS_OUTAGE`, which writes one warning when the outage
begins, at most one every :data:`OUTAGE_NOTE_EVERY_S` while it lasts, and one
when Redis answers again, saying how long it was out.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from .connect import STORE_ERRORS
from .errors import StoreUnavailableError

OUTAGE_NOTE_EVERY_S = 5.0  # while the store does not answer, this process says so at most this often
STORE_FAILURES: tuple[type[BaseException], ...] = (StoreUnavailableError, *STORE_ERRORS)


class OutageLog:
    """What a loop that calls the store says about an outage: a few lines, not one per failed call.

    One warning when the store stops answering, at most one every ``every_s``
    while it still does not, and one when it answers again, saying how long it
    was out. The store's errors (:data:`STORE_FAILURES`: it did not answer)
    are expected then and written without a traceback; any other failure is a
    bug, written with its traceback, also at most once every ``every_s``.
    Safe to call from several threads or greenlets.
    """

    def __init__(
        self, log: logging.Logger, every_s: float = OUTAGE_NOTE_EVERY_S, clock: Callable[[], float] = time.monotonic
    ) -> None:
        """Write to ``log``, at most a line every ``every_s`` (of ``clock``) while an outage or a bug lasts."""
        self.log = log
        self.every_s = every_s
        self.clock = clock
        self._lock = threading.Lock()
        self._out_since: float | None = None
        self._failed = 0  # calls failed since the outage began
        self._noted = 0.0  # when the last line about it was written
        self._bugs = 0  # other failures not yet written
        self._bug_noted: float | None = None

    @property
    def out(self) -> bool:
        """True while the store is taken not to answer."""
        return self._out_since is not None

    def failed(self, error: BaseException) -> None:
        """A call failed with ``error``: note it (a line only when one is due)."""
        if not isinstance(error, STORE_FAILURES):
            self._bug(error)
            return
        now = self.clock()
        with self._lock:
            self._failed += 1
            if self._out_since is None:
                self._out_since, self._noted = now, now
                line: tuple[Any, ...] | None = ("Redis does not answer: %s (%s)", _reason(error), self._next_note())
            elif now - self._noted >= self.every_s:
                self._noted = now
                since, failed = now - self._out_since, self._failed
                line = ("Redis still does not answer after %.1f s (%d calls failed): %s", since, failed, _reason(error))
            else:
                line = None
        if line is not None:
            self.log.warning(*line)

    def answered(self) -> None:
        """A call succeeded: the outage, if there was one, is over."""
        if self._out_since is None:
            return
        with self._lock:
            if self._out_since is None:
                return
            since, failed = self.clock() - self._out_since, self._failed
            self._out_since, self._failed = None, 0
        self.log.warning("Redis answers again after %.1f s out (%d calls failed)", since, failed)

    def _next_note(self) -> str:
        return f"the turn clocks and waiting clients wait; noted again every {self.every_s:g} s until it answers"

    def _bug(self, error: BaseException) -> None:
        now = self.clock()
        with self._lock:
            self._bugs += 1
            if self._bug_noted is not None and now - self._bug_noted < self.every_s:
                return
            self._bug_noted, count, self._bugs = now, self._bugs, 0
        more = f" ({count - 1} more like it since the last line)" if count > 1 else ""
        self.log.error("a loop that calls the store failed (a bug)%s", more, exc_info=error)


def _reason(error: BaseException) -> str:
    """The error in a few words: its message, else its type's name."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


REDIS_OUTAGE = OutageLog(logging.getLogger("tienlen.store"))  # this process's: every loop that calls Redis tells it
