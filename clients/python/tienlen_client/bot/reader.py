"""The bot runner's one connection: the account's inbox, followed as a stream, long-polled when the stream fails.

:class:`InboxReader` is a thread. It first reads what the inbox holds
(:class:`Heard` with ``backlog`` set: what happened while the bot was away),
then follows the stream (``GET /v1/me/events/stream``) from the last ``seq``
it saw, and hands each event over (:class:`Heard`). The stream reconnects by
itself after a drop (``Last-Event-ID``); when it cannot for a while the
reader asks the long poll: if that answers, the stream is what fails (a proxy
that does not pass it, say), and after :data:`STREAM_FAILURES` such failures
in a row the reader long-polls for :data:`LONG_POLL_FOR_S` before trying the
stream again; if it does not, the server is away and the reader waits a
growing pause (:class:`~.backoff.Backoff`) and tries again, for as long as
it takes. A token the server refuses (401, 403) ends it (:class:`Refused`).
"""

from __future__ import annotations

import http.client
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from ..api import Client
from ..inbox import InboxEvent
from ..stream import InboxStream
from ..transport import ApiError, RetryPolicy
from .backoff import Backoff
from .worker import Stopped, stoppable_pause

__all__ = ["LONG_POLL_FOR_S", "STREAM_FAILURES", "Heard", "InboxReader", "Refused"]

log = logging.getLogger("tienlen_bot")

STREAM_FAILURES = 2
"""Stream failures in a row, while the long poll answers, after which the reader long-polls for a while."""

LONG_POLL_FOR_S = 300.0
"""How long the reader long-polls before it tries the stream again."""

STREAM_GIVE_UP_S = 20.0
"""How long the stream tries to reconnect by itself before the reader looks into it."""

LONG_POLL_WAIT_S = 25.0
"""How long one long poll of the inbox waits."""


@dataclass(frozen=True)
class Heard:
    """Inbox events, oldest first; ``backlog``: what the inbox held when the reader started."""

    events: list[InboxEvent]
    backlog: bool = False


@dataclass(frozen=True)
class Refused:
    """The reader cannot go on: the server refused the token (401 ``invalid_token``, 403 ``scope_missing``),
    or the reader itself failed; ``why`` says which."""

    why: str


Note = Any
"""What the reader hands over: :class:`Heard` or :class:`Refused` (the runner's queue takes other notes too)."""


class InboxReader(threading.Thread):
    """Reads the inbox of ``token``'s account on ``base_url`` and puts what it hears in ``notes`` (see the module).

    ``after`` is the last ``seq`` handed over; ``mode`` is ``stream`` or
    ``long_poll``; ``connections`` counts the streams opened.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        notes: queue.Queue[Note],
        stopping: threading.Event,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(name="inbox", daemon=True)
        self.base_url = base_url
        self.token = token
        self.notes = notes
        self.stopping = stopping
        self.clock = clock
        self.after = 0
        self.mode = "stream"
        self.connections = 0
        self.pause = stoppable_pause(stopping)
        self.client = Client(base_url, timeout=LONG_POLL_WAIT_S + 15, retry=RetryPolicy(attempts=1), sleep=self.pause)
        self.backoff = Backoff(first_s=0.5, cap_s=30.0)
        self._lock = threading.Lock()
        self._stream: InboxStream | None = None

    def close(self) -> None:
        """Stop reading (from another thread): the stream or the long poll it is blocked on is cut."""
        with self._lock:
            stream = self._stream
        if stream is not None:
            stream.close()
        self.client.interrupt()

    def run(self) -> None:
        """Read the backlog, then follow; until stopped or refused."""
        try:
            self._catch_up()
            self._follow()
        except Stopped:
            pass
        except ApiError as error:  # the token, refused
            self.notes.put(Refused(f"the server refused the token: {error}"))
        except Exception as error:
            log.exception("the inbox reader failed")
            self.notes.put(Refused(f"the inbox reader failed: {error!r}"))
        finally:
            self.client.close()

    # ------------------------------------------------------------------ reading

    def _catch_up(self) -> None:
        """Read every event the inbox holds, page after page; hand them over as one backlog."""
        backlog: list[InboxEvent] = []
        while True:
            page = self._poll(0)
            if page is None:
                continue
            backlog += page["events"]
            if not page["events"]:
                break
        self.notes.put(Heard(backlog, backlog=True))

    def _follow(self) -> None:
        stream_failures = 0
        poll_until = 0.0
        while not self.stopping.is_set():
            if self.clock() < poll_until:
                self._heard_page(self._poll(LONG_POLL_WAIT_S))
                continue
            if self.mode != "stream":
                log.info("inbox: trying the stream again")
                self.mode = "stream"
            failure = self._stream_until_it_fails()
            if failure is None:
                return  # closed: stopping
            log.warning("inbox: the stream failed (%s)", failure)
            page = self._poll(0)
            if page is None:
                continue  # the server is away; _poll paused
            self._heard_page(page)
            stream_failures += 1
            if stream_failures >= STREAM_FAILURES:
                log.warning("inbox: the stream keeps failing; long-polling for %.0f s", LONG_POLL_FOR_S)
                self.mode = "long_poll"
                poll_until = self.clock() + LONG_POLL_FOR_S
                stream_failures = 0
            else:
                self.pause(self.backoff.next_pause())

    def _stream_until_it_fails(self) -> BaseException | None:
        """Follow the stream; the failure that ended it (None: it was closed)."""
        stream = self.client.follow_my_events(
            self.token, self.after, give_up_after=STREAM_GIVE_UP_S, sleep=self._stream_pause
        )
        with self._lock:
            if self.stopping.is_set():
                return None
            self._stream = stream
        try:
            for event in stream:
                self.after = int(event["seq"])
                self.backoff.reset()
                self.notes.put(Heard([cast(InboxEvent, event)]))
        except ApiError as error:
            if error.status in (401, 403):
                raise
            return error
        except (OSError, http.client.HTTPException, ValueError) as error:
            return error
        finally:
            with self._lock:
                self._stream = None
            stream.close()
            self.connections += stream.connections
        return None if self.stopping.is_set() else ConnectionError("the stream ended")

    def _stream_pause(self, seconds: float) -> None:
        self.stopping.wait(seconds)  # the stream sees it was closed and stops

    def _poll(self, wait: float) -> Any:
        """One page of the long poll after :attr:`after`, or None when the server did not answer (after a pause).

        Raises:
            ApiError: when the token is refused (401, 403).
            Stopped: when the runner stops.
        """
        try:
            page = self.client.my_events(self.token, self.after, wait)
        except ApiError as error:
            if error.status in (401, 403):
                raise
            log.warning("inbox: %s", error)
        except ConnectionError as error:
            if self.stopping.is_set():
                raise Stopped from error
            log.warning("inbox: %s", error)
        else:
            self.backoff.reset()
            self.after = int(page["last_seq"])
            return page
        self.pause(self.backoff.next_pause())
        return None

    def _heard_page(self, page: Any) -> None:
        if page is not None and page["events"]:
            self.notes.put(Heard(list(page["events"])))
