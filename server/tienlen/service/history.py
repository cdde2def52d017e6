"""Players' histories: every finished match an account sat in is kept, listed, exported and forgotten on request.

A kept match's chat (its ``chat_said`` events) is kept beside its record, as long as it is (the chat store's
``keep_chat``). Keeping never loses a match: the write that finishes a match registers it as
due (:meth:`HistoryService.finishing`, before its commit), keeps it right after
the commit (:meth:`HistoryService.finished`), and the sweeper keeps whatever is
still due a few seconds later (:meth:`HistoryService.sweep`), dropping entries
whose match did not finish (the write lost its race). Keeping is idempotent: the
record is written once (``SET NX``) and the indexes are sorted sets.

With ``history_days`` a kept match lasts that many days (and leaves the
indexes then); without, it is kept for good.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from ..engine import Event, MatchEnded
from ..events import CHAT_SAID, MatchAbandoned, MatchFinished
from ..store.accounts import AccountRecord
from ..store.base import MatchStore
from ..store.errors import StoreUnavailableError
from ..store.history import Indexed
from ..store.records import MatchRecord
from .cursors import decode_cursor, encode_cursor
from .errors import MatchNotFound, PlayerNotFound
from .kept import DELETED_NAME, KeptMatch, anonymized, decode, encode, kept_of
from .live_seats import LiveSeatsKeeper, PlayingMatch, to_watch
from .notices import Notices
from .rated import HOUSE_BOTS, BoardPage, PlayerRating, RatedService
from .retry import LOST, Lost, attempts

FINISHING: tuple[type[Event], ...] = (MatchEnded, MatchAbandoned)  # the events of a write that finishes a match
KEEP_AFTER_S = 5.0  # when the sweeper keeps a finished match that its request did not
KEEP_LEASE_S = 10.0  # a claimed due entry is due again this long after its claim
KEEP_BATCH = 32
EXPORT_PAGE = 50
_log = logging.getLogger("tienlen.service")


@dataclass(frozen=True, slots=True)
class Player:
    """A player's public profile: the account's name and kind, when it joined, games kept and won, ratings, and how
    many accounts follow it."""

    name: str
    kind: str
    joined_at: float
    games: int
    wins: int
    ratings: tuple[PlayerRating, ...] = ()
    followers: int = 0
    playing: tuple[PlayingMatch, ...] = ()  # its live matches, for Watch links


@dataclass(frozen=True, slots=True)
class KeptPage:
    """A page of a player's kept matches, newest first, and the cursor of the next (None at the end)."""

    matches: tuple[KeptMatch, ...]
    next_cursor: str | None


def finishes(events: Sequence[Event]) -> bool:
    """Whether a write with these events finishes its match (played out or abandoned)."""
    return any(isinstance(event, FINISHING) for event in events)


