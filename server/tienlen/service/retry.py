"""The service's one retry loop: a compare-and-set tried again from a fresh read while its race is lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NoReturn, TypeVar

from .errors import StaleVersion

T = TypeVar("T")

MAX_ATTEMPTS = 8  # tries of one compare-and-set before the caller is told to try again


class Lost:
    """The answer of one attempt that lost its compare-and-set race: try again from a fresh read."""

    def __repr__(self) -> str:
        return "LOST"


LOST: Final = Lost()


def attempts(once: Callable[[], T | Lost], exhausted: Callable[[], T]) -> T:
    """Run ``once`` until it answers something other than :data:`LOST`, at most :data:`MAX_ATTEMPTS` times;
    then ``exhausted()`` (which raises, or answers what giving up means)."""
    for _ in range(MAX_ATTEMPTS):
        done = once()
        if not isinstance(done, Lost):
            return done
    return exhausted()


def kept_changing(message: str = "the match kept changing; try again") -> Callable[[], NoReturn]:
    """Give up with :class:`StaleVersion` (``message``): what the request changes kept changing under it."""

    def refuse() -> NoReturn:
        raise StaleVersion(message)

    return refuse
