"""After a match's write: keep each seated account's live matches, and tell its followers it started one.

The index (:class:`~tienlen.store.live_seats.LiveSeats`) answers where an account plays for
``GET /v1/me/following``. A match enters it for each account seated at a remote seat when its first hand is
dealt, and leaves it when the match ends (played out or abandoned) or the account's seat is left or taken over
by a bot. The records are the truth: :meth:`LiveSeatsKeeper.live` prunes on read whatever they no longer hold.

When a seated account's match is dealt, the first :data:`MAX_FRIENDS_TOLD` of its followers whose ``friends``
inbox setting is on (in the order they followed) are told ``friend_started``. Like every notice it is told
after the commit: Redis failing loses the notice or the index's change, never the write (an entry left stale is
pruned on read; an add lost shows the account not playing that match).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine import Event, HandStarted, MatchEnded
from ..events import FriendStarted, InboxEvent, MatchAbandoned, SeatLeft, SeatTakenOver
from ..store.base import MatchStore
from ..store.errors import StoreUnavailableError
from ..store.records import MatchRecord, MatchStatus

MAX_FRIENDS_TOLD = 1000
"""At most this many followers are told ``friend_started`` for one account's match start."""

LIVE_CHANGES: tuple[type[Event], ...] = (HandStarted, SeatLeft, SeatTakenOver, MatchEnded, MatchAbandoned)
"""The events after which a match's seated accounts may enter or leave the index."""

log = logging.getLogger("tienlen.service")


@dataclass(frozen=True, slots=True)
class PlayingMatch:
    """A live match an account plays in: its id, whether it may be watched, its seats, rated, when it was dealt."""

    match_id: str
    watchable: bool
    players: int
    rated: bool
    started_at: float


def plays_in(record: MatchRecord, account_id: str) -> bool:
    """Whether the account plays the match now: dealt, not over, at a seat of its own nobody left or took over."""
    if record.status is not MatchStatus.PLAYING:
        return False
    return any(seat.account == account_id and seat.remote and not seat.left for seat in record.seats)


def first_dealt(events: Sequence[Event]) -> bool:
    """Whether a write with these events dealt its match's first hand."""
    return any(isinstance(event, HandStarted) and event.hand_number == 1 for event in events)


class LiveSeatsKeeper:
    """Keeps the live-seats index after each write, reads it pruned, and finds whom to tell of a start."""

    def __init__(self, store: MatchStore, now: Callable[[], float]) -> None:
        self.store = store
        self.index = store.live_seats()
        self.follows = store.follows()
        self.accounts = store.accounts()
        self.now = now

    def committed(self, record: MatchRecord, events: Sequence[Event]) -> dict[str, list[InboxEvent]]:
        """After a write: enter or take out its seated accounts; the ``friend_started`` notices it calls for.

        A house bot's seat (an account without a token, never left) is not indexed: it plays everywhere at once.

        A store failure is logged, not raised: a stale entry is pruned on read, and a notice lost is only a notice.
        """
        if not any(isinstance(event, LIVE_CHANGES) for event in events):
            return {}
        started = first_dealt(events)
        seated = [s.account for s in record.seats if s.account is not None and (s.token_sha256 or s.left)]
        try:
            for account_id in dict.fromkeys(seated):
                if plays_in(record, account_id):
                    if started:
                        self.index.add(account_id, record.match_id, self.now())
                else:
                    self.index.remove(account_id, record.match_id)
            return self._friends_told(record) if started else {}
        except StoreUnavailableError as error:
            log.warning("live seats of match %s not kept: %s", record.match_id, error)
            return {}

    def _friends_told(self, record: MatchRecord) -> dict[str, list[InboxEvent]]:
        """``friend_started`` for the first fans of each account that plays the match (not those seated in it)."""
        seated = {seat.account for seat in record.seats if seat.account is not None}
        told: dict[str, list[InboxEvent]] = {}
        for account_id in dict.fromkeys(s.account for s in record.seats if s.account is not None):
            if not plays_in(record, account_id):
                continue
            account = self.accounts.get(account_id)
            if account is None:
                continue
            event = FriendStarted(account.name, record.match_id, record.watchable, len(record.seats), record.rated)
            for fan in self.follows.fans(account_id, MAX_FRIENDS_TOLD):
                if fan not in seated:
                    told.setdefault(fan, []).append(event)
        return told

    def live(self, account_id: str) -> list[PlayingMatch]:
        """The account's live matches, oldest first, each checked against its record (what is not is pruned)."""
        return self.live_many([account_id])[account_id]

    def live_many(self, account_ids: Sequence[str]) -> dict[str, list[PlayingMatch]]:
        """Each account's live matches, oldest first, as :meth:`live`: one index read an account, and the records
        of all their matches in one read."""
        listed = {account_id: self.index.of(account_id) for account_id in dict.fromkeys(account_ids)}
        match_ids = list(dict.fromkeys(match_id for entries in listed.values() for match_id, _ in entries))
        records = dict(zip(match_ids, self.store.load_many(match_ids), strict=True)) if match_ids else {}
        found: dict[str, list[PlayingMatch]] = {}
        for account_id, entries in listed.items():
            playing = found[account_id] = []
            for match_id, started_at in entries:
                record = records[match_id]
                if record is None or not plays_in(record, account_id):
                    self.index.remove(account_id, match_id)
                    continue
                playing.append(PlayingMatch(match_id, record.watchable, len(record.seats), record.rated, started_at))
        return found


def to_watch(playing: Sequence[PlayingMatch]) -> str | None:
    """The id of the newest watchable match of an account's live matches (given oldest first), or None."""
    return next((match.match_id for match in reversed(playing) if match.watchable), None)
