"""The indexes of live matches, kept after each commit: the live table's (:class:`~tienlen.store.watching.WatchStore`)
and each account's (:class:`~tienlen.store.playing.PlayingIndex`), and reading an account's live matches.

A match enters both when its first hand is dealt (the live table only when it is watchable, scored by the mean
rating of its seats that have one at its table size) and leaves them when it ends or is abandoned; an account
leaves its entry when it leaves the match. Both are hints (a failed change is logged): readers check each entry
against its record and drop what is no longer played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Event, HandStarted
from ..events import FINAL_EVENTS, SeatLeft
from ..store.base import MatchStore
from ..store.records import MatchRecord, MatchStatus
from ..store.watching import LiveEntry
from .rating_model import Rating


@dataclass(frozen=True, slots=True)
class PlayingMatch:
    """A live match an account sits in, for a Watch link: its id and whether others may watch it."""

    match_id: str
    watchable: bool


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


def _players(record: MatchRecord) -> list[str]:
    """The accounts that play the match's seats (not house bots: a seat without a token)."""
    return [s.account for s in record.seats if s.account is not None and s.token_sha256 is not None and not s.left]


class LiveIndex:
    """Keeps the live indexes after each commit of a match (:meth:`committed`, called by the writer)."""

    def __init__(self, store: MatchStore, now: Callable[[], float]) -> None:
        self.store = store
        self.watching = store.watching()
        self.playing = store.playing()
        self.now = now

    def committed(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """After a write with ``events``: index a match just dealt, drop one that ended, or a seat that left."""
        if not events:
            return
        if any(isinstance(e, FINAL_EVENTS) for e in events) or record.status == MatchStatus.FINISHED:
            self.watching.live_remove(record.match_id)
            for seat in record.seats:
                if seat.account is not None:
                    self.playing.remove(seat.account, record.match_id)
            return
        if any(isinstance(e, HandStarted) and e.hand_number == 1 for e in events):
            if record.watchable:
                score = live_score(seat_ratings(self.store, record))
                self.watching.live_add(LiveEntry(record.match_id, score, self.now()))
            for account in _players(record):
                self.playing.add(account, record.match_id)
        for event in events:
            if isinstance(event, SeatLeft):
                left = record.seats[event.seat].account
                if left is not None:
                    self.playing.remove(left, record.match_id)


def live_matches_of(store: MatchStore, account_id: str) -> tuple[PlayingMatch, ...]:
    """The live matches the account plays in now (entries no longer played are dropped from its index)."""
    playing = store.playing()
    ids = playing.matches(account_id)
    if not ids:
        return ()
    found: list[PlayingMatch] = []
    for match_id, record in zip(ids, store.load_many(ids), strict=True):
        if record is None or record.status != MatchStatus.PLAYING or record.seat_of_account(account_id) is None:
            playing.remove(account_id, match_id)
        else:
            found.append(PlayingMatch(match_id, record.watchable))
    return tuple(found)
