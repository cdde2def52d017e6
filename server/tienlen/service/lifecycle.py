"""A match's life beyond play: turn clocks, leaving, bot takeover, cancel and rematch.

- A remote seat whose turn clock runs out passes, or plays its lowest legal
  play when it may not pass (``timed_out``); after the clock's number of
  timeouts in a row the match's takeover bot plays it from then on
  (``seat_taken_over``). The sweeper (:meth:`Lifecycle.sweep`) applies
  them with the same compare-and-set as any action, so each happens once.
- A seat that leaves a waiting match opens again; in play the takeover bot
  takes it at once, and when no remote seat is left the match is abandoned.
- A rematch is a new match with the same seats, rules and clock; each remote
  seat claims its place with the token of the finished match, and a seat
  whose player left is open to a join. A rematch that was cancelled stays
  gone: asking for it again is refused (``rematch_cancelled``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from functools import partial

from .. import bots
from ..engine import Event, play_order
from ..events import MatchCancelled, Rematch, SeatJoined, SeatLeft, SeatTakenOver, TimedOut
from ..store.base import Loaded
from ..store.records import TOKEN_BYTES, MatchRecord, SeatRecord, token_digest, token_text
from .core import Core, playing
from .errors import MatchNotFinished, MatchNotWaiting, NotHost, RematchCancelled
from .states import LeaveOutcome, SeatToken, leave_outcome
from .writer import Done, EventDict, Write, found

# A claimed deadline is due again this long after its claim, plus the most its bots may think (one request's
# budget): long enough for a live sweeper to apply it, short enough that one that died or stalls costs seconds.
CLAIM_MARGIN_S = 1.0
SWEEP_BATCH = 64
SWEEP_ROUNDS = 4  # batches one sweep takes while whole batches are due
DUE_SLACK_S = 0.001  # the deadlines' index counts whole milliseconds: a clock may run out up to 1 ms early

Dispatch = Callable[[Callable[[], object]], object]
"""Runs a task now or later (a server's sweeper: in a pool of greenlets or threads)."""


class Lifecycle:
    """Clocks, leave, cancel and rematch, over the shared :class:`~.core.Core`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    # ----- turn clocks --------------------------------------------------------------

    def sweep(self, limit: int = SWEEP_BATCH, dispatch: Dispatch | None = None) -> int:
        """Apply every turn clock that has run out; how many timeouts were applied (or handed to ``dispatch``).

        Each due deadline is claimed first (one sweeper of all the servers on
        this Redis gets it, for :attr:`claim_lease_s`), then applied with a
        compare-and-set on the match's version, so a timeout happens exactly
        once. Without ``dispatch`` each is applied here, one after another;
        a server's sweeper passes one that runs them side by side, so a match
        whose bots think long holds up neither the other matches' clocks nor
        the next sweep. Finished matches still due to be kept are kept too
        (not counted).
        """
        done = 0
        for _ in range(SWEEP_ROUNDS):
            now = self.core.now()
            due = self.core.store.due(now, limit)
            lease = now + self.claim_lease_s
            for match_id, seen_ms in due:
                if not self.core.store.claim(match_id, seen_ms, lease):
                    continue
                apply = partial(self._apply_claimed, match_id, int(lease * 1000))
                if dispatch is None:
                    done += apply()
                else:
                    dispatch(apply)
                    done += 1
            if len(due) < limit:
                break
        self.core.history.sweep(dispatch=dispatch)  # finished matches whose request did not keep them
        return done

    @property
    def claim_lease_s(self) -> float:
        """How long a claimed deadline is kept from the other sweepers (see :data:`CLAIM_MARGIN_S`)."""
        return CLAIM_MARGIN_S + self.core.bot_turns_budget_s(bots.LEVELS)

    def _apply_claimed(self, match_id: str, lease_ms: int) -> bool:
        """Apply a claimed deadline, or put the match's real deadline back (or none); whether a timeout happened."""
        if self._time_out(match_id):
            return True
        record = self.core.store.load(match_id).record
        if record is not None and record.turn_deadline is not None and record.status == "playing":
            self.core.store.schedule(match_id, record.turn_deadline)
        else:
            self.core.store.unschedule(match_id, lease_ms)
        return False

    def _time_out(self, match_id: str) -> bool:
        """Apply the match's timeout if its clock has run out; whether it did."""

        def change(loaded: Loaded) -> Write[bool] | Done[bool]:
            record = loaded.record
            if record is None or record.status != "playing" or record.turn_deadline is None:
                return Done(False)
            if record.turn_deadline > self.core.now() + DUE_SLACK_S:
                return Done(False)
            engine = playing(record)
            seat = engine.turn
            assert seat is not None and record.clock is not None
            legal = engine.legal_plays()
            if legal.can_pass:
                played = 0  # a pass
                done = engine.pass_turn(seat)
            else:
                played = min(legal.plays, key=play_order).mask
                done = engine.play(seat, played)
            events: list[Event] = [TimedOut(seat, played), *done]
            held = record.seats[seat]
            held.timeouts += 1
            if held.timeouts >= record.clock.timeouts_before_takeover:
                events += self._take_over(record, seat)
            if record.status == "playing":
                events += self.core.bots_play_on(record)
            return Write(record, events, lambda _: True)

        return self.core.writer.write(match_id, change, exhausted=lambda: False)

    def _take_over(self, record: MatchRecord, seat: int) -> list[Event]:
        """The match's takeover bot plays the seat from now on."""
        held = record.seats[seat]
        held.taken_over = True
        held.bot = record.takeover
        return [SeatTakenOver(seat, record.takeover)]

    # ----- leaving and cancelling -------------------------------------------------------

    def leave(self, match_id: str, token: str | None) -> LeaveOutcome:
        """The token's seat leaves; its token stops working. The public match and what happened."""

        def change(loaded: Loaded) -> Write[LeaveOutcome]:
            record = found(loaded, match_id)
            seat = self.core.seat_of(record, token)
            status = record.status
            events: list[Event] = [SeatLeft(seat)]
            if status == "waiting":
                record.seats[seat] = SeatRecord(open=True)
            else:
                held = record.seats[seat]
                held.left = True
                held.token_sha256 = None
                if status == "playing":
                    events += self._take_over(record, seat)
                    events += self.core.bots_play_on(record)

            def answer(events: list[EventDict]) -> LeaveOutcome:
                if status == "waiting" and record.listed:
                    self.core.store.lobby_add(match_id, record.created_at)
                if status == "waiting" and record.room_code is not None:
                    self.core.store.touch_room(record.room_code)
                return leave_outcome(record, events)

            return Write(record, events, answer)

        return self.core.writer.write(match_id, change)

    def cancel(self, match_id: str, token: str | None) -> None:
        """Delete a match still waiting for seats (its host's token); its followers get ``match_cancelled``.

        Only the host cancels (:func:`hosts`); another seat is refused (:class:`NotHost`) and leaves instead.
        """

        def change(loaded: Loaded) -> Write[None]:
            record = found(loaded, match_id)
            if not hosts(record, self.core.seat_of(record, token)):
                raise NotHost("only the match's host can cancel it: leave it instead (POST .../leave)")
            if record.status != "waiting":
                raise MatchNotWaiting("only a match still waiting for seats can be cancelled")

            def answer(_: object) -> None:
                self.core.store.lobby_remove(match_id)
                if record.room_code is not None:
                    self.core.store.release_room(record.room_code, match_id)

            return Write(record, [MatchCancelled()], answer, delete=True)

        self.core.writer.write(match_id, change)

    # ----- rematch ------------------------------------------------------------------------

    def rematch(self, match_id: str, token: str | None) -> SeatToken:
        """The token's seat in the next match (created by the first call), with its own token there.

        The same call again answers the same; the next match deals once
        every remote seat has claimed its place. Once the next match is
        cancelled (or expired unclaimed) it stays gone: every call, the
        first seat's as well, is refused with ``rematch_cancelled``, and
        ``next_match_id`` keeps naming it (404).
        """
        record = self.core.get(match_id)
        seat = self.core.seat_of(record, token)
        held_digest = record.seats[seat].token_sha256
        if record.status != "finished":
            raise MatchNotFinished("a rematch is for a finished match")
        next_id = record.next_match_id or next_match_id(match_id)
        if self.core.store.load(next_id).record is None:
            if record.next_match_id is not None:
                raise _rematch_gone(next_id)
            made = self.core.add(next_id, partial(_next_match, record, next_id, self.core.now()))
            if not made and self.core.store.load(next_id).record is None:
                raise _rematch_gone(next_id)  # made and cancelled since this call read the finished match
        if record.next_match_id is None:
            self._announce_rematch(match_id, next_id)
        assert held_digest is not None  # a seat that left has no token, and no account acts for it
        mine = rematch_token(held_digest, next_id)
        self._claim_seat(next_id, seat, mine)
        return SeatToken(seat, mine, next_id)

    def _announce_rematch(self, match_id: str, next_id: str) -> None:
        """The finished match points at its rematch, and tells its followers once."""

        def change(loaded: Loaded) -> Write[None] | Done[None]:
            record = found(loaded, match_id)
            if record.next_match_id is not None:
                return Done(None)
            record.next_match_id = next_id
            return Write(record, [Rematch(next_id)], lambda _: None)

        self.core.writer.write(match_id, change)

    def _claim_seat(self, next_id: str, seat: int, token: str) -> None:
        """Give the seat's reserved place in the next match to this token (again: nothing changes)."""
        digest = token_digest(token)

        def change(loaded: Loaded) -> Write[None] | Done[None]:
            record = loaded.record
            if record is None:
                raise _rematch_gone(next_id)
            held = record.seats[seat]
            if held.token_sha256 == digest or not held.reserved:
                return Done(None)
            held.reserved = False
            held.token_sha256 = digest
            events: list[Event] = [SeatJoined(seat, held.name or "")]
            if not any(s.open or s.reserved for s in record.seats):
                events += self.core.deal(record)
            return Write(record, events, lambda _: None)

        self.core.writer.write(next_id, change)


def hosts(record: MatchRecord, seat: int) -> bool:
    """Whether ``seat`` is the match's host's: the seat of its host account, or seat 0 when no account hosts it."""
    if record.host is not None:
        return record.seats[seat].account == record.host
    return seat == 0


def _rematch_gone(next_id: str) -> RematchCancelled:
    return RematchCancelled(
        f"the rematch {next_id!r} was cancelled (or expired before every seat claimed its place); "
        "create a new match to play again"
    )


def next_match_id(match_id: str) -> str:
    """The id of a match's rematch: the same for every seat that asks, so racing calls make one match."""
    return hashlib.sha256(f"tienlen-rematch:{match_id}".encode()).hexdigest()[:20]


def rematch_token(seat_digest: str, next_id: str) -> str:
    """A seat's token in the rematch, derived from the digest of its token in the finished match.

    The digest never leaves the server, and the same seat always gets the
    same token, whether it asks with its seat's token or with the token of
    the account that holds it; so nothing more needs to be stored.
    """
    digest = hmac.new(seat_digest.encode(), f"tienlen-rematch:{next_id}".encode(), hashlib.sha256)
    return token_text(digest.digest()[:TOKEN_BYTES])


def _next_match(finished: MatchRecord, next_id: str, now: float) -> MatchRecord:
    """The rematch of a finished match: same seats in the same places, same rules, clock and takeover.

    Bots stay bots; a seat whose player left is open to a join; every other
    remote seat is reserved for the player who held it.
    """
    seats: list[SeatRecord] = []
    for held in finished.seats:
        if held.token_sha256 is None and not held.left and held.bot is not None:
            seats.append(SeatRecord(name=held.name, bot=held.bot))
        elif held.left:
            seats.append(SeatRecord(open=True))
        else:
            seats.append(SeatRecord(name=held.name, reserved=True, account=held.account))
    return MatchRecord(
        match_id=next_id,
        version=0,
        seats=seats,
        rules=finished.rules,
        seed=secrets.randbits(63),
        created_at=now,
        listed=finished.listed,
        watchable=finished.watchable,
        clock=finished.clock,
        takeover=finished.takeover,
        rematch_of=finished.match_id,
        host=finished.host,
    )
