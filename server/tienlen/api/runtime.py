"""What the server needs to know about how it runs: cooperative (gevent) or threaded workers.

Under gunicorn's gevent worker every request is a greenlet: waiting costs
nothing, but CPU-heavy work (bots thinking, hints) would stop every other
connection of the worker, so it runs in a small pool of real threads. The
pool stays small: each more thread is one more contender for the GIL that the
event loop needs to answer everyone else.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

THINKING_THREADS = 2
# While a thinking thread holds the GIL the event loop waits up to one switch interval for it each
# time it wakes; 1 ms instead of Python's 5 ms keeps the other connections quick while bots think.
THINKING_SWITCH_INTERVAL_S = 0.001
_pools: dict[int, Any] = {}
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


SWEEP_EVERY_S = 0.25


def run_sweeper(sweep: Callable[[], int], stopped: threading.Event) -> threading.Thread:
    """Call ``sweep`` (apply the turn clocks that ran out) every :data:`SWEEP_EVERY_S` until ``stopped``.

    Every worker of every server runs one: a deadline is claimed by one of
    them, so each timeout happens once; with several, one that dies is covered.
    """
    import logging

    log = logging.getLogger("tienlen.sweeper")

    def loop() -> None:
        while not stopped.wait(SWEEP_EVERY_S):
            try:
                sweep()
            except Exception:  # the store may be down for a while: keep sweeping
                log.exception("sweeping the turn clocks failed")

    thread = threading.Thread(target=loop, name="tienlen-sweeper", daemon=True)
    thread.start()
    return thread
