"""The inbox calls, a bot's one connection: the account's events (a page or a stream), and the bots online."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from typing import cast

from ..inbox import InboxPage, OnlineBot
from ..stream import InboxStream
from .base import BaseClient

__all__ = ["InboxCalls"]


class InboxCalls(BaseClient):
    """``/v1/me/events`` (and its stream) and ``/v1/bots``."""

    def my_events(self, token: str, after: int = 0, wait: float = 0) -> InboxPage:
        """``GET /v1/me/events``: the account's inbox events with ``seq`` > ``after`` (at most 500), oldest first.

        With ``wait`` (seconds, up to 30) and nothing new, the answer comes as
        soon as an event does (a long poll). Pass the answer's ``last_seq`` as
        the next ``after`` to miss nothing. Listening makes the account
        *online* for a minute. Scope ``play``; a read, retried.
        """
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return cast(InboxPage, self.request("GET", f"/v1/me/events?{query}", token=token, expect=200))

    def follow_my_events(
        self,
        token: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> InboxStream:
        """The account's inbox events after ``after`` as they come (``GET /v1/me/events/stream``), for as long
        as it is iterated: see :class:`~tienlen_client.stream.InboxStream`.

        It reconnects with ``Last-Event-ID`` by itself (after a growing pause
        with jitter, ``sleep`` making it), giving up after ``give_up_after``
        seconds without a connection (None: never); the stream has a connection
        of its own. The events are :class:`~tienlen_client.inbox.InboxEvent`.
        """
        return InboxStream(
            self.endpoint, token, after, read_timeout=read_timeout, give_up_after=give_up_after, sleep=sleep
        )

    def bots(self) -> list[OnlineBot]:
        """``GET /v1/bots``: the bot accounts online (listening to their inbox in the last minute), latest first."""
        return cast(list[OnlineBot], self.request("GET", "/v1/bots", expect=200)["bots"])
