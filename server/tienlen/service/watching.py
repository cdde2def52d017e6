"""Watching matches: who may read a match, counting its spectators, the live table and featuring a match.

- A match is watchable unless its host turned watching off (``watchable: false``): then its public reads (the
  match, its events and stream, its replay) answer only a reader that is one of its seats (a seat's token, or a
  ``play`` token of an account seated in it); anyone else is refused with :class:`NotWatchable`.
- Its spectators are the readers that followed it in the last :data:`WINDOW_S` and are not its seats: a stream
  counts while open, a long poll when it names a ``watcher``. Each refreshes its entry at most every
  :data:`REFRESH_S` (a stream on its batches and heartbeats), so many spectators cost few writes.
- The live table (:meth:`Watching.live`) shows the featured match while it is played and watchable, else the
  live match whose seats' mean rating is highest (ties: the newest), and up to :data:`OTHERS` more live matches
  after it, best first (never the one it shows).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..engine import RuleSet
from ..store.records import MatchRecord, MatchStatus, token_digest
from ..store.watching import LiveEntry
from .core import Core
from .errors import MatchNotFound, MatchNotPlaying, NotWatchable
from .kept import KeptMatch
from .live_index import live_score, seat_ratings
from .states import MatchState, State, match_state

WINDOW_S = 30.0  # a spectator counts this long after it was last seen
REFRESH_S = 5.0  # a spectator's entry is written at most this often (per connection, per worker for long polls)
LIVE_SCAN = 50  # live matches one read of the live table looks at, best first
OTHERS = 6  # more live matches the live table lists after its match
_LIVE_ROUNDS = 4  # reads of the live index one live table makes at most (each drops what is no longer played)
_REMEMBERED = 20_000  # long polls' last refreshes this worker remembers before it forgets them all


@dataclass(frozen=True, slots=True)
class LiveSeat:
    """A seat of the live match: its player's name, its bot level, the account's rating at this table size."""

    seat: int
    name: str | None
    bot: str | None
    rating: int | None


@dataclass(frozen=True, slots=True)
class LiveMatch:
    """The match on the live table: who plays it, how many watch, whether a moderator featured it."""

    match_id: str
    rules: RuleSet
    rated: bool
    seats: tuple[LiveSeat, ...]
    spectators: int
    featured: bool
    hand_number: int
    started_at: float


@dataclass(frozen=True, slots=True)
class LiveTable:
    """The live table: the match to watch now (None: no watchable match is played) and more live matches, best
    first (at most :data:`OTHERS`, never ``match``)."""

    match: LiveMatch | None
    others: tuple[LiveMatch, ...]


class Spectator:
    """One spectator's following of a match (a stream): :meth:`beat` on each batch or heartbeat, :meth:`close` at
    the end. A seat's own stream is no spectator (``counted`` False: it does nothing)."""

    def __init__(self, watching: Watching, match_id: str, counted: bool) -> None:
        self._watching = watching
        self._match_id = match_id
        self._id = secrets.token_hex(8)
        self._counted = counted
        self._last = -REFRESH_S

    def beat(self) -> None:
        """The stream is still open: refresh its entry, at most every :data:`REFRESH_S`."""
        now = time.monotonic()
        if self._counted and now - self._last >= REFRESH_S:
            self._last = now
            self._watching.seen(self._match_id, self._id)

    def close(self) -> None:
        """The stream ended: it no longer counts."""
        if self._counted:
            self._counted = False
            self._watching.core.store.watching().gone(self._match_id, self._id)


