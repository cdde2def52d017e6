"""Who waits: caps on the long polls and streams one account, or one client address, holds at once.

Before each request the app sets the store's :data:`~tienlen.store.waiting.WAITER` to a
:class:`RequestWaiter`; a long poll or stream that comes to wait (the match's events and stream, the
inbox and its stream, a quick-play ticket) then takes a slot under the caller's caps, counted for all
servers in Redis (:mod:`tienlen.store.wait_slots`): one under its account (a token of an account sent:
``TIENLEN_MAX_WAITERS_PER_ACCOUNT``) and one under its address (``TIENLEN_MAX_WAITERS_PER_ADDRESS``, the
address :func:`~.caller.client_address` says). The wait over a cap answers 429 ``too_many_waits`` with
``Retry-After``; the others keep theirs.

A slot is given back as soon as its wait ends, and a wait ends as soon as its client has gone: under
gevent the client's socket is watched (a hang-up wakes the wait at once); with threads it is looked at
every :data:`~tienlen.store.waiting.GONE_POLL_S`. A worker that dies holds its slots until their leases
end (:data:`~tienlen.store.redis_wait_slots.LEASE_S`).

Writes first: a request that may write (any method but GET, HEAD and OPTIONS) is marked as being answered
(:meth:`MatchStore.answering`) from its start until its answer is ready to send, so the process wakes its waiting
clients after it (:mod:`tienlen.store.writes_first`).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable
from typing import Any

from flask import Flask, request

from ..settings import Settings
from ..store.base import MatchStore
from ..store.errors import TooManyWaitsError
from ..store.records import token_digest
from ..store.wait_slots import Cap, WaitSlots
from ..store.waiting import WAITER
from .caller import bearer_token, client_address
from .errors import error_body
from .runtime import gevent_patched

RETRY_WAITS_S = 5  # the Retry-After of too_many_waits: one of the caller's own waits ends by then, or it may wait
_HANG_UP = getattr(select, "POLLRDHUP", 0) | select.POLLHUP | select.POLLERR | select.POLLNVAL


def _original_poll() -> Callable[[], Any]:
    """``select.poll`` as the OS gives it (gevent's patched one cannot report a hang-up); asked with timeout 0."""
    if "gevent.monkey" in sys.modules:
        from gevent import monkey

        return monkey.get_original("select", "poll")  # type: ignore[no-any-return]
    return select.poll


def hung_up(fd: int) -> bool:
    """Whether the peer of the socket ``fd`` closed its side (or the socket failed), looking without waiting."""
    poller = _original_poll()()
    poller.register(fd, select.POLLIN | _HANG_UP)
    return any(events & _HANG_UP for _fd, events in poller.poll(0))


class RequestWaiter:
    """The caps and the client of one request (see :class:`tienlen.store.waiting.Waiter`)."""

    def __init__(self, slots: WaitSlots, store: MatchStore, settings: Settings, environ: dict[str, Any]) -> None:
        self._slots = slots
        self._store = store
        self._settings = settings
        self._address = client_address()
        self._token = bearer_token()
        self._socket = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
        self._caps: list[Cap] | None = None
        self._slot: str | None = None
        self._watcher: Any = None

    def caps(self) -> list[Cap]:
        """The caps this request counts under: its account's (a token of an account sent), then its address's."""
        if self._caps is None:
            caps = [Cap("address:" + self._address, self._settings.max_waiters_per_address)]
            grant = None if self._token is None else self._store.accounts().grant(token_digest(self._token))
            if grant is not None:
                caps.insert(0, Cap("account:" + grant.account_id, self._settings.max_waiters_per_account))
            self._caps = caps
        return self._caps

    def take(self) -> None:
        """Take a slot under every cap (:class:`TooManyWaitsError` over one: nothing taken)."""
        self._slot = self._slots.take(self.caps())

    def renew(self) -> None:
        """Move the slot's leases on."""
        if self._slot is not None:
            self._slots.renew(self._slot, self.caps())

    def release(self) -> None:
        """Give the slot back, and stop watching the client."""
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.stop()
        slot, self._slot = self._slot, None
        if slot is not None:
            self._slots.release(slot, self.caps())

    def _fd(self) -> int | None:
        """The client socket's descriptor: None without a socket, -1 once it is closed."""
        if self._socket is None:
            return None
        try:
            return int(self._socket.fileno())
        except (OSError, ValueError):
            return -1

    def watch(self, wake: Callable[[], None]) -> bool:
        """Under gevent, watch the client's socket and ``wake`` once it hangs up; False (poll) with threads."""
        fd = self._fd()
        if fd is None:
            return True  # no socket to look at (a test client): nothing to poll either
        if fd < 0 or not gevent_patched():
            return False
        import gevent

        watcher = gevent.get_hub().loop.io(fd, 1)  # readable: data, or the peer's hang-up

        def readable() -> None:
            watcher.stop()  # once: a client that sends more (it should not) is then found at its next heartbeat
            if hung_up(fd):
                gevent.spawn(wake)

        watcher.start(readable)
        self._watcher = watcher
        return True

    def gone(self) -> bool:
        """Whether the client has hung up (False when there is no socket to look at)."""
        fd = self._fd()
        return fd is not None and (fd < 0 or hung_up(fd))


def install_waits(app: Flask, settings: Settings, store: MatchStore) -> None:
    """Set each request's waiter before it runs; answer 429 ``too_many_waits`` (with ``Retry-After``) over a cap."""
    slots = store.wait_slots()

    @app.before_request
    def _waiter() -> None:
        WAITER.set(RequestWaiter(slots, store, settings, request.environ))

    @app.teardown_request
    def _no_waiter(_error: BaseException | None) -> None:
        WAITER.set(None)

    def too_many_waits(error: TooManyWaitsError) -> tuple[dict[str, Any], int, dict[str, str]]:
        body, status = error_body("too_many_waits", f"{error}; end one first, or try again shortly")
        return body, status, {"Retry-After": str(RETRY_WAITS_S)}

    app.register_error_handler(TooManyWaitsError, too_many_waits)


READS = frozenset({"GET", "HEAD", "OPTIONS"})


class WritesFirst:
    """WSGI middleware: each request that may write is marked as being answered until its answer is ready."""

    def __init__(self, app: Callable[..., Any], store: MatchStore) -> None:
        self._app = app
        self._store = store

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("REQUEST_METHOD", "GET") in READS:
            return self._app(environ, start_response)
        with self._store.answering():
            # the answer is whole by now (a write's is never streamed): the server sends it before any
            # client woken at the end of this block runs (gevent switches only when this one waits)
            return self._app(environ, start_response)


def install_writes_first(app: Flask, store: MatchStore) -> None:
    """Wake this process's waiting clients only after its write requests are answered (see the module)."""
    app.wsgi_app = WritesFirst(app.wsgi_app, store)  # type: ignore[method-assign]
