"""The quick-play calls: take a ticket, read it (waiting until it is matched), give it up."""

from __future__ import annotations

import urllib.parse
from typing import Any, cast

from ..queue import Ticket
from .base import BaseClient
from .bodies import segment

__all__ = ["QueueCalls"]


class QueueCalls(BaseClient):
    """``/v1/queue``."""

    def enqueue(self, token: str, players: int = 4, preset: str | None = None, rated: bool = True) -> Ticket:
        """``POST /v1/queue`` → 202 a quick-play ticket for a table of ``players`` (scope ``play``).

        When it is matched the account hears ``queue_matched`` then
        ``match_started`` on its inbox (or :meth:`ticket` says so), and its
        token acts for the seat. 409 ``already_queued`` when the account holds
        a ticket already: also the answer to a retry whose first attempt was
        applied (:attr:`ApiError.attempts` > 1).
        """
        body: dict[str, Any] = {"players": players, "rated": rated}
        if preset is not None:
            body["preset"] = preset
        return cast(Ticket, self.request("POST", "/v1/queue", body, token=token, expect=202))

    def my_ticket(self, token: str) -> Ticket:
        """``GET /v1/queue``: the account's open ticket, from whichever client took it (the one a 409
        ``already_queued`` is about); 404 ``ticket_not_found`` when it holds none. A read, retried."""
        return cast(Ticket, self.request("GET", "/v1/queue", token=token, expect=200))

    def ticket(self, token: str, ticket: str, wait: float = 0) -> Ticket:
        """``GET /v1/queue/{ticket}``: the ticket now; with ``wait`` (up to 30 s) as soon as it is matched.

        404 ``ticket_not_found`` for another account's or an unknown ticket. A read, retried.
        """
        path = f"/v1/queue/{segment(ticket)}?{urllib.parse.urlencode({'wait': wait})}"
        return cast(Ticket, self.request("GET", path, token=token, expect=200))

    def leave_queue(self, token: str, ticket: str) -> None:
        """``DELETE /v1/queue/{ticket}`` → 204: give the ticket up (409 ``already_matched`` once it found a table).

        Retried as every write is: a refusal after more than one attempt
        (:attr:`ApiError.attempts` > 1) may mean an earlier one was applied.
        """
        self.request("DELETE", f"/v1/queue/{segment(ticket)}", token=token, expect=204)