class HistoryService:
    """Keeps finished matches of accounts, answers profiles, match lists and exports, and forgets an account."""

    def __init__(
        self,
        store: MatchStore,
        history_days: int | None = None,
        now: Callable[[], float] = time.time,
        notices: Notices | None = None,
    ) -> None:
        self.store = store
        self.notices = notices or Notices(store, now)
        self.kept = store.history()
        self.accounts = store.accounts()
        self.history_days = history_days
        self.now = now
        self.rated = RatedService(store)
        self.on_kept: Callable[[MatchRecord], None] | None = None  # told of every match kept (tournaments record it)
        self.on_forget: Callable[[str], None] | None = None  # told of every account erased (tournaments scrub it)

    # ----- keeping ------------------------------------------------------------------------

    def finishing(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """Before the commit of a write: if it finishes a match an account sat in, register the match as due."""
        if finishes(events) and any(seat.account for seat in record.seats):
            self.kept.mark_due(record.match_id, self.now() + KEEP_AFTER_S)

    def finished(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """After the commit of a write: keep the match it finished (a failure is left to the sweeper)."""
        if not (finishes(events) and any(seat.account for seat in record.seats)):
            return
        try:
            self.keep(record.match_id)
        except StoreUnavailableError as error:
            _log.warning("keeping match %s is left to the sweeper: %s", record.match_id, error)

    def keep(self, match_id: str) -> bool:
        """Keep the match if it finished and an account sat in it; whether it is kept. Safe to run again."""
        record = self.store.load(match_id).record
        if record is None or record.status != "finished" or not any(s.account for s in record.seats):
            self.kept.done_due(match_id)
            return False
        present = {s.account for s in record.seats if s.account and self.accounts.get(s.account) is not None}
        moves = self.rated.settle(record, present) if record.rated else None  # before the record: it shows them
        events = self.store.all_events(match_id)
        kept = kept_of(record, events, present, moves)
        ttl = None if self.history_days is None else self.history_days * 86400
        first = self.kept.put(match_id, encode(kept), ttl)
        later = self.store.events(match_id, events[-1]["seq"] if events else 0) or []  # said while keeping
        self.store.chat().keep_chat(match_id, [e for e in (*events, *later) if e["type"] == CHAT_SAID])
        indexed = [Indexed(s.account_id, s.place == 1) for s in kept.seats if s.account_id is not None]
        self.kept.index(match_id, int(kept.ended_at * 1000), indexed, self._keep_from_ms())
        if self.on_kept is not None:
            self.on_kept(record)  # before done_due: a failure leaves the match due, kept again (idempotent)
        self.kept.done_due(match_id)
        if first:
            self.notices.tell_many(
                {
                    s.account_id: [MatchFinished(match_id, s.seat, s.place, s.rating_before, s.rating_after)]
                    for s in kept.seats
                    if s.account_id is not None and record.seats[s.seat].token_sha256 is not None  # not a house bot
                }
            )
        return True

    def sweep(self, limit: int = KEEP_BATCH, dispatch: Callable[[Callable[[], object]], object] | None = None) -> int:
        """Keep the matches still due (their request died or failed to); how many were claimed."""
        now = self.now()
        claimed = 0
        for match_id, seen_ms in self.kept.due_kept(now, limit):
            if not self.kept.claim_due(match_id, seen_ms, now + KEEP_LEASE_S):
                continue
            claimed += 1
            if dispatch is None:
                self.keep(match_id)
            else:
                dispatch(partial(self.keep, match_id))
        return claimed

    def _keep_from_ms(self) -> int | None:
        return None if self.history_days is None else int((self.now() - self.history_days * 86400) * 1000)

    # ----- reading ------------------------------------------------------------------------

    def replay(self, match_id: str) -> dict[str, Any]:
        """The replay of a kept match; :class:`MatchNotFound` when none is kept."""
        return self.kept_match(match_id).replay()

    def kept_match(self, match_id: str) -> KeptMatch:
        """A kept match; :class:`MatchNotFound` when none is kept."""
        blob = self.kept.get(match_id)
        if blob is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return decode(blob)

    def player(self, name: str) -> Player:
        """The public profile of the account named ``name`` (any case)."""
        account = self._account(name)
        games, wins = self.kept.counts(account.account_id, self._keep_from_ms())
        ratings = self.rated.of(account.account_id)
        followers = self.store.follows().followers_count(account.account_id)
        playing = tuple(LiveSeatsKeeper(self.store, self.now).live(account.account_id))
        return Player(account.name, account.kind, account.created_at, games, wins, ratings, followers, playing)

    def leaderboard(self, players: int, kind: str, cursor: str | None, limit: int) -> BoardPage:
        """A page of the leaderboard of ``kind`` accounts at ``players`` seats, best first, each line with the
        newest live match of its account that may be watched (``watch``; a house bot, seated without a token,
        plays no indexed match, so it has none). The accounts' live matches: one index read each, their records
        in one read."""
        listed = self.rated.board(players, kind, cursor, limit)
        playing = LiveSeatsKeeper(self.store, self.now).live_many(listed.accounts)
        entries = tuple(
            replace(entry, watch=to_watch(playing[account_id]))
            for account_id, entry in zip(listed.accounts, listed.entries, strict=True)
        )
        return BoardPage(entries, listed.next_cursor)

    def matches(self, name: str, cursor: str | None, limit: int) -> KeptPage:
        """The player's kept matches, newest first, a page of ``limit`` after ``cursor``."""
        account = self._account(name)
        before = None if cursor is None else decode_cursor(cursor)
        self.kept.counts(account.account_id, self._keep_from_ms())  # trims what is past the bound
        found: list[KeptMatch] = []
        more = False
        while not more:
            page = self.kept.page(account.account_id, before, limit - len(found) + 1, 0, None)
            if not page:
                break
            for (match_id, ended_ms), kept in zip(page, self._load(account.account_id, page), strict=True):
                if len(found) == limit:
                    more = True  # one more follows the page
                    break
                before = (ended_ms, match_id)
                if kept is not None:
                    found.append(kept)
        return KeptPage(tuple(found), encode_cursor(*before) if more and before is not None else None)

    def export(self, name: str, since: float | None, until: float | None) -> Iterator[KeptMatch]:
        """The player's kept matches with ``since`` <= end < ``until``, newest first, read a page at a time.

        :class:`PlayerNotFound` at once (not when the first match is read).
        """
        account = self._account(name)
        since_ms = 0 if since is None else int(since * 1000)
        until_ms = None if until is None else int(until * 1000)
        return self._exported(account.account_id, since_ms, until_ms)

    def _exported(self, account_id: str, since_ms: int, until_ms: int | None) -> Iterator[KeptMatch]:
        before: tuple[int, str] | None = None
        while True:
            page = self.kept.page(account_id, before, EXPORT_PAGE, since_ms, until_ms)
            if not page:
                return
            for (match_id, ended_ms), kept in zip(page, self._load(account_id, page), strict=True):
                before = (ended_ms, match_id)
                if kept is not None:
                    yield kept

    def _load(self, account_id: str, page: list[tuple[str, int]]) -> list[KeptMatch | None]:
        """The kept records of a page (an expired one leaves the index)."""
        found: list[KeptMatch | None] = []
        for (match_id, _), blob in zip(page, self.kept.get_many([m for m, _ in page]), strict=True):
            if blob is None:
                self.kept.unindex(account_id, match_id)
                found.append(None)
                continue
            kept = decode(blob)
            found.append(replace(kept, seat=kept.seat_of(account_id)))
        return found

    def _account(self, name: str) -> AccountRecord:
        account = self.accounts.find(name)
        if account is None and name.lower() in HOUSE_BOTS:  # made when first needed (a profile, a challenge)
            account = self.rated.house_bots()[name.lower()]
        if account is None:
            raise PlayerNotFound(f"no player is named {name!r}")
        return account

    # ----- forgetting ---------------------------------------------------------------------

    def forget(self, account_id: str, name: str) -> None:
        """Erase the account from what is kept: its seats in kept matches become :data:`DELETED_NAME`, its name
        leaves the records and event streams of the live matches it sat in, and its indexes go."""
        for match_id in self.kept.seated(account_id):
            self._scrub(match_id, account_id, name)
        for match_id in self.kept.matches_of(account_id):
            blob = self.kept.get(match_id)
            if blob is not None:
                self.kept.replace(match_id, encode(anonymized(decode(blob), account_id)))
        self.kept.drop_indexes(account_id)
        self.store.chat().forget(account_id)
        self.rated.forget(account_id)
        self.notices.inbox.forget(account_id)
        self.store.follows().forget(account_id)
        self.store.puzzles().forget(account_id)
        self.store.live_seats().forget(account_id)
        queue = self.store.queue()
        held = queue.held(account_id)
        found = None if held is None else queue.get(held)
        if found is not None:  # a waiting ticket leaves the queue (one being matched is seated as "(deleted)")
            queue.leave(found)
        challenges = self.store.challenges()
        sent_or_received = set(challenges.of(account_id))
        others = {
            other
            for record in (challenges.load(c) for c in sent_or_received)
            if record is not None
            for other in record.accounts()
            if other != account_id
        }
        for other in others:  # their inboxes named it (from, to, by): those events go
            self.notices.inbox.drop_challenges(other, sent_or_received)
        challenges.forget(account_id)
        if self.on_forget is not None:
            self.on_forget(account_id)

    def _scrub(self, match_id: str, account_id: str, name: str) -> None:
        """Take the account's name and id out of a live match's record and its events."""

        def once() -> Lost | None:
            record = self.store.load(match_id).record
            if record is None:
                return None
            held = [s for s in record.seats if s.account == account_id]
            if not held and record.host != account_id:
                return None
            expected = record.version
            for seat in held:
                seat.name, seat.account = DELETED_NAME, None
            if record.host == account_id:
                record.host = None
            record.version += 1
            events = self.store.all_events(match_id)
            changed = False
            for event in events:
                for key in ("name", "account"):  # a seat's name; a chat message's speaker and account
                    if event.get(key) == name:
                        event[key] = DELETED_NAME
                        changed = True
            if self.kept.scrub(match_id, expected, record.to_json(), record.version, events if changed else []):
                return None
            return LOST

        def exhausted() -> None:
            raise StoreUnavailableError(f"the match {match_id} kept changing while the account was erased")

        attempts(once, exhausted)
