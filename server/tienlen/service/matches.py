"""The match service: every use case of API v1, on the engine, the bots and a store.

Each write reads the record, applies the action with the engine (plus every
bot turn that follows), and commits with a compare-and-set on the version.
A lost race is retried; refusals raise a :class:`~.errors.ServiceError` or the
engine's :class:`~tienlen.engine.IllegalActionError` and change nothing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

from .. import bots
from ..engine import (
    DealError,
    Event,
    Match,
    RulesError,
    UnknownCardError,
    format_mask,
    parse_deal,
    resolve_rules,
    seat_view,
)
from ..store import (
    AnswerKey,
    MatchRecord,
    MatchStore,
    SeatRecord,
    StoreUnavailableError,
    new_match_id,
    new_token,
    token_digest,
)
from .errors import InvalidRequest, InvalidToken, MatchFull, MatchNotFound, MatchNotPlaying, StaleVersion
from .present import events_answer, hint_answer, legal_answer, seat_answer

T = TypeVar("T")
Offload = Callable[[Callable[[], Any]], Any]

MAX_ATTEMPTS = 8
FINAL_EVENTS = frozenset({"match_ended"})  # after one of these a match has no more events
BOT_TURNS_BUDGETS = 8  # full-budget Hard decisions one request may spend before Hard hurries


@dataclass(frozen=True, slots=True)
class Created:
    """A new match and the tokens of its named remote seats."""

    record: MatchRecord
    tokens: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat taken by a join, and its token."""

    record: MatchRecord
    seat: int
    token: str


