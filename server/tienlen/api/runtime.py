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

import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from ..store.outage import REDIS_OUTAGE, OutageLog

T = TypeVar("T")

THINKING_THREADS = 2
# While a thinking thread holds the GIL the event loop waits up to one switch interval for it each
# time it wakes; 1 ms instead of Python's 5 ms keeps the other connections quick while bots think.
THINKING_SWITCH_INTERVAL_S = 0.001
_pools: dict[int, Any] = {}
# The errors of a store that does not answer (wrapped by the store, or a client's own).
_pools_lock = threading.Lock()


def gevent_patched() -> bool:
    """Whether gevent has patched the standard library in this process (a gevent worker)."""
    try:
        from gevent import monkey
    except ImportError:
        return False
    return bool(monkey.is_module_patched("socket"))


class _Raised:
    """What a thinking thread's work raised, carried back to the greenlet that waits for it."""

    __slots__ = ("error",)

    def __init__(self, error: Exception) -> None:
        self.error = error


def _caught(work: Callable[[], T]) -> T | _Raised:
    """``work``'s value, or what it raised (as :class:`_Raised`): nothing escapes the thinking thread."""
    try:
        return work()
    except Exception as error:
        return _Raised(error)


def gevent_offload(work: Callable[[], T]) -> Any:
    """Run ``work`` in one of this process's thinking threads; the calling greenlet waits, the others run.

    What ``work`` raises (a refused play above all) is raised again in the
    calling greenlet, as if it ran there. It never escapes the thread: gevent's
    hub would print it with the task (``work`` and every argument it holds,
    a match's record with every hand among them) on standard error.
    """
    from gevent.threadpool import ThreadPool

    pid = os.getpid()
    pool = _pools.get(pid)
    if pool is None:
        with _pools_lock:
            pool = _pools.setdefault(pid, ThreadPool(THINKING_THREADS))
            sys.setswitchinterval(min(sys.getswitchinterval(), THINKING_SWITCH_INTERVAL_S))
    done = pool.apply(_caught, (work,))
    if isinstance(done, _Raised):
        raise done.error
    return done


def gevent_settle(max_s: float) -> None:
    """Wait until this worker's event loop has nothing else ready to run, or ``max_s`` passed."""
    import gevent

    with gevent.Timeout(max_s, False):
        gevent.idle()


SWEEP_EVERY_S = 0.1  # how often each worker's sweeper looks for turn clocks that ran out
SWEEP_CONCURRENCY = 16  # timeouts one worker applies side by side


class Sweep(Protocol):
    """The service's sweep: claim the clocks that ran out and hand each one's work to ``dispatch``."""

    def __call__(self, *, dispatch: Callable[[Callable[[], object]], object]) -> int: ...


def run_sweeper(sweep: Sweep, stopped: threading.Event) -> threading.Thread:
    """Call ``sweep`` (apply the turn clocks that ran out) every :data:`SWEEP_EVERY_S` until ``stopped``.

    Every worker of every server runs one: a deadline is claimed by one of
    them, so each timeout happens once; with several, one that dies or
    stalls is covered once its claim's lease ends. The rounds keep their
    pace (a slow round is not followed by a whole pause) and only claim:
    each claimed timeout, with its bots' replies, is applied in a pool of
    :data:`SWEEP_CONCURRENCY` greenlets (gevent) or threads, so one slow
    match delays neither the others nor the next round. While Redis does not
    answer the rounds go on failing, and the process's
    :data:`~tienlen.store.outage.REDIS_OUTAGE` says so in a few lines (on
    ``tienlen.store``), for the sweeper and the store's own loops alike.
    """
    outage = REDIS_OUTAGE
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
