"""The match service: creating, joining and playing matches (the core of API v1).

Each write is a change given to the match writer (:mod:`.writer`): it
applies the action with the engine (plus every bot turn that follows) to the
record read, and the writer seals and commits it with a compare-and-set on the
version. A lost race is retried; refusals raise a
:class:`~.errors.ServiceError` or the engine's
:class:`~tienlen.engine.IllegalActionError` and change nothing. The rest of a
match's life is in :mod:`.lifecycle`; reading a match in :mod:`.reads`.
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any

from ..engine import Event, Match
from ..events import SeatJoined
from ..store.base import AnswerKey, Loaded
from ..store.errors import StoreUnavailableError
from ..store.records import MatchRecord, SeatRecord, new_fair_secret, new_match_id, new_token, token_digest
from .commands import Action, BotSeat, Create, Join, OpenSeat, Play
from .core import Core, playing
from .errors import (
    AccountRequired,
    AlreadySeated,
    FixedDealNotPrivate,
    IdempotencyKeyReused,
    InvalidRequest,
    MatchFull,
    MatchNotFound,
    StaleVersion,
)
from .idempotency import (
    KeptAction,
    body_digest,
    caller_of,
    check_body,
    created_match_id,
    recall_action,
    remember_action,
)
from .states import ActionOutcome, Created, SeatToken, action_outcome, match_state
from .writer import LOST, Done, EventDict, Keyed, Lost, Write, found, kept_changing


class MatchService:
    """The match use cases that write a match's play: create, join and act, over the shared
    :class:`~.core.Core` (the reads are :mod:`.reads`, the rest of a match's life :mod:`.lifecycle`).

    With ``anonymous_hosting`` a match with open seats may be made without an
    account's token (a private server); by default hosting takes an account.
    """

    def __init__(self, core: Core, *, anonymous_hosting: bool = False) -> None:
        self.core = core
        self.anonymous_hosting = anonymous_hosting

    # ----- writing --------------------------------------------------------------

    def create(self, command: Create, key: str | None = None, client: str = "", token: str | None = None) -> Created:
        """Create a match; deal at once unless a seat is open.

        With an account's ``token`` (scope ``play``) the account hosts the
        match and holds its first remote seat, under the account's name.
        Open seats (a room code to join by) take an account unless
        :attr:`anonymous_hosting`. With an Idempotency-``key`` the match's id is derived from it, and
        its id and tokens (sealed) are kept under it in the same commit, bound to the caller (the
        account, else the ``client``'s address: :func:`~.idempotency.caller_of`): a retry by the same
        caller with the same key and body answers them again (with the match as it is now) and creates
        nothing; with another body, or by another caller, :class:`IdempotencyKeyReused`.
        """
        if command.fixed and command.joinable:
            raise FixedDealNotPrivate(
                "seed and deal are for private matches only (every seat the creator's own or a bot): a match "
                "others can join is dealt fairly (see fair_deal)"
            )
        host = self.core.player(token)
        if host is None and not self.anonymous_hosting and any(isinstance(s, OpenSeat) for s in command.seats):
            raise AccountRequired("hosting a match with open seats takes an account: sign in and send its token")
        rules, deal, clock, seed = command.rules, command.deal, command.clock, command.seed
        tokens: list[SeatToken] = []
        seats: list[SeatRecord] = []
        for index, seat in enumerate(command.seats):
            if isinstance(seat, OpenSeat):
                seats.append(SeatRecord(open=True))
            elif isinstance(seat, BotSeat):
                seats.append(SeatRecord(name=seat.name, bot=seat.bot))
            else:
                made = new_token()
                tokens.append(SeatToken(index, made))
                held = SeatRecord(name=seat.name, token_sha256=token_digest(made), entropy=seat.entropy)
                if host is not None and not any(s.account for s in seats):
                    held.name, held.account = host.name, host.account_id
                seats.append(held)
        now = self.core.now()
        caller = caller_of(None if host is None else host.account_id, client)
        keyed = None if key is None else Keyed(AnswerKey("create", key), command.digest, caller, self._created_again)

        def change(loaded: Loaded) -> Write[Created] | Lost:
            if loaded.record is not None:
                if keyed is not None:
                    raise IdempotencyKeyReused("this Idempotency-Key made a match longer ago than its answer is kept")
                return LOST  # another match has this id: draw another
            match_id = drawn[-1]
            record = MatchRecord(
                match_id=match_id,
                version=0,
                seats=list(seats),
                rules=rules,
                seed=seed if seed is not None else secrets.randbits(63),
                deal=None if deal is None else list(deal),
                created_at=now,
                listed=command.listed,
                watchable=command.watchable,
                clock=clock,
                takeover=command.takeover,
                host=None if host is None else host.account_id,
                fair_secret=None if command.fixed else new_fair_secret(),
            )
            given = [{"seat": t.seat, "token": t.token} for t in tokens]
            write = self.core.opened(record, {"match_id": match_id, "tokens": given})

            def answer(events: list[EventDict]) -> Created:
                write.answer(events)
                return Created(match_id, tuple(tokens), match_state(record))

            return Write(record, write.events, answer, keep=write.keep, lost=write.lost)

        drawn: list[str] = []

        def new_id() -> str:
            drawn.append(new_match_id() if keyed is None else created_match_id(keyed.key))
            return drawn[-1]

        def exhausted() -> Created:
            raise StoreUnavailableError("could not store the new match")

        return self.core.writer.write(new_id, change, keyed, exhausted, fresh=True)

    def _created_again(self, loaded: Loaded, first: dict[str, Any]) -> Created:
        """The kept answer to a create, for a retry by the same caller with the same key (and body)."""
        record = loaded.record
        if record is None:
            raise MatchNotFound(f"the match {first['match_id']!r} this Idempotency-Key created is gone")
        if record.listed and record.status == "waiting" and any(s.open for s in record.seats):
            self.core.store.lobby_add(record.match_id, record.created_at)  # in case the first try's listing was lost
        tokens = tuple(SeatToken(int(t["seat"]), str(t["token"])) for t in first["tokens"])
        return Created(record.match_id, tokens, match_state(record))

    def join(
        self, match_id: str, command: Join, key: str | None = None, client: str = "", token: str | None = None
    ) -> SeatToken:
        """Fill the lowest open seat (with the joiner's fair-deal ``entropy``); deal when the last seat is filled.

        With an account's ``token`` (scope ``play``) the seat is the
        account's, under its name (one seat an account: :class:`AlreadySeated`);
        without one the seat takes ``name``. With an Idempotency-``key``
        the seat and token (sealed) are kept under it in the same commit, bound
        to the caller (the account, else the ``client``'s address): a retry by
        the same caller with the same key and name answers them again and takes
        no other seat; with another name, or by another caller,
        :class:`IdempotencyKeyReused`.
        """
        account = self.core.player(token)
        name, entropy = command.name if account is None else account.name, command.entropy
        if name is None:
            raise InvalidRequest("name: a name is needed to join without an account", errors={"name": ["missing"]})
        keyed = None
        if key is not None:
            caller = caller_of(None if account is None else account.account_id, client)
            keyed = Keyed(AnswerKey("join", key), body_digest({"name": name}), caller, self._joined_again)

        def change(loaded: Loaded) -> Write[SeatToken]:
            record = found(loaded, match_id)
            open_seats = [i for i, s in enumerate(record.seats) if s.open]
            if not open_seats or record.status != "waiting":
                raise MatchFull("no seat of this match is open")
            if account is not None and record.seat_of_account(account.account_id) is not None:
                raise AlreadySeated(f"the account {name!r} already holds a seat of this match")
            seat = open_seats[0]
            made = new_token()
            held = SeatRecord(name=name, token_sha256=token_digest(made), entropy=entropy)
            held.account = None if account is None else account.account_id
            record.seats[seat] = held
            events: list[Event] = [SeatJoined(seat, name)]
            if not any(s.open or s.reserved for s in record.seats):
                events += self.core.deal(record)
            if account is not None:  # before the commit: the match is always found to scrub the name from
                self.core.history.kept.seat_bound(account.account_id, match_id, self.core.now())

            def answer(_: object) -> SeatToken:
                if len(open_seats) == 1:
                    self.core.store.lobby_remove(match_id)
                elif record.room_code is not None:
                    self.core.store.touch_room(record.room_code)
                return SeatToken(seat, made)

            return Write(record, events, answer, keep={"seat": seat, "token": made})

        return self.core.writer.write(match_id, change, keyed)

    def _joined_again(self, loaded: Loaded, first: dict[str, Any]) -> SeatToken:
        """The kept answer to a join, for a retry by the same caller with the same key (and name)."""
        record = loaded.record
        if record is None:
            raise MatchNotFound("the match this Idempotency-Key joined is gone")
        if not any(s.open for s in record.seats):
            self.core.store.lobby_remove(record.match_id)  # in case the first try's unlisting was lost
        return SeatToken(int(first["seat"]), str(first["token"]))

    def act(self, match_id: str, token: str | None, action: Action, idempotency: str | None) -> ActionOutcome:
        """Apply a play or pass for the token's seat, then every bot turn that follows.

        The answer is the seat's view with every event the action caused. With
        an ``idempotency`` key a compact answer is kept on the seat in the same
        commit (the match's refusal, under the key in the store) with a digest
        of the body, and a retry with the same key and body answers it again
        without applying anything (see :mod:`.idempotency`).
        """
        keyed: Keyed[ActionOutcome] | None = None
        if idempotency is not None and token is not None:
            keyed = Keyed(AnswerKey(token_digest(token), idempotency), action.digest)

        def change(loaded: Loaded) -> Write[ActionOutcome] | Done[ActionOutcome]:
            record = found(loaded, match_id)
            seat = self.core.seat_of(record, token)
            if keyed is not None:
                done = recall_action(record.seats[seat], keyed.key)
                if done is not None:
                    return Done(self._acted_again(record, seat, done, keyed.digest))
            events = self._judge_and_apply(record, seat, action)
            record.seats[seat].timeouts = 0

            def remember(events: list[EventDict]) -> None:
                if keyed is not None:
                    remember_action(record.seats[seat], keyed.key, keyed.digest, events[0]["seq"], events[-1]["seq"])

            return Write(record, events, partial(action_outcome, record, seat), sealed=remember)

        return self.core.writer.write(
            match_id, change, keyed, kept_changing("the match kept changing while your action was applied; try again")
        )

    def _acted_again(self, record: MatchRecord, seat: int, done: KeptAction, digest: str) -> ActionOutcome:
        """The answer to an action kept under its key: the events it caused, and the seat's view now.

        Given only once the action's write is as durable as a new one: the
        attempt that made it may have answered 503 ``outcome_unknown``.
        """
        check_body(done, digest)
        self.core.store.confirm(record.match_id)
        events: list[EventDict] = []
        after = done.first_seq - 1
        while after < done.last_seq:
            found = self.core.store.events(record.match_id, after)
            if not found:
                break
            events += [e for e in found if e["seq"] <= done.last_seq]
            after = found[-1]["seq"]
        return action_outcome(record, seat, events)

    def _judge_and_apply(self, record: MatchRecord, seat: int, action: Action) -> list[Event]:
        """Refuse the action (state, turn, version, then the engine's reasons) or apply it with the bots' replies."""
        engine = playing(record)
        engine.verify_turn(seat)
        if action.version is not None and action.version != record.version:
            raise StaleVersion(f"the match is at version {record.version}, not {action.version}")
        if isinstance(action, Play):
            action.refuse()  # cards that name no card, or a card twice
        return self.core.think(record, partial(self._apply, record, engine, seat, action))

    # ----- helpers --------------------------------------------------------------

    def _apply(self, record: MatchRecord, engine: Match, seat: int, action: Action) -> list[Event]:
        """Apply the seat's action and the bot turns after it; the new events."""
        done = engine.play(seat, action.mask) if isinstance(action, Play) else engine.pass_turn(seat)
        return done + self.core.bot_turns(record)


__all__ = ["MatchService"]