class MatchService:
    """Use cases of API v1 over one store.

    ``offload`` runs the CPU-heavy part of a request (bots thinking, hints)
    somewhere that does not stop the server's other connections, e.g. a real
    thread under gevent; by default it runs in place.
    """

    def __init__(self, store: MatchStore, bot_budget_s: float, offload: Offload | None = None) -> None:
        self.store = store
        self.bot_budget_s = bot_budget_s
        self._offload: Offload = offload or _in_place

    def _think(self, record: MatchRecord, work: Callable[[], T]) -> T:
        """Run ``work`` through ``offload`` when bots may think in it, else in place."""
        return cast(T, self._offload(work)) if record.bots else work()

    # ----- reading --------------------------------------------------------------

    def get(self, match_id: str) -> MatchRecord:
        """The stored record; :class:`MatchNotFound` when there is none."""
        record = self.store.load(match_id).record
        if record is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return record

    def seat_of(self, record: MatchRecord, token: str | None) -> int:
        """The seat a bearer token belongs to; :class:`InvalidToken` when none."""
        seat = None if token is None else record.seat_of_token(token)
        if seat is None:
            raise InvalidToken("send 'Authorization: Bearer <token>' with a token of a seat of this match")
        return seat

    def view(self, match_id: str, token: str | None) -> dict[str, Any]:
        """A seat's view."""
        record = self.get(match_id)
        return seat_answer(record, self.seat_of(record, token))

    def legal(self, match_id: str, token: str | None) -> dict[str, Any]:
        """The asking seat's legal plays (none when it is not on turn)."""
        record = self.get(match_id)
        seat = self.seat_of(record, token)
        engine = record.engine
        if engine is None or engine.outcome is not None or engine.turn != seat:
            return legal_answer(None)
        return legal_answer(engine.legal_plays())

    def hint(self, match_id: str, token: str | None) -> dict[str, Any]:
        """A suggested action for the seat on turn, with its explanation."""
        record = self.get(match_id)
        seat = self.seat_of(record, token)
        engine = _playing(record)
        engine.verify_turn(seat)

        def think() -> dict[str, Any]:
            view, legal, rng = seat_view(engine, seat), engine.legal_plays(), bots.bot_rng(engine, seat)
            return hint_answer(bots.hint(view, legal, rng, budget_s=self.bot_budget_s))

        return cast(dict[str, Any], self._offload(think))

    def events(self, match_id: str, after: int, wait_s: float) -> dict[str, Any]:
        """Public events after ``after``, waiting up to ``wait_s`` for the first one."""
        found = self.store.events(match_id, after, wait_s)
        if found is None:
            raise MatchNotFound(f"no match {match_id!r}")
        return events_answer(found, after)

    def follow(self, match_id: str, after: int, idle_s: float) -> Following:
        """The match's events after ``after`` as they come, ending after its last one.

        :class:`MatchNotFound` up front; an empty batch every ``idle_s``
        without news. A finished match with nothing after ``after`` ends at once.
        """
        record = self.get(match_id)
        engine = record.engine
        if engine is not None and engine.outcome is not None and after >= record.last_seq:
            return Following(None)
        return Following(self.store.follow(match_id, after, idle_s))

    # ----- writing --------------------------------------------------------------

    def create(self, body: Mapping[str, Any]) -> Created:
        """Create a match; deal at once unless a seat is open."""
        seats_in = body["seats"]
        if all("bot" in s for s in seats_in):
            raise InvalidRequest("at least one seat must be remote or open", errors={"seats": ["all seats are bots"]})
        rules_in = dict(body["rules"])
        if "players" in rules_in and rules_in["players"] != len(seats_in):
            raise InvalidRequest("rules.players must equal the number of seats", errors={"rules": ["players"]})
        try:
            rules = resolve_rules(rules_in, players=len(seats_in))
        except RulesError as error:
            raise InvalidRequest(str(error), errors={"rules": {error.parameter: [str(error)]}}) from None
        deal = None
        if "deal" in body:
            try:
                deal = parse_deal(body["deal"], rules.players)
            except (DealError, UnknownCardError) as error:
                raise InvalidRequest(f"deal: {error}", errors={"deal": [str(error)]}) from None
        seed = body.get("seed")
        tokens: list[dict[str, Any]] = []
        seats: list[SeatRecord] = []
        for index, seat in enumerate(seats_in):
            if seat.get("open"):
                seats.append(SeatRecord(open=True))
            elif "bot" in seat:
                seats.append(SeatRecord(name=seat["name"], bot=seat["bot"]))
            else:
                token = new_token()
                tokens.append({"seat": index, "token": token})
                seats.append(SeatRecord(name=seat["name"], token_sha256=token_digest(token)))
        for _ in range(MAX_ATTEMPTS):
            record = MatchRecord(
                match_id=new_match_id(),
                version=1,
                seats=list(seats),
                rules=rules,
                seed=seed if seed is not None else secrets.randbits(63),
                deal=deal,
            )
            events: list[dict[str, Any]] = []
            if not any(s.open for s in seats):
                events = self._think(record, partial(self._start, record))
            _number(record, events)
            if self.store.commit(record, None, events):
                return Created(record, tokens)
        raise StoreUnavailableError("could not store the new match")

    def join(self, match_id: str, name: str) -> Joined:
        """Fill the lowest open seat; deal when the last one fills."""
        for _ in range(MAX_ATTEMPTS):
            record = self.get(match_id)
            expected = record.version
            open_seats = [i for i, s in enumerate(record.seats) if s.open]
            if not open_seats:
                raise MatchFull("no seat of this match is open")
            seat = open_seats[0]
            token = new_token()
            record.seats[seat] = SeatRecord(name=name, token_sha256=token_digest(token))
            events: list[dict[str, Any]] = [{"type": "seat_joined", "seat": seat, "name": name}]
            if len(open_seats) == 1:
                events += self._think(record, partial(self._start, record))
            record.version += 1
            _number(record, events)
            if self.store.commit(record, expected, events):
                return Joined(record, seat, token)
        raise StaleVersion("the match kept changing; try again")

    def act(self, match_id: str, token: str | None, body: Mapping[str, Any], idempotency: str | None) -> dict[str, Any]:
        """Apply a play or pass for the token's seat, then every bot turn that follows.

        With an ``idempotency`` key the answer is kept, and a retry with the
        same key answers it again without applying anything.
        """
        answer_key = None if idempotency is None or token is None else AnswerKey(token_digest(token), idempotency)
        for _ in range(MAX_ATTEMPTS):
            loaded = self.store.load(match_id, answer_key)
            record = loaded.record
            if record is None:
                raise MatchNotFound(f"no match {match_id!r}")
            seat = self.seat_of(record, token)
            if loaded.cached is not None:
                return loaded.cached
            engine = _playing(record)
            engine.verify_turn(seat)
            if body.get("version") is not None and body["version"] != record.version:
                raise StaleVersion(f"the match is at version {record.version}, not {body['version']}")
            expected = record.version

            events, answer = self._think(record, partial(self._apply, record, engine, seat, body))
            if self.store.commit(record, expected, events, None if answer_key is None else (answer_key, answer)):
                return answer
        raise StaleVersion("the match kept changing while your action was applied; try again")

    # ----- helpers --------------------------------------------------------------

    def _apply(
        self, record: MatchRecord, engine: Match, seat: int, body: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Apply the seat's action and the bot turns after it; the new events and the seat's answer."""
        done = engine.pass_turn(seat) if body["type"] == "pass" else engine.play(seat, body["cards"])
        events = [e.to_dict() for e in done + self._bot_turns(record)]
        record.version += 1
        _number(record, events)
        return events, seat_answer(record, seat)

    def _start(self, record: MatchRecord) -> list[dict[str, Any]]:
        """Deal the first hand and play any bot turns; return the events."""
        assert record.seed is not None
        deal = None if record.deal is None else [format_mask(m) for m in record.deal]
        engine, opening = Match.new(record.rules, random.Random(record.seed), deal)
        record.engine = engine
        record.deal = None
        return [e.to_dict() for e in opening + self._bot_turns(record)]

    def _bot_turns(self, record: MatchRecord) -> list[Event]:
        engine = record.engine
        assert engine is not None
        return bots.play_bot_turns(
            engine, record.bots, budget_s=self.bot_budget_s, total_budget_s=BOT_TURNS_BUDGETS * self.bot_budget_s
        )


def _in_place(work: Callable[[], Any]) -> Any:
    return work()


class Following(Iterator[list[dict[str, Any]]]):
    """Batches of a match's events, ending after the event that ends the match; close it when done."""

    def __init__(self, batches: Iterator[list[dict[str, Any]]] | None) -> None:
        self._batches = batches

    def __next__(self) -> list[dict[str, Any]]:
        if self._batches is None:
            raise StopIteration
        batch = next(self._batches)
        if any(event["type"] in FINAL_EVENTS for event in batch):
            self.close()
        return batch

    def close(self) -> None:
        """Stop following (gives the store's waiter place back)."""
        batches, self._batches = self._batches, None
        close = getattr(batches, "close", None)
        if close is not None:
            close()


def _number(record: MatchRecord, events: list[dict[str, Any]]) -> None:
    """Give new events their sequence numbers and advance the record's last one."""
    for event in events:
        record.last_seq += 1
        event["seq"] = record.last_seq


def _playing(record: MatchRecord) -> Match:
    engine = record.engine
    if engine is None:
        raise MatchNotPlaying("the match is waiting for seats to be joined")
    if engine.outcome is not None:
        raise MatchNotPlaying("the match is over")
    return engine


__all__ = ["Created", "Following", "Joined", "MatchService"]
