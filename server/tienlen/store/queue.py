"""What the quick-play queue is: tickets, the pools they wait in, and pairings made exactly once.

The service is written against :class:`QueueStore`; :mod:`.redis_queue` keeps it in Redis. A pairing
*claims* its tickets (each still waiting, or nothing happens), the service stores the match, then
*confirms* them; a pairing whose match never came is put back (:meth:`QueueStore.stale` finds it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


def pool_name(players: int, preset: str, rated: bool) -> str:
    """The pool of tickets that may share a table: same size, preset and rated flag."""
    return f"{players}:{preset}:{int(rated)}"


@dataclass(frozen=True, slots=True)
class TicketRecord:
    """A quick-play ticket as stored."""

    ticket: str
    account_id: str
    players: int
    preset: str
    rated: bool
    rating: int
    queued_at: float
    status: str
    match_id: str | None = None
    seat: int | None = None
    matched_at: float | None = None
    entropy: str = ""  # the account's part of its match's fair deal

    @property
    def pool(self) -> str:
        """The pool the ticket waits in."""
        return pool_name(self.players, self.preset, self.rated)


@dataclass(frozen=True, slots=True)
class Waiting:
    """A ticket waiting in a pool: its id, rating and when it was queued."""

    ticket: str
    rating: int
    queued_at: float


class QueueStore(Protocol):
    """The quick-play queue: tickets, their pools and pairings, and the pairers' locks."""

    def enqueue(self, ticket: TicketRecord) -> str | None:
        """Queue ``ticket``; None when queued, else the id of the account's open ticket (nothing changed)."""
        ...

    def get(self, ticket: str) -> TicketRecord | None:
        """A ticket, or None (unknown, or long done)."""
        ...

    def held(self, account_id: str) -> str | None:
        """The account's open ticket (waiting or being matched), or None."""
        ...

    def leave(self, ticket: TicketRecord) -> str:
        """Take a waiting ticket out of its pool; the status it had ('waiting' when it left now)."""
        ...

    def pools(self) -> list[str]:
        """The pools that may hold waiting tickets."""
        ...

    def waiting(self, pool: str) -> list[Waiting]:
        """The tickets waiting in ``pool``, oldest first; a pool found empty is forgotten."""
        ...

    def claim(self, pool: str, match_id: str, tickets: list[str], now: float) -> bool:
        """Claim ``tickets`` (seats 0, 1, ... in this order) for ``match_id``, all or none; False when one is gone."""
        ...

    def confirm(self, match_id: str, tickets: list[TicketRecord], now: float) -> bool:
        """The match of a claim is stored: its tickets are matched; False when it was confirmed or put back."""
        ...

    def put_back(self, match_id: str, pool: str, tickets: list[str]) -> bool:
        """The match of a claim never came: its tickets wait again; False when it was confirmed or put back."""
        ...

    def pairing(self, match_id: str) -> list[str]:
        """The tickets a pending claim holds, by seat."""
        ...

    def stale(self, before: float, limit: int = 32) -> list[str]:
        """The matches whose tickets were claimed before ``before`` and are neither confirmed nor put back."""
        ...

    def lock(self, name: str, ttl_ms: int) -> bool:
        """Take the lock ``name`` for ``ttl_ms`` (one pairer of a pool at a time, across servers); False if held."""
        ...

    def unlock(self, name: str) -> None:
        """Let the lock ``name`` go."""
        ...
