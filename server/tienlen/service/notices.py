"""What an account hears of on its inbox (``GET /v1/me/events``), as numbered events it can resume from.

- ``match_started`` ``{match_id, seat, players, rated}``: a match the account sits in was dealt
- ``your_turn`` ``{match_id, seat, version}``: the account's seat came on turn (``version`` is the match's
  version then: act with it)
- ``match_finished`` ``{match_id, seat, place, rating_before, rating_after}``: a match the account sat in
  ended and was kept (the ratings are None unless it was rated)
- ``challenge_received``, ``challenge_cancelled``, ``challenge_started``: see :mod:`.challenges`
- ``queue_matched`` ``{ticket, match_id, seat}``, ``queue_left`` ``{ticket}``: see :mod:`.queue`
- ``friend_started`` ``{name, match_id, watchable, players, rated}``: an account it follows started a match
  (only with its ``friends`` setting on): see :mod:`.live_seats`

Every event also has ``seq`` (its number in the account's inbox, from 1) and ``at`` (epoch seconds).
The match's own events say what happened at the table; these only say where to look.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

from ..events import STORE, ChatRemoved, ChatSaid, Event, HandStarted, InboxEvent, MatchStarted, YourTurn
from ..store.base import MatchStore
from ..store.errors import StoreUnavailableError
from ..store.records import MatchRecord
from .live_seats import LiveSeatsKeeper

log = logging.getLogger("tienlen.service")


class Notices:
    """Tells accounts of what concerns them, on their inboxes (:class:`~tienlen.store.inbox.InboxStore`)."""

    def __init__(self, store: MatchStore, now: Callable[[], float]) -> None:
        self.inbox = store.inbox()
        self.now = now
        self.live_seats = LiveSeatsKeeper(store, now)

    def tell(self, account_id: str, event: InboxEvent) -> None:
        """Put one event in the account's inbox (a lost one is logged, not raised)."""
        self.tell_many({account_id: [event]})

    def tell_many(self, events: dict[str, list[InboxEvent]]) -> None:
        """Put each account's events in its inbox; Redis failing is logged, not raised.

        They are told after the write they tell of was committed: an answer already given is not made to
        fail because its news could not be sent, and the match's own events still hold what happened.
        """
        at = self.now()
        for account_id, told in events.items():
            try:
                self.inbox.push(account_id, [STORE.dump_told(event, at) for event in told])
            except StoreUnavailableError as error:
                log.warning("could not tell account %s of %s: %s", account_id, [e.type for e in told], error)

    def committed(self, record: MatchRecord, events: Sequence[Event]) -> None:
        """After a match's write with ``events``: tell its accounts the match started, or whose turn it is; keep
        its accounts' live matches and tell their followers it started (:class:`~.live_seats.LiveSeatsKeeper`)."""
        if not events or not any(seat.account for seat in record.seats):
            return
        if all(isinstance(e, ChatSaid | ChatRemoved) for e in events):
            return  # the chat tells no one's inbox (nor is it anyone's turn again)
        told: dict[str, list[InboxEvent]] = {}
        if any(isinstance(e, HandStarted) and e.hand_number == 1 for e in events):
            for index, seat in enumerate(record.seats):
                if seat.account is not None and seat.token_sha256 is not None:  # not a house bot
                    told.setdefault(seat.account, []).append(
                        MatchStarted(record.match_id, index, len(record.seats), record.rated)
                    )
        engine = record.engine
        if record.status == "playing" and engine is not None and engine.turn is not None:
            seat = record.seats[engine.turn]
            if seat.account is not None and seat.remote:
                told.setdefault(seat.account, []).append(YourTurn(record.match_id, engine.turn, record.version))
        for account_id, friends in self.live_seats.committed(record, events).items():
            told.setdefault(account_id, []).extend(friends)
        if told:
            self.tell_many(told)
