"""The live table's index of live matches (:class:`~tienlen.store.watching.WatchStore`), kept after each commit.

A watchable match enters it when its first hand is dealt, scored by the mean rating of its seats that have one at
its table size, and leaves it when it ends or is abandoned. It is a hint (a failed change is logged): the reader
checks each entry against its record and drops what is no longer played. Each account's own live matches (a
profile's ``playing``, friends' presence) are the live-seats index's (:mod:`.live_seats`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine import Event, HandStarted
from ..events import FINAL_EVENTS
from ..store.base import MatchStore
from ..store.records import MatchRecord, MatchStatus
from ..store.watching import LiveEntry
from .rating_model import Rating


def seat_ratings(store: MatchStore, record: MatchRecord) -> list[int | None]:
    """Each seat's account's rating now at the match's table size (None: no account, or no rating there)."""
    ratings = store.ratings()
    players = record.rules.players
    shown: list[int | None] = []
    for seat in record.seats:
        kept = None if seat.account is None else ratings.ratings(seat.account).get(players)
        shown.append(None if kept is None else Rating.from_dict(kept).shown)
    return shown


def live_score(ratings: Sequence[int | None]) -> float:
    """A live match's score: the mean rating of its seats that have one (0 when none has)."""
    rated = [r for r in ratings if r is not None]
    return sum(rated) / len(rated) if rated else 0.0


class LiveIndex:
    """Keeps the live table's index after each commit of a match (:meth:`committed`, called by the writer)."""

    def __init__(self, store: MatchStore, now: Callable[[], float]) -> None:
        self.store = store
        self.watching = store.watching()
        self.now = now

    def committed(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """After a write with ``events``: index a watchable match just dealt, drop one that ended."""
        if not events:
            return
        if any(isinstance(e, FINAL_EVENTS) for e in events) or record.status == MatchStatus.FINISHED:
            self.watching.live_remove(record.match_id)
            return
        if record.watchable and any(isinstance(e, HandStarted) and e.hand_number == 1 for e in events):
            score = live_score(seat_ratings(self.store, record))
            self.watching.live_add(LiveEntry(record.match_id, score, self.now()))
