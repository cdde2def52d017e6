"""Quick play: an account queues for a table (``POST /v1/queue``) and is seated when one forms.

Tickets wait in Redis (:mod:`tienlen.store.queue`), in pools by table size,
preset and rated flag; any worker of any server pairs them
(:func:`.pairing.pair`, at most one pairer of a pool at a time), and a
ticket is matched at most once whatever races: its table's tickets are
claimed all or none, then the match is stored, then they are confirmed
(a pairing whose worker died in between is finished or undone by the
sweeper). Seats nobody took after :attr:`Queue.fill_s` go to the house bot
whose rating is nearest the table's players'. A matched account hears
``queue_matched`` on its inbox (then ``match_started``); its token acts for its seat.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from functools import partial

from ..engine import RulesError, resolve_rules
from ..events import STORE, InboxEvent, MatchCancelled, QueueLeft, QueueMatched
from ..store.accounts import AccountRecord
from ..store.base import Loaded
from ..store.errors import StoreUnavailableError
from ..store.queue import TicketRecord
from ..store.records import Clock, MatchRecord, SeatRecord, new_match_id, new_token, token_digest
from .accounts import authorized
from .commands import Enqueue
from .core import Core
from .errors import AlreadyMatched, AlreadyQueued, InvalidRequest, TicketNotFound
from .pairing import Table, pair
from .rating_model import Rating
from .writer import Write, found

PAIR_EVERY_S = 0.5  # how often (at most) the servers on one Redis pair the queue, together
PAIR_LOCK_MS = 5000  # a pairer that died holds its pool this long at most
RECOVER_AFTER_S = 10.0  # a pairing not confirmed by then is finished (its match exists) or undone
TAKEOVER = "medium"  # plays a queued seat whose player leaves or times out


@dataclass(frozen=True, slots=True)
class TicketState:
    """A ticket as its holder sees it: ``waiting``, ``matched`` (with the match and seat) or ``left``."""

    ticket: str
    status: str
    players: int
    preset: str
    rated: bool
    queued_at: float
    match_id: str | None
    seat: int | None


def ticket_state(record: TicketRecord) -> TicketState:
    """What the holder is told of a ticket (one being matched right now still shows ``waiting``)."""
    matched = record.status == "matched"
    status = "waiting" if record.status == "claimed" else record.status
    return TicketState(
        record.ticket,
        status,
        record.players,
        record.preset,
        record.rated,
        record.queued_at,
        record.match_id if matched else None,
        record.seat if matched else None,
    )


class Queue:
    """Quick play, over the shared :class:`~.core.Core`; ``tickets`` is the store's queue of tickets."""

    def __init__(self, core: Core, *, fill_s: float = 15.0, turn_s: int | None = 30) -> None:
        self.core = core
        self.tickets = core.store.queue()
        self.fill_s = fill_s  # a table's seats nobody took after this go to house bots
        self.clock = None if not turn_s else Clock(turn_s)  # its matches' turn clock (None: none)
        self._next_pairing = 0.0

    # ----- the holder's calls -----------------------------------------------------------

    def enqueue(self, command: Enqueue, token: str | None) -> TicketState:
        """Queue the token's account (scope ``play``) for a table of ``players`` with ``preset``, ``rated`` or not.

        :class:`AlreadyQueued` when it holds a ticket already. The queue is
        paired at once, so a table that can form now (or house bots, with a
        fill time of 0) is made before the answer.
        """
        account = authorized(self.core.accounts, token, "play")
        players, preset = command.players, command.preset
        try:
            resolve_rules({"preset": preset}, players=players)
        except RulesError as error:
            raise InvalidRequest(str(error), errors={"preset": [str(error)]}) from None
        ticket = self.queue_account(account, players, preset, command.rated, command.entropy)
        self.pair(force=True)
        found = self.tickets.get(ticket.ticket)
        return ticket_state(found if found is not None else ticket)

    def queue_account(
        self, account: AccountRecord, players: int, preset: str, rated: bool, entropy: str = ""
    ) -> TicketRecord:
        """Put a ticket of ``account`` in its pool (its rating now kept on it, and its fair-deal ``entropy``);
        :class:`AlreadyQueued` if it has one."""
        kept = self.core.history.rated.ratings.ratings(account.account_id).get(players)
        rating = (Rating.new() if kept is None else Rating.from_dict(kept)).shown
        record = TicketRecord(
            secrets.token_urlsafe(12),
            account.account_id,
            players,
            preset,
            rated,
            rating,
            self.core.now(),
            "waiting",
            entropy=entropy,
        )
        held = self.tickets.enqueue(record)
        if held is not None:
            raise AlreadyQueued(f"this account is queued already with ticket {held!r}: leave it first")
        return record

    def ticket(self, ticket_id: str, token: str | None, wait_s: float = 0) -> TicketState:
        """The token's account's ticket; with ``wait_s``, answered as soon as it is matched (or the wait ends).

        A ticket of another account is :class:`TicketNotFound`, as an unknown one is.
        """
        account = authorized(self.core.accounts, token, "play")
        deadline = time.monotonic() + wait_s
        seen = self.core.notices.inbox.last_seq(account.account_id)  # before the read: a match told after it wakes us
        found = self._ticket_of(account, ticket_id)
        while found.status == "waiting" and time.monotonic() < deadline:
            remaining = deadline - time.monotonic()
            news = self.core.notices.inbox.events(account.account_id, seen, remaining)
            if not news:
                break
            seen = news[-1]["seq"]
            if any(_about(STORE.load_notice(e).event, ticket_id) for e in news):  # matched, or left (elsewhere)
                found = self._ticket_of(account, ticket_id)
        return found

    def my_ticket(self, token: str | None) -> TicketState:
        """The token's account's open ticket (waiting, or being seated); :class:`TicketNotFound` when it has none."""
        account = authorized(self.core.accounts, token, "play")
        held = self.tickets.held(account.account_id)
        if held is None:
            raise TicketNotFound("this account holds no open ticket")
        return self._ticket_of(account, held)

    def _ticket_of(self, account: AccountRecord, ticket_id: str) -> TicketState:
        record = self.tickets.get(ticket_id)
        if record is None or record.account_id != account.account_id:
            raise TicketNotFound(f"this account has no ticket {ticket_id!r}")
        return ticket_state(record)

    def leave(self, ticket_id: str, token: str | None) -> None:
        """Take the token's account's waiting ticket out of the queue; :class:`AlreadyMatched` once it is matched."""
        account = authorized(self.core.accounts, token, "play")
        record = self.tickets.get(ticket_id)
        if record is None or record.account_id != account.account_id:
            raise TicketNotFound(f"this account has no ticket {ticket_id!r}")
        before = self.tickets.leave(record)
        if before in ("claimed", "matched"):
            raise AlreadyMatched("this ticket found its table already: play it, or leave the match")
        if before == "":
            raise TicketNotFound(f"this account has no ticket {ticket_id!r}")
        if before == "waiting":  # it left now: a long poll of it elsewhere answers at once
            self.core.notices.tell(account.account_id, QueueLeft(ticket_id))

    # ----- pairing (every server's sweeper, and each new ticket) -----------------------

    def pair(self, *, force: bool = False) -> int:
        """Pair every pool whose lock this server gets; the number of tables made.

        Without ``force`` at most every :data:`PAIR_EVERY_S` per server, and
        only by the server that takes the shared turn (so many servers do not
        all read the pools each tick). With no ticket waiting it only reads.
        """
        now = self.core.now()
        if not force:
            if now < self._next_pairing:
                return 0
            self._next_pairing = now + PAIR_EVERY_S
        self._recover_pairings()
        pools = self.tickets.pools()  # read only: an idle queue writes nothing, however often it is looked at
        if not pools or (not force and not self.tickets.lock("tick", int(PAIR_EVERY_S * 1000))):
            return 0
        made = 0
        for pool in pools:
            if not self.tickets.lock(f"pool:{pool}", PAIR_LOCK_MS):
                continue
            try:
                made += self._pair_pool(pool)
            finally:
                self.tickets.unlock(f"pool:{pool}")
        return made

    def _pair_pool(self, pool: str) -> int:
        players_text, preset, rated_text = pool.split(":")
        players, rated = int(players_text), rated_text == "1"
        waiting = self.tickets.waiting(pool)
        if not waiting:
            return 0
        made = 0
        for table in pair(waiting, players, self.core.now(), self.fill_s):
            if self._seat_table(pool, players, preset, rated, table):
                made += 1
        return made

    def _seat_table(self, pool: str, players: int, preset: str, rated: bool, table: Table) -> bool:
        """Claim the table's tickets, store its match, confirm them and tell their accounts; False if one was gone."""
        match_id = new_match_id()
        tickets = [t.ticket for t in table.tickets]
        if not self.tickets.claim(pool, match_id, tickets, self.core.now()):
            return False
        records = [self.tickets.get(ticket) for ticket in tickets]
        held = [r for r in records if r is not None]
        if len(held) != len(records):  # cannot be (claimed tickets are kept): leave it to the recovery
            return False
        make = partial(self._queued_match, match_id, held, players, preset, rated, table.bots)
        if not self.core.add(match_id, make, fresh=True):
            self.tickets.put_back(match_id, pool, tickets)
            return False
        if self._confirm(match_id, held):
            return True
        now = self.tickets.get(held[0].ticket)
        if now is not None and now.status == "matched" and now.match_id == match_id:
            return True  # this pairing stalled and the recovery confirmed it
        self._call_off(match_id)  # this pairing stalled so long that it was undone: its tickets wait again
        return False

    def _call_off(self, match_id: str) -> None:
        """Delete a queued match whose tickets went back to the queue (its followers get ``match_cancelled``)."""

        def change(loaded: Loaded) -> Write[None]:
            return Write(found(loaded, match_id), [MatchCancelled()], lambda _: None, delete=True)

        self.core.writer.write(match_id, change, exhausted=lambda: None)

    def _queued_match(
        self, match_id: str, tickets: list[TicketRecord], players: int, preset: str, rated: bool, bots: int
    ) -> MatchRecord:
        """The match of a table: its players in ticket order, then house bots of about their strength."""
        seats = []
        for ticket in tickets:
            account = self.core.accounts.get(ticket.account_id)
            name = "(deleted)" if account is None else account.name
            seats.append(
                SeatRecord(
                    name=name, token_sha256=token_digest(new_token()), account=ticket.account_id, entropy=ticket.entropy
                )
            )
        if bots:
            bot = self._house_bot_near(players, sum(t.rating for t in tickets) / len(tickets))
            seats += [SeatRecord(name=bot.name, bot=bot.name, account=bot.account_id) for _ in range(bots)]
        return MatchRecord(
            match_id=match_id,
            version=0,
            seats=seats,
            rules=resolve_rules({"preset": preset}, players=players),
            seed=secrets.randbits(63),
            created_at=self.core.now(),
            clock=self.clock,
            takeover=TAKEOVER,
            rated=rated,
        )

    def _house_bot_near(self, players: int, rating: float) -> AccountRecord:
        """The house bot whose rating at ``players`` seats is nearest ``rating``."""
        house = self.core.history.rated.house_bots()

        def distance(level: str) -> float:
            kept = self.core.history.rated.ratings.ratings(house[level].account_id).get(players)
            return abs((Rating.new() if kept is None else Rating.from_dict(kept)).shown - rating)

        return house[min(house, key=distance)]

    def _confirm(self, match_id: str, tickets: list[TicketRecord]) -> bool:
        """The match is stored: its tickets are matched and their accounts told; False when it was undone."""
        if not self.tickets.confirm(match_id, tickets, self.core.now()):
            return False
        self.core.notices.tell_many(
            {t.account_id: [QueueMatched(t.ticket, match_id, seat)] for seat, t in enumerate(tickets)}
        )
        return True

    def _recover_pairings(self) -> None:
        """Finish the pairings whose worker died after claiming: confirm them if their match exists, else undo."""
        for match_id in self.tickets.stale(self.core.now() - RECOVER_AFTER_S):
            tickets = self.tickets.pairing(match_id)
            records = [r for r in (self.tickets.get(t) for t in tickets) if r is not None]
            if not records:
                self.tickets.put_back(match_id, "", [])
                continue
            try:
                exists = self.core.store.load(match_id).record is not None
            except StoreUnavailableError:
                continue
            if exists:
                self._confirm(match_id, records)
            else:
                self.tickets.put_back(match_id, records[0].pool, tickets)


def _about(event: InboxEvent, ticket_id: str) -> bool:
    """Whether an inbox event tells of the ticket (it was matched, or left)."""
    return isinstance(event, QueueMatched | QueueLeft) and event.ticket == ticket_id
