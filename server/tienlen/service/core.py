"""What every use case of the service shares (:class:`Core`): the store, reading a seat, the bots' thinking,
new matches, the clock, notices and histories.

The use cases (:mod:`.matches`, :mod:`.reads`, :mod:`.lifecycle`, :mod:`.lobby`, :mod:`.rooms`,
:mod:`.challenges`, :mod:`.queue`) are plain classes each given this one core (composed in
:mod:`.compose`), not subclasses of it. Every write of a match goes through the one
:class:`~.writer.MatchWriter` (:attr:`Core.writer`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from .. import bots
from ..engine import Event, Match, format_mask
from ..events import ABANDONED, MatchAbandoned
from ..store.accounts import AccountRecord
from ..store.base import Loaded, MatchStore
from ..store.errors import StoreUnavailableError
from ..store.records import MatchRecord, token_digest
from .accounts import authorized
from .errors import InvalidToken, MatchNotFound, MatchNotPlaying, NotSeated, ScopeMissing
from .fair_deals import fair_deal_of
from .history import HistoryService
from .live_index import LiveIndex
from .notices import Notices
from .room_codes import new_room_code
from .writer import LOST, Done, Lost, MatchWriter, Write, attempts

T = TypeVar("T")
Offload = Callable[[Callable[[], Any]], Any]
BOT_TURNS_BUDGETS = 8  # full-budget decisions of its slowest bot one request may spend before its bots hurry


def _in_place(work: Callable[[], Any]) -> Any:
    return work()


class Core:
    """What the use cases share: the store and its accounts, the bots' budget, where heavy work runs
    (``offload``), the clock (``now``, epoch seconds; read through this object, so a test may move it), the
    notices, the histories and the one match writer.

    Every finished match an account sat in is kept (:attr:`history`), for
    ``history_days`` days (None: for good). Each use case's own options are
    its class's (see :class:`~.compose.MatchServices`).
    """

    def __init__(
        self,
        store: MatchStore,
        bot_budget_s: float,
        offload: Offload | None = None,
        now: Callable[[], float] = time.time,
        *,
        history_days: int | None = None,
    ) -> None:
        self.store = store
        self.accounts = store.accounts()
        self.bot_budget_s = bot_budget_s
        self.offload: Offload = offload or _in_place
        self.now = now
        self.on_bot_decision: bots.DecisionHook | None = None  # sees each bot decision (the metrics time them)
        self.notices = Notices(store, now)
        self.history = HistoryService(store, history_days, now, self.notices)
        self.live = LiveIndex(store, lambda: self.now())
        self.writer = MatchWriter(
            store, self.history, self.notices, lambda: self.now(), self.live
        )  # the clock as it is then

    # ----- reading ----------------------------------------------------------------------

    def get(self, match_id: str) -> MatchRecord:
        """The stored record; :class:`MatchNotFound` when there is none."""
        record = self.store.load(match_id).record
        if record is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return record

    def seat_of(self, record: MatchRecord, token: str | None) -> int:
        """The seat a bearer token acts for: the seat's own token, or a token of the account that holds the seat.

        :class:`InvalidToken` when it is neither a seat's nor an account's;
        an account's token without the ``play`` scope is :class:`ScopeMissing`,
        and one whose account holds no seat here :class:`NotSeated`.
        """
        seat = None if token is None else record.seat_of_token(token)
        if seat is not None:
            return seat
        grant = None if token is None else self.accounts.grant(token_digest(token))
        if grant is None:
            raise InvalidToken(
                "send 'Authorization: Bearer <token>' with a token of a seat of this match, "
                "or of the account that holds one"
            )
        if "play" not in grant.scopes:
            raise ScopeMissing("this token was not given the 'play' scope")
        seat = record.seat_of_account(grant.account_id)
        if seat is None:
            raise NotSeated("the account of this token holds no seat of this match")
        return seat

    def player(self, token: str | None) -> AccountRecord | None:
        """The account an optional bearer token sits for (scope ``play``); None without a token."""
        return None if token is None else authorized(self.accounts, token, "play")

    # ----- bots -------------------------------------------------------------------------

    def bot_turns_budget_s(self, levels: Iterable[str]) -> float:
        """The seconds one request's bot turns of these levels may think before they hurry (see BOT_TURNS_BUDGETS)."""
        return BOT_TURNS_BUDGETS * bots.decision_budget_s(levels, self.bot_budget_s)

    def think(self, record: MatchRecord, work: Callable[[], T]) -> T:
        """Run ``work`` through ``offload`` when bots may think in it, else in place."""
        return cast(T, self.offload(work)) if record.bots else work()

    def bot_turns(self, record: MatchRecord) -> list[Event]:
        """Every bot turn from here until a remote seat is on turn or the match ends."""
        engine = record.engine
        assert engine is not None
        return bots.play_bot_turns(
            engine,
            record.bots,
            budget_s=self.bot_budget_s,
            total_budget_s=self.bot_turns_budget_s(record.bots.values()),
            on_decision=self.on_bot_decision,
        )

    def bots_play_on(self, record: MatchRecord) -> list[Event]:
        """The bots' turns as event dicts, or the match's end when no remote seat is left to play it."""
        if not any(seat.remote for seat in record.seats):
            record.ended = ABANDONED
            return [MatchAbandoned()]
        return self.think(record, lambda: self.bot_turns(record))

    # ----- new matches -------------------------------------------------------------------

    def add(self, match_id: str, make: Callable[[], MatchRecord], *, fresh: bool = False) -> bool:
        """Store the new match ``make`` makes under ``match_id`` (:meth:`opened`); False if its id was taken.

        ``fresh``: the id is a new random one (nothing is read first).
        """

        def change(loaded: Loaded) -> Write[bool] | Done[bool]:
            return Done(False) if loaded.record is not None else self.opened(make())

        return self.writer.write(match_id, change, exhausted=lambda: False, fresh=fresh)

    def opened(self, record: MatchRecord, keep: dict[str, Any] | None = None) -> Write[bool]:
        """The write of a new match: dealt when no seat waits, with a room code when a seat is open, listed after.

        ``keep``: the answer kept under the call's key in the same commit.
        """
        events: list[Event] = []
        if not any(s.open or s.reserved for s in record.seats):
            events = self.deal(record)
        elif any(s.open for s in record.seats) and record.room_code is None:
            record.room_code = self._claim_room_code(record.match_id)
        for seat in record.seats:
            if seat.account is not None:  # before the commit: the match is always found to scrub the name from
                self.history.kept.seat_bound(seat.account, record.match_id, self.now())

        def listed(_: object) -> bool:
            if record.listed and any(s.open for s in record.seats):
                self.store.lobby_add(record.match_id, record.created_at)
            return True

        def release() -> None:
            if record.room_code is not None:
                self.store.release_room(record.room_code, record.match_id)

        return Write(record, events, listed, keep=keep, lost=release)

    def _claim_room_code(self, match_id: str) -> str:
        """A room code of no other live match, now held by ``match_id``."""

        def once() -> str | Lost:
            code = new_room_code()
            return code if self.store.claim_room(code, match_id) else LOST

        def exhausted() -> str:
            raise StoreUnavailableError("could not find a free room code")

        return attempts(once, exhausted)

    def deal(self, record: MatchRecord) -> list[Event]:
        """Deal the first hand and play any bot turns; the events."""
        assert record.seed is not None
        deal = None if record.deal is None else [format_mask(m) for m in record.deal]
        engine, opening = Match.new(record.rules, random.Random(record.seed), deal, fair=fair_deal_of(record))
        record.engine = engine
        return [*opening, *self.bots_play_on(record)]


def playing(record: MatchRecord) -> Match:
    """The engine of a match in play; :class:`MatchNotPlaying` while waiting or once finished."""
    engine = record.engine
    if engine is None:
        raise MatchNotPlaying("the match is waiting for seats to be joined")
    if record.status == "finished":
        raise MatchNotPlaying("the match is over")
    return engine
