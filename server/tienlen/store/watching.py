"""What the watching store is: who follows a match lately (its spectators), the live matches, the featured one.

The service (:mod:`tienlen.service.watching`) is written against :class:`WatchStore`; :mod:`.redis_watching`
keeps it in Redis. Every part is a hint: the match record is the truth (a live match that is no longer played
is dropped when it is read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class LiveEntry:
    """A live match in the index: its id, its score (the mean rating of its rated seats; 0: none) and when its
    first hand was dealt (epoch seconds)."""

    match_id: str
    score: float
    started_at: float


class WatchStore(Protocol):
    """Spectators by match, the index of live matches, and the match a moderator featured."""

    def seen(self, match_id: str, watcher: str, at: float, window_s: float) -> None:
        """``watcher`` follows the match at ``at`` (epoch seconds); those not seen for ``window_s`` are dropped."""
        ...

    def gone(self, match_id: str, watcher: str) -> None:
        """``watcher`` stopped following the match."""
        ...

    def counts(self, match_ids: Sequence[str], since: float) -> list[int]:
        """How many watchers each match had seen at or after ``since``, in one round trip."""
        ...

    def live_add(self, entry: LiveEntry) -> None:
        """Index a match that is being played (and may be watched)."""
        ...

    def live_remove(self, match_id: str) -> None:
        """Take a match off the live index (it ended, or is no longer watchable)."""
        ...

    def started(self, match_id: str) -> float | None:
        """When an indexed live match's first hand was dealt (None: it is not indexed)."""
        ...

    def live_best(self, count: int) -> list[LiveEntry]:
        """Up to ``count`` live matches, highest score first."""
        ...

    def feature(self, match_id: str | None) -> None:
        """Feature ``match_id`` on the live table (None: feature none)."""
        ...

    def featured(self) -> str | None:
        """The featured match's id, or None."""
        ...
