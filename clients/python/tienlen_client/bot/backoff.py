"""Capped exponential back-off with jitter: how long the bot runner waits after each failure in a row."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Backoff"]


@dataclass
class Backoff:
    """Pauses that double with each failure in a row, up to ``cap_s``, each drawn between half and all of it.

    ``first_s`` is the ceiling of the first pause; the n-th failure in a row
    waits at most ``min(cap_s, first_s * 2 ** (n - 1))`` and at least half of
    that (the jitter keeps bots that failed together from coming back
    together). :meth:`reset` after a success starts again from ``first_s``.
    """

    first_s: float = 0.5
    cap_s: float = 30.0
    failures: int = 0
    rng: random.Random = field(default_factory=random.Random, repr=False)

    def __post_init__(self) -> None:
        """Check the values."""
        if self.first_s <= 0 or self.cap_s < self.first_s:
            raise ValueError(f"need 0 < first_s <= cap_s, got {self.first_s} and {self.cap_s}")

    def ceiling(self, failures: int) -> float:
        """The longest pause after ``failures`` failures in a row (1 or more)."""
        return min(self.cap_s, self.first_s * 2.0 ** min(max(failures, 1) - 1, 64))

    def next_pause(self) -> float:
        """Count one more failure; the pause to make before trying again."""
        self.failures += 1
        return self.ceiling(self.failures) * self.rng.uniform(0.5, 1.0)

    def reset(self) -> None:
        """A success: the next failure waits the shortest pause again."""
        self.failures = 0
