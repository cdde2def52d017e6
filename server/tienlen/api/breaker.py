"""A circuit breaker for Redis, shared by everything in one worker that talks to it.

Once a Redis call has failed (a timeout, a refused or broken connection), the
breaker is *open* for :data:`COOLDOWN_S`: the rate limiter then answers 503
``store_unavailable`` at once instead of waiting for Redis again, so a stalled
Redis costs a request at most one timeout. After the cool-down the next call
tries Redis again; a success needs no reset, a failure opens the breaker anew.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..store.errors import StoreUnavailableError

COOLDOWN_S = 0.5


class BreakerOpenError(StoreUnavailableError):
    """Redis was not asked: it failed a call less than the cool-down ago (this failure does not open it again)."""


class Breaker:
    """Open for ``cooldown_s`` after each :meth:`trip`; ``clock`` is monotonic seconds."""

    def __init__(self, cooldown_s: float = COOLDOWN_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._open_until = 0.0

    def trip(self) -> None:
        """A Redis call failed: fail fast from now until the cool-down has passed."""
        self._open_until = self._clock() + self.cooldown_s

    @property
    def open(self) -> bool:
        """Whether a Redis call failed less than the cool-down ago."""
        return self._clock() < self._open_until
