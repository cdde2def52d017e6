"""A tournament in play: its start, seating each round (every table a match), results and its end.

Seating a round is written first into the tournament (its tables, with match ids derived from (tournament,
round, table): :func:`~.tournament_records.table_match_id`), then each table's match is made if absent
(:meth:`~.core.Core.add`: create-if-absent), then the round is marked seated and its entrants told. A worker that
dies anywhere in between leaves a round not seated, which the sweeper seats again: the same tables, the same
match ids, so no match is lost or made twice.

A finished match of a tournament (:attr:`MatchRecord.tournament`) is recorded once by match id
(:meth:`TournamentRounds.record`, called when the match is kept, and by the sweeper for any table it finds over);
the write that records a round's last table seats the next round at once, or finishes the tournament.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from ..engine import resolve_rules
from ..events import InboxEvent, TournamentCancelled, TournamentFinished, TournamentStarted, TournamentTableReady
from ..store.errors import StoreUnavailableError
from ..store.records import Clock, MatchRecord, MatchStatus, SeatRecord, new_token, token_digest
from ..store.tournaments import Placing, RoundRecord, TableRecord, TournamentRecord, TournamentStore
from ..tournaments import Format, Sitter, Terms, arena_tables, duplicate_schedule, standings, swiss_round
from .core import Core
from .errors import StaleVersion, TournamentNotFound
from .tournament_records import (
    entrants_of,
    result_dict,
    results_of,
    round_seed,
    table_match_id,
    table_result,
    terms_of,
)

T = TypeVar("T")
_log = logging.getLogger("tienlen.service")
TAKEOVER = "medium"  # plays an entrant's seat whose player leaves or times out
FILLER = "medium"  # the house bot level that fills a table's empty seats (byes)
UPDATE_ATTEMPTS = 64  # a tournament's record is one key every table's end writes: races are many
SEAT_LOCK_MS = 30_000
SWEEP_EVERY_S = 1.0
BACKOFF_FIRST_S = 0.001  # after a lost race, a wait of up to this, doubled each time, up to BACKOFF_MAX_S
BACKOFF_MAX_S = 0.05
_JITTER = random.Random()


@dataclass
class Update:
    """What one change of a tournament did: feed events to push, inbox events to tell, work after the commit."""

    feed: list[dict[str, Any]] = field(default_factory=list)
    inbox: dict[str, list[InboxEvent]] = field(default_factory=dict)
    after: list[Callable[[], None]] = field(default_factory=list)

    def tell(self, account_id: str, event: InboxEvent) -> None:
        """Tell ``account_id`` of ``event`` after the commit."""
        self.inbox.setdefault(account_id, []).append(event)


class TournamentRounds:
    """Starts, seats, records and ends tournaments; the sweeper's checks of running ones."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.store: TournamentStore = core.store.tournaments()
        self._next_sweep = 0.0
        self.on_table_made: Callable[[str, int], None] | None = None  # a test's hook: seating a table (id, number)

    # ----- the one write path of a tournament --------------------------------------------

    def update(self, tournament_id: str, change: Callable[[TournamentRecord, Update], T]) -> T:
        """Apply ``change`` to the tournament and commit it (compare-and-set, retried from a fresh read); then push
        its feed events, tell its inbox events and run its after-work. A refusal raised by ``change`` writes nothing.
        ``change`` answers None... or anything: a change that changed nothing answers with ``Update.feed`` empty and
        the record's version untouched (see :data:`UNCHANGED`)."""
        for attempt in range(UPDATE_ATTEMPTS):
            if attempt:  # a lost race: wait a random moment, longer each time, so the racers stop colliding
                time.sleep(_JITTER.uniform(0, min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2**attempt)))
            record = self.store.load(tournament_id)
            if record is None:
                raise TournamentNotFound(f"no tournament {tournament_id!r}")
            before = record.version
            done = Update()
            answer = change(record, done)
            if record.version == UNCHANGED:
                record.version = before
                return answer
            record.version = before + 1
            if not self.store.save(record, before):
                continue
            self.publish(tournament_id, done)
            return answer
        raise StaleVersion("the tournament kept changing; try again")

    def publish(self, tournament_id: str, done: Update) -> None:
        """What follows a commit: the feed, the inboxes, the after-work."""
        if done.feed:
            now = self.core.now()
            self.store.push(tournament_id, [{**e, "at": now} for e in done.feed])
        if done.inbox:
            self.core.notices.tell_many(done.inbox)
        for work in done.after:
            work()

    # ----- start ------------------------------------------------------------------------

    def start(self, record: TournamentRecord, done: Update, now: float) -> None:
        """Start an open tournament in this change: running, or cancelled with fewer than ``min_entrants``."""
        terms = terms_of(record.terms)
        present = [e for e in record.entrants if not e.withdrawn]
        self.store.release_open(record.creator, record.tournament_id)
        if len(present) < terms.min_entrants:
            record.status = "cancelled"
            record.ended_at = now
            done.feed.append({"type": "tournament_cancelled", "cause": "too_few_entrants"})
            for e in present:
                done.tell(e.account_id, TournamentCancelled(record.tournament_id, "too_few_entrants"))
            done.after.append(partial(self.store.list_in, record.tournament_id, "cancelled", now))
            return
        record.status = "running"
        record.started_at = now
        done.feed.append({"type": "tournament_started", "entrants": len(present)})
        for e in present:
            done.tell(e.account_id, TournamentStarted(record.tournament_id))
        done.after.append(partial(self.store.list_in, record.tournament_id, "running", now))
        if terms.format is Format.ARENA:
            record.rounds.append(RoundRecord(0, [], seated=True, seated_at=now))
            record.waiting = {e.account_id: now for e in present}
            done.after.append(partial(self.pair_arena, record.tournament_id))
        else:
            self.plan_round(record, terms, 1, done)

    # ----- seating ----------------------------------------------------------------------

    def plan_round(self, record: TournamentRecord, terms: Terms, round_no: int, done: Update) -> None:
        """Write round ``round_no``'s tables into the record (in this change); their matches are made after it."""
        entrants = entrants_of(record)
        if terms.format is Format.DUPLICATE:
            schedule = duplicate_schedule(terms, [e for e in entrants if not e.withdrawn], upto=round_no)
            tables = schedule[round_no - 1]
        else:
            filler = self._filler()
            tables = swiss_round(terms, entrants, results_of(record), round_no, lambda _i: Sitter(None, filler))
        record.rounds.append(
            RoundRecord(
                round_no,
                [
                    TableRecord(
                        t.number,
                        table_match_id(record.tournament_id, round_no, t.number),
                        [(s.entrant, s.name) for s in t.sitters],
                        None if t.deals is None else list(t.deals),
                    )
                    for t in tables
                ],
            )
        )
        done.after.append(partial(self.seat_round, record.tournament_id, round_no))

    def _filler(self) -> str:
        """The name of the house bot that fills a table's empty seats."""
        house = self.core.history.rated.house_bots()
        return (house[FILLER] if FILLER in house else next(iter(house.values()))).name

    def seat_round(self, tournament_id: str, round_no: int) -> None:
        """Make every table's match of a planned round (those made already stay as they are), then mark it seated
        and tell its entrants (once: the write that marks it does)."""
        record = self.store.load(tournament_id)
        if record is None or record.status != "running":
            return
        found = [r for r in record.rounds if r.number == round_no]
        if not found or (found[0].seated and round_no != 0):
            return
        terms = terms_of(record.terms)
        for table in found[0].tables:
            self.make_table(record, terms, round_no, table)
        self.mark_seated(tournament_id, round_no)

    def make_owed_table(self, record: TournamentRecord, round_no: int, table_no: int) -> None:
        """Make the match of a table that a read is about to name when its seating has not made it yet (between
        the commit that planned it and its making, or for good when that request's process stopped in between):
        a table is owed its match until its sitters were told of it. Made once, whoever comes first."""
        rnd = next(r for r in record.rounds if r.number == round_no)
        table = next(t for t in rnd.tables if t.number == table_no)
        if not table.told:
            self.make_table(record, terms_of(record.terms), round_no, table)

    def make_table(self, record: TournamentRecord, terms: Terms, round_no: int, table: TableRecord) -> bool:
        """Make a table's match if absent; whether it was made now."""
        if self.on_table_made is not None:
            self.on_table_made(table.match_id, table.number)
        make = partial(self._table_match, record, terms, round_no, table)
        return self.core.add(table.match_id, make)

    def _table_match(self, record: TournamentRecord, terms: Terms, round_no: int, table: TableRecord) -> MatchRecord:
        """A table's match: entrants' seats bound to their accounts, house bots in the others. A duplicate
        table is dealt from the round's seed (no fair-deal entropy: every table alike) and read by its seats
        only (its events show each hand's cards once played, which other tables may still be playing)."""
        house = {bot.name: bot for bot in self.core.history.rated.house_bots().values()}
        seats = []
        for who, name in table.sitters:
            if who is None:
                bot = house.get(name)
                level = FILLER if bot is None else next(k for k, v in self.core.history.rated.house_bots().items()
                                                        if v.name == name)  # fmt: skip
                seats.append(SeatRecord(name=name, bot=level, account=None if bot is None else bot.account_id))
            else:
                seats.append(SeatRecord(name=name, token_sha256=token_digest(new_token()), account=who))
        duplicate = terms.format is Format.DUPLICATE
        return MatchRecord(
            match_id=table.match_id,
            version=0,
            seats=seats,
            rules=resolve_rules({"preset": terms.preset, "hands": terms.hands}, players=terms.players),
            seed=round_seed(record.deal_secret, round_no) if duplicate else secrets.randbits(63),
            created_at=self.core.now(),
            clock=Clock(terms.turn_seconds),
            takeover=TAKEOVER,
            rated=terms.rated,
            fair_secret=None if duplicate else secrets.token_bytes(32).hex(),
            watchable=not duplicate,  # another table plays the same deals: its cards would show them
            tournament=record.tournament_id,
        )

    def mark_seated(self, tournament_id: str, round_no: int) -> None:
        """Mark the round seated and tell each seated entrant its table (arena: each table not told yet)."""
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> None:
            found = [r for r in record.rounds if r.number == round_no]
            if not found or (found[0].seated and round_no != 0):
                record.version = UNCHANGED
                return
            rnd = found[0]
            fresh = [t for t in rnd.tables if not t.told] if round_no == 0 else rnd.tables
            if not fresh and round_no == 0:
                record.version = UNCHANGED
                return
            rnd.seated = True
            rnd.seated_at = now
            for t in fresh:
                t.told = True
                for seat, (who, _name) in enumerate(t.sitters):
                    if who is not None:
                        done.tell(who, TournamentTableReady(tournament_id, round_no, t.match_id, seat, t.number))
            done.feed.append({"type": "round_seated", "round": round_no, "tables": len(fresh)})

        self.update(tournament_id, change)

    # ----- results ----------------------------------------------------------------------

    def record(self, match: MatchRecord) -> None:
        """Record a finished tournament match's result (once by match id); the round's last seats the next."""
        tournament_id = match.tournament
        if tournament_id is None or match.status != MatchStatus.FINISHED:
            return
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> None:
            located = next(((r, t) for r in record.rounds for t in r.tables if t.match_id == match.match_id), None)
            if located is None or located[1].ended or record.status != "running":
                record.version = UNCHANGED
                return
            rnd, table = located
            terms = terms_of(record.terms)
            result = table_result(match, rnd.number, table.number, table.sitters, terms, table.deals, now)
            record.results.append(result_dict(result))
            table.ended = True
            done.feed.append({"type": "table_ended", "round": rnd.number, "table": table.number,
                              "match_id": match.match_id})  # fmt: skip
            done.feed.append({"type": "standings_changed"})
            if terms.format is Format.ARENA:
                self._arena_back(record, terms, table, now, done)
            elif all(t.ended for t in rnd.tables):
                self.next_round(record, terms, rnd.number, now, done)

        self.update(tournament_id, change)

    def next_round(self, record: TournamentRecord, terms: Terms, last: int, now: float, done: Update) -> None:
        """After round ``last``: plan the next, or finish."""
        total = terms.rounds if terms.format is Format.SWISS else terms.duplicate_rounds
        if total is not None and last < total:
            self.plan_round(record, terms, last + 1, done)
        else:
            self.finish(record, terms, now, done)

    def finish(self, record: TournamentRecord, terms: Terms, now: float, done: Update) -> None:
        """The tournament is over: final standings told to every entrant."""
        record.status = "finished"
        record.ended_at = now
        final = standings(terms, entrants_of(record), results_of(record))
        done.feed.append({"type": "tournament_finished", "winner": final[0].name if final else None})
        for line in final:
            done.tell(line.account_id, TournamentFinished(record.tournament_id, line.rank))
        done.after.append(partial(self.store.list_in, record.tournament_id, "finished", now))
        placed = {
            line.account_id: Placing(record.tournament_id, terms.name, terms.format.value, terms.players, len(final),
                                     line.rank, line.score, now)
            for line in final
        }  # fmt: skip
        done.after.append(partial(self.store.place, placed))

    # ----- arena ------------------------------------------------------------------------

    def _arena_back(self, record: TournamentRecord, terms: Terms, table: TableRecord, now: float, done: Update) -> None:
        """An arena table ended: its entrants wait again (while the window lasts); the end when all is over."""
        assert record.started_at is not None and terms.window_s is not None
        open_window = now < record.started_at + terms.window_s
        withdrawn = {e.account_id for e in record.entrants if e.withdrawn}
        if open_window:
            for who, _name in table.sitters:
                if who is not None and who not in withdrawn:
                    record.waiting[who] = now
            done.after.append(partial(self.pair_arena, record.tournament_id))
        elif all(t.ended for r in record.rounds for t in r.tables):
            self.finish(record, terms, now, done)

    def pair_arena(self, tournament_id: str) -> None:
        """Seat the arena's waiting entrants that can be seated now (T1's :func:`arena_tables`), then make them."""
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> None:
            terms = terms_of(record.terms)
            if record.status != "running" or terms.format is not Format.ARENA or not record.rounds:
                record.version = UNCHANGED
                return
            assert record.started_at is not None and terms.window_s is not None
            if now >= record.started_at + terms.window_s:
                record.waiting = {}
                if all(t.ended for t in record.rounds[0].tables):
                    self.finish(record, terms, now, done)
                    return
                record.version = UNCHANGED
                return
            by_id = {e.account_id: e for e in entrants_of(record)}
            waiting = [(by_id[a], since) for a, since in record.waiting.items() if a in by_id]
            groups = arena_tables(terms, waiting, results_of(record), now)
            if not groups:
                record.version = UNCHANGED
                return
            filler = self._filler()
            for group in groups:
                record.tables_made += 1
                number = record.tables_made
                sitters: list[tuple[str | None, str]] = [(e.account_id, e.name) for e in group]
                sitters += [(None, filler)] * (terms.players - len(sitters))  # a short table: house bots
                record.rounds[0].tables.append(TableRecord(number, table_match_id(tournament_id, 0, number), sitters))
                for e in group:
                    record.waiting.pop(e.account_id, None)
            done.after.append(partial(self.seat_round, tournament_id, 0))

        self.update(tournament_id, change)

    # ----- the sweeper ------------------------------------------------------------------

    def sweep(self) -> None:
        """Start what is due, seat rounds left half seated, record tables found over, pair and close arenas."""
        now = self.core.now()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_EVERY_S
        try:
            for tournament_id, _starts in self.store.listed("open", None, 100):
                if _starts <= now:
                    self._start_due(tournament_id)
            for tournament_id, _at in self.store.listed("running", None, 500):
                self.check(tournament_id)
        except StoreUnavailableError as error:
            _log.warning("tournament sweep left for later: %s", error)

    def _start_due(self, tournament_id: str) -> None:
        now = self.core.now()

        def change(record: TournamentRecord, done: Update) -> None:
            starts = record.terms["starts_at"]
            if record.status != "open" or starts is None or starts > now:
                record.version = UNCHANGED
                return
            self.start(record, done, now)

        try:
            self.update(tournament_id, change)
        except TournamentNotFound:
            self.store.list_in(tournament_id, "cancelled", now)

    def check(self, tournament_id: str) -> None:
        """A running tournament: finish seating a round left half seated, record any table whose match is over,
        pair the arena's waiting entrants."""
        record = self.store.load(tournament_id)
        if record is None or record.status != "running":
            return
        if not self.store.lock(f"check:{tournament_id}", SEAT_LOCK_MS):
            return
        try:
            for rnd in record.rounds:
                if not rnd.seated or (rnd.number == 0 and any(not t.told for t in rnd.tables)):
                    self.seat_round(tournament_id, rnd.number)
            playing = [t for r in record.rounds for t in r.tables if not t.ended]
            for match in self.core.store.load_many([t.match_id for t in playing]):
                if match is not None and match.status == MatchStatus.FINISHED:
                    self.record(match)
            if terms_of(record.terms).format is Format.ARENA:
                self.pair_arena(tournament_id)
        finally:
            self.store.unlock(f"check:{tournament_id}")


UNCHANGED = -1
"""A change sets the record's version to this when it changed nothing: nothing is written."""
