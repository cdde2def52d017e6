"""Answers of the quick-play queue (``/v1/queue``): a ticket (typed JSON; times are RFC 3339 text)."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["Ticket", "TicketStatus"]

TicketStatus = Literal["waiting", "matched", "left"]


class Ticket(TypedDict):
    """A quick-play ticket: ``waiting`` for a table, ``matched`` (then ``match_id`` and ``seat`` are set; the
    account's token acts for that seat), or ``left``."""

    ticket: str
    status: TicketStatus
    players: int
    preset: str
    rated: bool
    queued_at: str
    match_id: str | None
    seat: int | None