class Watching:
    """Who may read a match, its spectators, and the live table, over the shared :class:`~.core.Core`."""

    def __init__(self, core: Core, clock: Callable[[], float] = time.monotonic) -> None:
        self.core = core
        self.store = core.store.watching()
        self._clock = clock
        self._polls: dict[tuple[str, str], float] = {}
        self._watchable: dict[str, bool] = {}
        self._lock = threading.Lock()

    # ----- who may read ---------------------------------------------------------------------------

    def reader_seat(self, record: MatchRecord, token: str | None) -> int | None:
        """The seat the token reads the match as (a seat's token, or a ``play`` token of an account seated in
        it), or None for anyone else; :class:`NotWatchable` for anyone else when watching is off."""
        return reader_seat(self.core, record, token)

    def readable(self, match_id: str, token: str | None) -> tuple[MatchRecord, int | None]:
        """The match and the reader's seat (None: a spectator); :class:`MatchNotFound`, :class:`NotWatchable`."""
        record = self.core.get(match_id)
        self._remember(record)
        return record, self.reader_seat(record, token)

    def admit(self, match_id: str, token: str | None, *, seat_needed: bool) -> int | None:
        """The seat a follower of the match reads it as (None: a spectator, or not asked: ``seat_needed`` False);
        :class:`NotWatchable` for a spectator of a match whose host turned watching off.

        Whether a match is watchable never changes, so this worker remembers it: a spectator of a watchable
        match (no token, or its seat not needed) is admitted without reading the match again. A match that is
        gone is answered by the read that follows (its events: 404).
        """
        if token is None or not seat_needed:
            with self._lock:
                known = self._watchable.get(match_id)
            if known is True:
                return None
        _, seat = self.readable(match_id, token)
        return seat

    def _remember(self, record: MatchRecord) -> None:
        with self._lock:
            if len(self._watchable) >= _REMEMBERED:
                self._watchable.clear()
            self._watchable[record.match_id] = record.watchable

    def public(self, match_id: str, token: str | None) -> MatchState:
        """The public state of a match, with its spectators counted (``GET /v1/matches/{id}``)."""
        record, _ = self.readable(match_id, token)
        return self.counted(match_state(record))

    def counted(self, state: State) -> State:
        """``state`` with its match's spectators now."""
        return replace(state, spectators=self.spectators(state.match_id))

    # ----- counting ---------------------------------------------------------------------------------

    def spectators(self, match_id: str) -> int:
        """Readers that followed the match in the last :data:`WINDOW_S` and are not its seats."""
        return self.store.counts([match_id], self.core.now() - WINDOW_S)[0]

    def seen(self, match_id: str, watcher: str) -> None:
        """``watcher`` follows the match now."""
        self.store.seen(match_id, watcher, self.core.now(), WINDOW_S)

    def spectator(self, match_id: str, seat: int | None) -> Spectator:
        """A stream's spectator entry (none for a seat's own stream), counted from now."""
        spectator = Spectator(self, match_id, seat is None)
        spectator.beat()
        return spectator

    def polled(self, match_id: str, watcher: str) -> None:
        """A long poll named ``watcher`` reads the match: refresh it unless this worker did in :data:`REFRESH_S`."""
        key, now = (match_id, watcher), self._clock()
        with self._lock:
            last = self._polls.get(key)
            if last is not None and now - last < REFRESH_S:
                return
            if len(self._polls) >= _REMEMBERED:
                self._polls.clear()
            self._polls[key] = now
        self.seen(match_id, watcher)

    # ----- the live table ---------------------------------------------------------------------------

    def live(self) -> LiveTable:
        """The featured match (while played and watchable), else the best live match, and up to :data:`OTHERS`
        more live matches best first (ties: the newest); their spectators are counted in one store call."""
        shown: list[tuple[MatchRecord, float | None, bool]] = []
        featured = self.store.featured()
        if featured is not None:
            record = self.core.store.load(featured).record
            if record is not None and _live(record):
                shown.append((record, self.store.started(featured), True))
        wanted = OTHERS + (0 if shown else 1)
        for entry, record in self._best_alive(wanted, featured if shown else None):
            shown.append((record, entry.started_at, False))
        if not shown:
            return LiveTable(None, ())
        counts = self.store.counts([record.match_id for record, _, _ in shown], self.core.now() - WINDOW_S)
        matches = [
            self._live_match(record, started_at, featured=is_featured, spectators=count)
            for (record, started_at, is_featured), count in zip(shown, counts, strict=True)
        ]
        return LiveTable(matches[0], tuple(matches[1:]))

    def _best_alive(self, wanted: int, shown: str | None) -> list[tuple[LiveEntry, MatchRecord]]:
        """Up to ``wanted`` indexed matches still played and watchable (not ``shown``), best first (ties: the
        newest). What is no longer live leaves the index; while some did and too few were found, it is read again
        (a few rounds at most)."""
        found: dict[str, tuple[LiveEntry, MatchRecord]] = {}
        for _ in range(_LIVE_ROUNDS):
            entries = [e for e in self.store.live_best(LIVE_SCAN) if e.match_id not in found and e.match_id != shown]
            records = self.core.store.load_many([e.match_id for e in entries]) if entries else []
            dropped = False
            for entry, record in zip(entries, records, strict=True):
                if record is None or not _live(record):
                    self.store.live_remove(entry.match_id)
                    dropped = True
                else:
                    found[entry.match_id] = (entry, record)
            if not dropped or len(found) >= wanted:
                break
        best = sorted(found.values(), key=lambda pair: (pair[0].score, pair[0].started_at), reverse=True)
        return best[:wanted]

    def _live_match(
        self, record: MatchRecord, started_at: float | None, *, featured: bool, spectators: int
    ) -> LiveMatch:
        engine = record.engine
        assert engine is not None
        ratings = seat_ratings(self.core.store, record)
        seats = tuple(
            LiveSeat(i, s.name, None if s.taken_over else s.bot, rating)
            for i, (s, rating) in enumerate(zip(record.seats, ratings, strict=True))
        )
        return LiveMatch(
            record.match_id,
            record.rules,
            record.rated,
            seats,
            spectators,
            featured,
            engine.hand_number,
            record.created_at if started_at is None else started_at,
        )

    def feature(self, match_id: str) -> None:
        """Feature the match on the live table (a moderator's act): it must be played and watchable."""
        record = self.core.store.load(match_id).record
        if record is None:
            raise MatchNotFound(f"no match {match_id!r}")
        if not record.watchable:
            raise NotWatchable("the host of this match turned watching off: it cannot be featured")
        if record.status != MatchStatus.PLAYING:
            raise MatchNotPlaying("only a match being played can be featured")
        self.store.feature(match_id)

    def unfeature(self) -> None:
        """Feature no match (a moderator's act): the live table shows the best live match again."""
        self.store.feature(None)


