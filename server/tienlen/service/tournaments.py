"""Tournaments: accounts create them, enter and withdraw before the start; everyone reads them, their standings and
their feed. Play (start, rounds, results, the end) is :mod:`.tournament_rounds`; the pure rules are
:mod:`tienlen.tournaments`.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from functools import partial

from ..engine import RulesError, resolve_rules
from ..events import TournamentCancelled
from ..store.errors import StoreUnavailableError
from ..store.events import Event
from ..store.records import MatchRecord
from ..store.tournaments import EntrantRecord, Placing, TournamentRecord
from ..tournaments import Terms, TermsError, standings, verify_terms
from .accounts import authorized
from .core import Core
from .cursors import decode_cursor, encode_cursor
from .errors import (
    BadTerms,
    BotsNotAdmitted,
    NotCreator,
    NotEntered,
    PlayerNotFound,
    ServiceError,
    TooManyTournaments,
    TournamentFull,
    TournamentNotFound,
    TournamentNotOpen,
)
from .kept import DELETED_NAME
from .rating_model import Rating
from .tournament_records import OVER, entrants_of, results_of, summary_of, terms_dict, terms_of, view_of
from .tournament_rounds import UNCHANGED, TournamentRounds, Update
from .tournament_views import FeedPage, StandingsView, TournamentPage, TournamentView

MAX_OPEN = 3  # open tournaments an account may have created at a time
_log = logging.getLogger("tienlen.service")
WHEN_FULL = 4102444800.0  # the "starts when full" tournaments sort after every dated one (2100-01-01)


class Tournaments:
    """Tournaments' entries and reads, over the shared core; :attr:`rounds` plays them."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.rounds = TournamentRounds(core)
        self.store = self.rounds.store
        core.history.on_kept = self._kept
        core.history.on_forget = self.forget

    def _kept(self, match: MatchRecord) -> None:
        """A kept match: a tournament table's result is recorded (a refusal is left to the sweeper)."""
        if match.tournament is None:
            return
        try:
            self.rounds.record(match)
        except ServiceError as error:
            _log.warning("tournament %s: recording %s left to the sweeper: %s", match.tournament, match.match_id, error)

    def forget(self, account_id: str) -> None:
        """The account was deleted: its name leaves every tournament it created or entered (entrants, tables,
        results, creator; its id stays, an opaque number the standings count by), and its placings go."""

        def scrub(record: TournamentRecord, done: Update) -> None:
            if record.creator == account_id:
                record.creator_name = DELETED_NAME
            for entrant in record.entrants:
                if entrant.account_id == account_id:
                    entrant.name = DELETED_NAME
            for rnd in record.rounds:
                for table in rnd.tables:
                    table.sitters = [(who, DELETED_NAME if who == account_id else name) for who, name in table.sitters]
            for result in record.results:
                result["sitters"] = [
                    [who, DELETED_NAME if who == account_id else name] for who, name in result["sitters"]
                ]

        for tournament_id in self.store.parts_of(account_id):
            record = self.store.load(tournament_id)
            if record is None:
                continue
            names = {e.name for e in record.entrants if e.account_id == account_id}
            names |= {record.creator_name} if record.creator == account_id else set()
            self.rounds.update(tournament_id, scrub)
            for name in names - {DELETED_NAME}:
                self.store.rename_in_feed(tournament_id, name, DELETED_NAME)
        self.store.forget(account_id)

    # ----- creating and entering --------------------------------------------------------

    def create(self, token: str | None, terms: Terms) -> TournamentView:
        """Create a tournament of the token's account (scope ``play``): 422 ``bad_terms``, 409 at the open cap."""
        account = authorized(self.core.accounts, token, "play")
        try:
            verify_terms(terms)
            resolve_rules({"preset": terms.preset, "hands": terms.hands}, players=terms.players)
        except TermsError as error:
            raise BadTerms(error.message, errors={error.field: [error.message]}) from None
        except RulesError as error:
            raise BadTerms(f"preset: {error}", errors={"preset": [str(error)]}) from None
        now = self.core.now()
        if terms.starts_at is not None and terms.starts_at <= now:
            raise BadTerms("starts_at: must be in the future", errors={"starts_at": ["must be in the future"]})
        tournament_id = secrets.token_hex(10)
        if not self.store.claim_open(account.account_id, tournament_id, MAX_OPEN):
            raise TooManyTournaments(f"an account may have {MAX_OPEN} open tournaments at a time: cancel one first")
        record = TournamentRecord(
            tournament_id,
            1,
            account.account_id,
            account.name,
            terms_dict(terms),
            "open",
            now,
            deal_secret=secrets.token_bytes(32).hex(),
        )
        if not self.store.save(record, None):  # an id of 64 random bits is never taken
            self.store.release_open(account.account_id, tournament_id)
            raise StoreUnavailableError("could not store the tournament")
        self.store.list_in(tournament_id, "open", terms.starts_at or WHEN_FULL)
        self.store.note_part(account.account_id, tournament_id)
        return view_of(record, account.account_id)

    def join(self, tournament_id: str, token: str | None) -> tuple[TournamentView, bool]:
        """Enter the token's account (scope ``play``); (the tournament, whether entered now). Filling a "when
        full" tournament starts it."""
        account = authorized(self.core.accounts, token, "play")
        bot = account.kind == "bot"
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> bool:
            terms = terms_of(record.terms)
            mine = next((e for e in record.entrants if e.account_id == account.account_id), None)
            if mine is not None and not mine.withdrawn:
                record.version = UNCHANGED
                return False
            if record.status != "open":
                raise TournamentNotOpen(f"the tournament is {record.status}: entries are closed")
            if bot and not terms.bots:
                raise BotsNotAdmitted("this tournament admits no bot accounts")
            present = sum(not e.withdrawn for e in record.entrants)
            if present >= terms.max_entrants:
                raise TournamentFull(f"the tournament has its {terms.max_entrants} entrants")
            kept = self.core.history.rated.ratings.ratings(account.account_id).get(terms.players)
            rating = (Rating.new() if kept is None else Rating.from_dict(kept)).shown
            if mine is not None:
                mine.withdrawn = False
                mine.rating = rating
            else:
                number = len(record.entrants) + 1
                record.entrants.append(EntrantRecord(account.account_id, account.name, bot, rating, number))
                done.after.append(partial(self.store.note_part, account.account_id, tournament_id))
            done.feed.append({"type": "entrant_joined", "name": account.name, "bot": bot})
            if terms.starts_at is None and present + 1 >= terms.max_entrants:
                self.rounds.start(record, done, now)
            return True

        created = self.rounds.update(tournament_id, change)
        return self.get(tournament_id, token), created

    def withdraw(self, tournament_id: str, token: str | None) -> None:
        """Withdraw the token's account before the start (409 ``not_entered``, ``tournament_not_open``)."""
        account = authorized(self.core.accounts, token, "play")

        def change(record: TournamentRecord, done: Update) -> None:
            mine = next((e for e in record.entrants if e.account_id == account.account_id and not e.withdrawn), None)
            if mine is None:
                raise NotEntered("this account did not enter the tournament")
            if record.status != "open":
                raise TournamentNotOpen(f"the tournament is {record.status}: leave your match instead")
            mine.withdrawn = True
            done.feed.append({"type": "entrant_left", "name": mine.name})

        self.rounds.update(tournament_id, change)

    def cancel(self, tournament_id: str, token: str | None) -> None:
        """Cancel before the start, by its creator (403 ``not_creator``; 409 ``tournament_not_open``)."""
        account = authorized(self.core.accounts, token, "play")
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> None:
            if record.creator != account.account_id:
                raise NotCreator("only the tournament's creator cancels it")
            if record.status != "open":
                raise TournamentNotOpen(f"the tournament is {record.status}: it can no longer be cancelled")
            record.status = "cancelled"
            record.ended_at = now
            done.feed.append({"type": "tournament_cancelled", "cause": "creator"})
            for e in record.entrants:
                if not e.withdrawn:
                    done.tell(e.account_id, TournamentCancelled(tournament_id, "creator"))
            done.after.append(lambda: self.store.release_open(record.creator, tournament_id))
            done.after.append(lambda: self.store.list_in(tournament_id, "cancelled", now))

        self.rounds.update(tournament_id, change)

    # ----- reading ----------------------------------------------------------------------

    def _load(self, tournament_id: str) -> TournamentRecord:
        record = self.store.load(tournament_id)
        if record is None:
            raise TournamentNotFound(f"no tournament {tournament_id!r}")
        return record

    def get(self, tournament_id: str, token: str | None = None) -> TournamentView:
        """The tournament; with a token (scope ``play``), the caller's table and entry. The caller's table is
        never named without its match: one not made yet is made here (:meth:`TournamentRounds.make_owed_table`)."""
        caller = None if token is None else authorized(self.core.accounts, token, "play").account_id
        record = self._load(tournament_id)
        view = view_of(record, caller)
        if view.you is not None:
            self.rounds.make_owed_table(record, view.you.round, view.you.table)
        return view

    def page(self, status: str, cursor: str | None, limit: int, token: str | None = None) -> TournamentPage:
        """A page of the tournaments of ``status`` (open: soonest first; others newest first); with a token
        (scope ``play``) each says whether the caller entered it."""
        caller = None if token is None else authorized(self.core.accounts, token, "play").account_id
        after = None
        if cursor is not None:
            at_ms, last = decode_cursor(cursor)
            after = (at_ms / 1000, last)
        newest = status != "open"
        rows = self.store.listed(status, after, limit + 1, newest=newest)
        page = rows[:limit]
        found = [self.store.load(tid) for tid, _score in page]
        summaries = tuple(summary_of(r, caller) for r in found if r is not None)
        next_cursor = None
        if len(rows) > limit and page:
            next_cursor = encode_cursor(round(page[-1][1] * 1000), page[-1][0])
        return TournamentPage(summaries, next_cursor)

    def standings(self, tournament_id: str) -> StandingsView:
        """The standings over the recorded results (T1's :func:`~tienlen.tournaments.standings`)."""
        record = self._load(tournament_id)
        lines = standings(terms_of(record.terms), entrants_of(record), results_of(record))
        return StandingsView(tournament_id, record.status in OVER, lines)

    def placings(self, name: str, limit: int) -> list[Placing]:
        """Where the account named ``name`` (any case) finished each tournament it played to the end, newest
        first (its latest ``limit``); :class:`PlayerNotFound` when no account has that name."""
        account = self.core.accounts.find(name)
        if account is None:
            raise PlayerNotFound(f"no player is named {name!r}")
        return self.store.placings(account.account_id, limit)

    def events(self, tournament_id: str, after: int, wait_s: float) -> FeedPage:
        """The feed after ``after``; waiting up to ``wait_s`` for one."""
        self._load(tournament_id)
        found = self.store.events(tournament_id, after, wait_s)
        return FeedPage(tuple(found), found[-1]["seq"] if found else after)

    def follow(self, tournament_id: str, after: int, idle_s: float) -> FeedFollowing:
        """The feed as it comes (Server-Sent Events), ending after the event that ends the tournament; of a
        tournament over with nothing after ``after``, :attr:`FeedFollowing.nothing_left` from the start."""
        record = self._load(tournament_id)
        if record.status in OVER and not self.store.events(tournament_id, after):
            return FeedFollowing(None)
        return FeedFollowing(self.store.follow(tournament_id, after, idle_s))

    def sweep(self) -> None:
        """The sweeper's part (:meth:`TournamentRounds.sweep`)."""
        self.rounds.sweep()


FINAL_FEED_EVENTS = frozenset({"tournament_finished", "tournament_cancelled"})
"""The feed's events after which nothing more comes."""


class FeedFollowing(Iterator[list[Event]]):
    """Batches of a tournament's feed as they come (empty when idle), ending after the batch with the event that
    ends the tournament, or closed. Without ``batches`` there is nothing to send at all (:attr:`nothing_left`)."""

    def __init__(self, batches: Iterator[list[Event]] | None) -> None:
        self._batches = batches
        self.nothing_left = batches is None

    def __next__(self) -> list[Event]:
        if self._batches is None:
            raise StopIteration
        batch = next(self._batches)
        if any(event["type"] in FINAL_FEED_EVENTS for event in batch):
            self.close()  # this batch is sent; the next call ends the stream
        return batch

    def close(self) -> None:
        """Stop following (gives the store's waiter place back)."""
        batches, self._batches = self._batches, None
        close = getattr(batches, "close", None)
        if close is not None:
            close()


__all__ = ["MAX_OPEN", "FeedFollowing", "Tournaments"]
