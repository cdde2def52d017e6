"""A plain dict cache that empties itself when full.

Bots memoize hot pure functions (plans, answers, classifications). Keys are
ints or tuples of ints and values ints, floats or tuples, so the garbage
collector need not walk these large caches (an ``lru_cache`` keeps a linked
list node per entry, which it must walk).
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

DEFAULT_LIMIT = 1 << 18


class BoundedCache(dict[K, V]):
    """A dict with :meth:`put`, which clears everything first once ``limit`` entries are held."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: K, value: V) -> V:
        """Store and return ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
