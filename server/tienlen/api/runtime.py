"""What the server needs to know about how it runs: cooperative (gevent) or threaded workers, its clocks' sweeper.

Under gunicorn's gevent worker every request is a greenlet: waiting costs
nothing, but CPU-heavy work (bots thinking, hints) would stop every other
connection of the worker, so it runs in a small pool of real threads. The
pool stays small: each more thread is one more contender for the GIL that the
event loop needs to answer everyone else.

Every worker also runs the turn clocks' sweeper (:func:`run_sweeper`); while
Redis does not answer it says so in a few lines, not one a round
(:class:`OutageLog`).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..store import StoreUnavailableError
from ..store.connect import STORE_ERRORS

T = TypeVar("T")

THINKING_THREADS = 2
# While a thinking thread holds the GIL the event loop waits up to one switch interval for it each
# time it wakes; 1 ms instead of Python's 5 ms keeps the other connections quick while bots think.
THINKING_SWITCH_INTERVAL_S = 0.001
_pools: dict[int, Any] = {}
# The errors of a store that does not answer (wrapped by the store, or a client's own).
STORE_FAILURES: tuple[type[BaseException], ...] = (StoreUnavailableError, *STORE_ERRORS)
_pools_lock = threading.Lock()


def gevent_patched() -> bool:
    """Whether gevent has patched the standard library in this process (a gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


def gevent_offload(work: Callable[[], T]) -> Any:
    """Run ``work`` in one of this process's thinking threads; the calling greenlet waits, the others run."""
    from gevent.threadpool import ThreadPool

    pid = os.getpid()
    pool = _pools.get(pid)
    if pool is None:
        with _pools_lock:
            pool = _pools.setdefault(pid, ThreadPool(THINKING_THREADS))
            sys.setswitchinterval(min(sys.getswitchinterval(), THINKING_SWITCH_INTERVAL_S))
    return pool.apply(work)


def gevent_settle(max_s: float) -> None:
    """Wait until this worker's event loop has nothing else ready to run, or ``max_s`` passed."""
    import gevent

    with gevent.Timeout(max_s, False):
        gevent.idle()


SWEEP_EVERY_S = 0.1  # how often each worker's sweeper looks for turn clocks that ran out
SWEEP_CONCURRENCY = 16  # timeouts one worker applies side by side
OUTAGE_NOTE_EVERY_S = 5.0  # while the store does not answer, the sweeper says so at most this often


class Sweep(Protocol):
    """The service's sweep: claim the clocks that ran out and hand each one's work to ``dispatch``."""

    def __call__(self, *, dispatch: Callable[[Callable[[], object]], object]) -> int: ...


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
        return f"the turn clocks wait; noted again every {self.every_s:g} s until it answers"

    def _bug(self, error: BaseException) -> None:
        now = self.clock()
        with self._lock:
            self._bugs += 1
            if self._bug_noted is not None and now - self._bug_noted < self.every_s:
                return
            self._bug_noted, count, self._bugs = now, self._bugs, 0
        more = f" ({count - 1} more like it since the last line)" if count > 1 else ""
        self.log.error("the turn clocks' sweeper failed%s", more, exc_info=error)


def _reason(error: BaseException) -> str:
    """The error in a few words: its message, else its type's name."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def run_sweeper(sweep: Sweep, stopped: threading.Event) -> threading.Thread:
    """Call ``sweep`` (apply the turn clocks that ran out) every :data:`SWEEP_EVERY_S` until ``stopped``.

    Every worker of every server runs one: a deadline is claimed by one of
    them, so each timeout happens once; with several, one that dies or
    stalls is covered once its claim's lease ends. The rounds keep their
    pace (a slow round is not followed by a whole pause) and only claim:
    each claimed timeout, with its bots' replies, is applied in a pool of
    :data:`SWEEP_CONCURRENCY` greenlets (gevent) or threads, so one slow
    match delays neither the others nor the next round. While Redis does not
    answer the rounds go on failing, and :class:`OutageLog` says so in a few
    lines (on ``tienlen.sweeper``).
    """
    outage = OutageLog(logging.getLogger("tienlen.sweeper"))
    dispatch = _dispatcher(outage)

    def loop() -> None:
        next_round = time.monotonic()
        while True:
            try:
                sweep(dispatch=dispatch)
            except Exception as error:  # the store may be down for a while: keep sweeping
                outage.failed(error)
            else:
                outage.answered()
            next_round += SWEEP_EVERY_S
            pause = next_round - time.monotonic()
            if pause < 0:  # a round took longer than the pace: the next one at once, without catching up
                next_round, pause = time.monotonic(), 0.0
            if stopped.wait(pause):
                return

    thread = threading.Thread(target=loop, name="tienlen-sweeper", daemon=True)
    thread.start()
    return thread


def _dispatcher(outage: OutageLog) -> Callable[[Callable[[], object]], object]:
    """Run each task in a bounded pool of greenlets (gevent) or threads; a failure goes to ``outage``, not raised.

    A timeout whose task failed is due again when its claim ends.
    """

    def guarded(task: Callable[[], object]) -> None:
        try:
            task()
        except Exception as error:
            outage.failed(error)

    if gevent_patched():
        from gevent.pool import Pool

        pool = Pool(SWEEP_CONCURRENCY)
        return lambda task: pool.spawn(guarded, task)  # waits for a free place when all are busy
    from concurrent.futures import ThreadPoolExecutor

    executor = ThreadPoolExecutor(SWEEP_CONCURRENCY, thread_name_prefix="tienlen-sweep")
    places = threading.BoundedSemaphore(SWEEP_CONCURRENCY)

    def run(task: Callable[[], object]) -> None:
        try:
            guarded(task)
        finally:
            places.release()

    def submit(task: Callable[[], object]) -> object:
        places.acquire()  # waits for a free place when all are busy
        return executor.submit(run, task)

    return submit