def playing_account(core: Core, token: str | None) -> str | None:
    """The id of the account a ``play``-scope token acts for; None for no token, or any other token."""
    grant = None if token is None else core.accounts.grant(token_digest(token))
    return None if grant is None or "play" not in grant.scopes else grant.account_id


def reader_seat(core: Core, record: MatchRecord, token: str | None) -> int | None:
    """The seat ``token`` reads the match as (a seat's token, or a ``play`` token of an account seated in it), or
    None (a spectator); :class:`NotWatchable` for a spectator of a match whose host turned watching off."""
    seat = None if token is None else record.seat_of_token(token)
    if seat is None and token is not None:
        account = playing_account(core, token)
        seat = None if account is None else record.seat_of_account(account)
    if seat is None and not record.watchable:
        raise NotWatchable("the host of this match turned watching off: only its seats may read it")
    return seat


def check_kept_reader(core: Core, kept: KeptMatch, token: str | None) -> None:
    """:class:`NotWatchable` unless the kept match is watchable or the token's account sat in it."""
    if kept.watchable:
        return
    account = playing_account(core, token)
    if account is None or all(seat.account_id != account for seat in kept.seats):
        raise NotWatchable("the host of this match turned watching off: only its seats may read it")


def _live(record: MatchRecord) -> bool:
    return record.status == MatchStatus.PLAYING and record.watchable


__all__ = [
    "OTHERS",
    "REFRESH_S",
    "WINDOW_S",
    "LiveMatch",
    "LiveSeat",
    "LiveTable",
    "Spectator",
    "Watching",
    "live_score",
]
