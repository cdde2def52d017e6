"""Writes take turns: a gevent worker runs its writes a few at a time, after everything else it has to do.

Under gevent a worker runs whatever is ready in turn, first come first
served. Players acting flat out keep a worker full of writes (each loads a
match, runs the engine and commits), and every write wakes the match's
followers, whose answers then queue behind the next writes: deliveries fall
behind and so does every cheap request, ``/healthz`` included, while the
players themselves do not notice. So writes (every ``POST`` and ``DELETE``
of the API) take turns: at most ``TIENLEN_WRITES_AT_ONCE`` (1) run at once
in a worker, the others wait in line, and a write whose turn comes first
lets the worker finish what is ready (stream events, long-poll answers,
reads, health checks) before it starts, for at most :data:`YIELD_MAX_S`.
The players are then slowed to the pace at which their events can be
delivered, instead of the deliveries falling ever further behind. Writes
take turns only while the worker holds waiting clients: with nobody to
deliver to, a turn would only keep one write's Redis round trips from
overlapping the next write's work.

A write whose bots think in a thinking thread gives its turn to the next
one meanwhile (:meth:`WriteTurns.lending`), so one match's Hard bots do not
hold every other write of the worker. Threaded workers run writes as they
come: their threads take turns on the GIL anyway.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, ClassVar, TypeVar

from apispec import BasePlugin
from flask import Flask, Response, g, request

__all__ = ["WRITE_METHODS", "YIELD_MAX_S", "WriteTurnTiming", "WriteTurns", "install_write_turns"]

T = TypeVar("T")

WRITE_METHODS = frozenset({"POST", "DELETE"})
YIELD_MAX_S = 0.2  # a write waits at most this long for the worker to have nothing else ready


class WriteTurns:
    """At most ``at_once`` writes of this process at a time, each after ``settle`` (the worker's other work).

    ``followed`` tells whether this worker holds waiting clients now; writes
    of views wrapped by :meth:`wrap` take turns only then.
    """

    def __init__(
        self, at_once: int, settle: Callable[[float], None], followed: Callable[[], bool] = lambda: True
    ) -> None:
        self._slots = threading.Semaphore(at_once)  # cooperative under gevent; waiters are woken in order
        self._settle = settle
        self._followed = followed
        self._holding = threading.local()  # greenlet-local under gevent: whether this request holds a turn

    def run(self, write: Callable[[], T]) -> T:
        """Run ``write`` in its turn."""
        self._slots.acquire()
        self._holding.turn = True
        try:
            self._settle(YIELD_MAX_S)
            return write()
        finally:
            self._holding.turn = False
            self._slots.release()

    def lending(self, offload: Callable[[Callable[[], T]], T]) -> Callable[[Callable[[], T]], T]:
        """``offload`` (work run in a thinking thread), giving the caller's turn to the next write meanwhile."""

        def lent(work: Callable[[], T]) -> T:
            if not getattr(self._holding, "turn", False):
                return offload(work)
            self._holding.turn = False
            self._slots.release()
            try:
                return offload(work)
            finally:
                self._slots.acquire()  # back in line, without waiting for the worker to settle again
                self._holding.turn = True

        return lent

    def wrap(self, view: Callable[..., Any]) -> Callable[..., Any]:
        """The view, running its writes (``POST``, ``DELETE``) in turn and everything else at once.

        Writes take turns only while ``followed()`` (this worker holds waiting
        clients): with nobody to deliver to, a turn would only keep one write's
        Redis round trips from overlapping the next write's work.
        """

        @wraps(view)
        def in_turn(*args: Any, **kwargs: Any) -> Any:
            if request.method not in WRITE_METHODS or not self._followed():
                return view(*args, **kwargs)
            arrived = time.perf_counter()

            def write() -> Any:
                g.turn_wait_s = time.perf_counter() - arrived
                return view(*args, **kwargs)

            return self.run(write)

        return in_turn


def install_write_turns(app: Flask, turns: WriteTurns) -> None:
    """Run the writes of every view that takes one (``POST``, ``DELETE``) in turn.

    Call it once the blueprints are registered and before the rate limits
    wrap the views, so that a request over its limit is refused without
    waiting for a turn. A write's answer tells how long it waited for its
    turn (the worker's other work included), in milliseconds:
    ``Server-Timing: turn;dur=12.5``.
    """

    @app.after_request
    def tell_the_wait(response: Response) -> Response:
        waited = g.get("turn_wait_s")
        if waited is not None:
            response.headers["Server-Timing"] = f"turn;dur={waited * 1000:.1f}"
        return response

    endpoints = {rule.endpoint for rule in app.url_map.iter_rules() if WRITE_METHODS & (rule.methods or set())}
    for endpoint in endpoints:
        app.view_functions[endpoint] = turns.wrap(app.view_functions[endpoint])


class WriteTurnTiming(BasePlugin):
    """Documents ``Server-Timing`` on every answer of every write operation, as each path is added.

    Documented whatever the settings (as the rate limits' headers are): the
    header comes only from a gevent worker with turns on that holds waiting
    clients. A 429 waited for no turn (the limits are counted first), and an
    answer given by reference takes no header beside it.
    """

    HEADER: ClassVar[dict[str, Any]] = {
        "description": "`turn;dur=<milliseconds>`: how long this write waited for its write turn (sent only when "
        "it took one: a gevent worker holding waiting clients, `TIENLEN_WRITES_AT_ONCE` not 0)",
        "schema": {"type": "string", "pattern": "^turn;dur=[0-9]+\\.[0-9]$"},
    }

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **_: Any) -> None:
        """Add the header to the answers of the write operations of ``path``."""
        for method, operation in (operations or {}).items():
            if method.upper() not in WRITE_METHODS or not isinstance(operation, dict):
                continue
            for status, answer in operation.get("responses", {}).items():
                if str(status) != "429" and isinstance(answer, dict) and "$ref" not in answer:
                    answer["headers"] = answer.get("headers", {}) | {"Server-Timing": self.HEADER}
