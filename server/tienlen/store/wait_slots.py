"""What the waiting slots are: how many long polls and streams one account, or one address, holds at once,
counted for all servers.

The API is written against :class:`WaitSlots`; :mod:`.redis_wait_slots` keeps them in Redis, on leases a
waiter renews while it waits (so a worker that dies holds its slots only a while).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Cap:
    """Who is counted (``account:<id>``, ``address:<address>``), and how many slots it may hold at once."""

    who: str
    most: int


class WaitSlots(Protocol):
    """The waiting slots of every account and address."""

    def take(self, caps: Sequence[Cap]) -> str:
        """Take a slot under every cap; the slot's id. :class:`~.errors.TooManyWaitsError` (nothing kept) when
        one is full."""
        ...

    def renew(self, slot: str, caps: Sequence[Cap]) -> None:
        """Move the slot's leases on (it is still waiting)."""
        ...

    def release(self, slot: str, keys_or_caps: Sequence[str | Cap]) -> None:
        """Give the slot back under each cap (or key) at once."""
        ...

    def held(self, who: str) -> int:
        """How many slots ``who`` holds now (leases that ended included until the next take drops them)."""
        ...
