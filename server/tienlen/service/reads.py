"""Reading a match: a seat's view, its legal plays and a hint, the public events, and following them.

Nothing here writes a match; the writes are :mod:`.matches` (create, join, act) and :mod:`.lifecycle`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from .. import bots
from ..bots import Hint
from ..engine import LegalPlays, seat_view
from ..events import CHAT_SAID, FINAL_TYPES
from ..store.records import MatchRecord
from .chat import ANYONE, Reader
from .core import Core, playing
from .errors import MatchNotFound
from .states import EventPage, SeatState, legal_in_order, seat_state
from .writer import EventDict


class MatchReads:
    """What a seat, or anybody, reads of a match, over the shared :class:`~.core.Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def get(self, match_id: str) -> MatchRecord:
        """The stored record; :class:`MatchNotFound` when there is none."""
        return self.core.get(match_id)

    # ----- reading --------------------------------------------------------------

    def view(self, match_id: str, token: str | None) -> SeatState:
        """A seat's view."""
        record = self.core.get(match_id)
        return seat_state(record, self.core.seat_of(record, token))

    def legal(self, match_id: str, token: str | None) -> LegalPlays:
        """The asking seat's legal plays in answer order (none when it is not on turn)."""
        record = self.core.get(match_id)
        seat = self.core.seat_of(record, token)
        engine = record.engine
        if engine is None or record.status != "playing" or engine.turn != seat:
            return legal_in_order(None)
        return legal_in_order(engine.legal_plays())

    def hint(self, match_id: str, token: str | None) -> Hint:
        """A suggested action for the seat on turn, with its explanation."""
        record = self.core.get(match_id)
        seat = self.core.seat_of(record, token)
        engine = playing(record)
        engine.verify_turn(seat)

        def think() -> Hint:
            view, legal, rng = seat_view(engine, seat), engine.legal_plays(), bots.bot_rng(engine, seat)
            return bots.hint(view, legal, rng, budget_s=self.core.bot_budget_s)

        return cast(Hint, self.core.offload(think))

    def events(self, match_id: str, after: int, wait_s: float, reader: Reader = ANYONE) -> EventPage:
        """Public events after ``after``, waiting up to ``wait_s`` for the first one, as ``reader`` may read them.

        ``last_seq`` is the newest event's number: the last one read or,
        when none came after ``after``, the match's newest (also when ``after``
        is past the end: a number the match had). The chat messages ``reader``
        may not read are left out (their numbers skipped), so a page may be
        empty with ``last_seq`` past ``after``.
        """
        page = self._events(match_id, after, wait_s)
        if not any(e["type"] == CHAT_SAID for e in page.events):
            return page
        return EventPage(reader.only(page.events), page.last_seq)

    def _events(self, match_id: str, after: int, wait_s: float) -> EventPage:
        found = self.core.store.events(match_id, after, wait_s)
        if found is None:
            raise MatchNotFound(f"no match {match_id!r}")
        if not found:
            newest = self.core.get(match_id).last_seq
            if newest <= after:
                return EventPage([], newest)
            # committed after the wait's last read: answer it, or a client moving on to last_seq skips it
            found = self.core.store.events(match_id, after)
            if found is None:
                raise MatchNotFound(f"no match {match_id!r}")
            if not found:
                return EventPage([], newest)
        return EventPage(found, found[-1]["seq"])

    def follow(self, match_id: str, after: int, idle_s: float, reader: Reader = ANYONE) -> Following:
        """The match's events after ``after`` as they come, ending after its last one.

        :class:`MatchNotFound` up front; an empty batch every ``idle_s``
        without news. The stream of a match in play (or waiting) ends after the
        event that ends the match; that of a finished match (ended, abandoned)
        ends once it has sent what the match had when it was opened (a
        ``rematch`` or ``seat_left`` after the end, say), and when nothing
        follows ``after`` it is :attr:`Following.nothing_left` from the start.
        The chat messages ``reader`` may not read are left out.
        """
        record = self.core.get(match_id)
        if record.status != "finished":
            return Following(self.core.store.follow(match_id, after, idle_s), reader=reader)
        if after >= record.last_seq:
            return Following(None)
        return Following(self.core.store.follow(match_id, after, idle_s), through=record.last_seq, reader=reader)


class Following(Iterator[list[EventDict]]):
    """Batches of a match's events, ending after the event that ends the match; close it when done.

    With ``through`` (the match is over) it ends once the event numbered
    ``through`` is sent. Without ``batches`` there is nothing to send at all
    (:attr:`nothing_left`).
    """

    def __init__(
        self, batches: Iterator[list[EventDict]] | None, through: int | None = None, reader: Reader = ANYONE
    ) -> None:
        self._batches = batches
        self._through = through
        self._reader = reader
        self.nothing_left = batches is None

    def __next__(self) -> list[EventDict]:
        while True:
            batch = self._next()
            if not batch or not any(e["type"] == CHAT_SAID for e in batch):  # by type: the hot path decodes nothing
                return batch
            read = self._reader.only(batch)
            if read or self._batches is None:
                return read  # else: only messages this reader may not read, not even a heartbeat

    def _next(self) -> list[EventDict]:
        if self._batches is None:
            raise StopIteration
        batch = next(self._batches)
        if self._through is not None and not batch:
            self.close()  # a finished match whose events ran out before ``through``: nothing more will come
            raise StopIteration
        if self._through is not None:
            over = batch[-1]["seq"] >= self._through  # what comes after the end (rematch, seat_left) is sent too
        else:
            over = any(event["type"] in FINAL_TYPES for event in batch)  # by type: no decoding on the hot path
        if over:
            self.close()
        return batch

    def close(self) -> None:
        """Stop following (gives the store's waiter place back)."""
        batches, self._batches = self._batches, None
        close = getattr(batches, "close", None)
        if close is not None:
            close()


__all__ = ["Following", "MatchReads"]
