"""What the service answers, as domain objects: a match as everybody sees it, a seat's view, pages, tokens.

They hold the game's own values (card masks, rule sets, enums, epoch
seconds); the API's answer schemas write them as JSON, the one place where
the wire form of each answer is decided. Nothing here can reach a card of a
hand in play other than the asking seat's own (a completed hand's deal is public).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..engine import HandResult, Kind, LegalPlays, PublicView, RuleSet, play_order, public_view, seat_view
from ..store.records import Clock, MatchRecord, MatchStatus, SeatRecord
from .fair_deals import FairDealState, fair_deal_state
from .shown import completed_deals

EventDict = dict[str, Any]
State = TypeVar("State", bound="MatchState")


@dataclass(frozen=True, slots=True)
class PublicSeat:
    """A seat as everybody sees it: who plays it, how many cards it holds, its place and score."""

    seat: int
    name: str | None
    bot: str | None
    open: bool
    cards_left: int
    passed: bool
    place: int | None
    score: int
    left: bool
    taken_over: bool
    account: bool


@dataclass(frozen=True, slots=True)
class CompletedHand:
    """A hand that is over: seats first to last, points by seat, and each seat's cards as dealt (public now)."""

    hand_number: int
    places: tuple[int, ...]
    points: tuple[int, ...]
    dealt: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TablePlay:
    """The play on the table: who made it, its cards (a mask) and kind."""

    seat: int
    mask: int
    kind: Kind


@dataclass(frozen=True, slots=True)
class MatchState:
    """The public state of a match: counts, table, turn, places, scores; no card of any hand."""

    match_id: str
    status: MatchStatus
    version: int
    last_seq: int
    rules: RuleSet
    hand_number: int
    seats: tuple[PublicSeat, ...]
    turn: int | None
    leading: bool
    reentry: bool
    table: TablePlay | None
    hands: tuple[CompletedHand, ...]
    winner: int | None
    winners: tuple[int, ...]
    clock: Clock | None
    turn_deadline: float | None
    created_at: float
    updated_at: float
    listed: bool
    next_match_id: str | None
    room_code: str | None
    rated: bool
    fair_deal: FairDealState | None
    watchable: bool
    spectators: int  # readers following it lately who are not its seats (0 in answers other than reads of it)


@dataclass(frozen=True, slots=True)
class SeatState(MatchState):
    """A match as one seat sees it: the public state, and the seat's own hand and start card (card numbers)."""

    seat: int
    hand: int = field(repr=False)  # never in a repr: a repr may end up in a log
    start_card: int | None


@dataclass(frozen=True, slots=True)
class ActionOutcome(SeatState):
    """The answer to an action: the seat's view after it, and every event from it through the bots' replies."""

    events: Sequence[EventDict]


@dataclass(frozen=True, slots=True)
class LeaveOutcome(MatchState):
    """The answer to leaving: the public match, and what leaving set off (a bot taking the seat, its plays)."""

    events: Sequence[EventDict]


@dataclass(frozen=True, slots=True)
class SeatToken:
    """A seat and its bearer token (in ``match_id``, when the answer names the match)."""

    seat: int
    token: str = field(repr=False)
    match_id: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    """A new match, the tokens of its named remote seats, and its public state."""

    match_id: str
    tokens: tuple[SeatToken, ...]
    match: MatchState


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """A seat of a match in the lobby."""

    seat: int
    name: str | None
    bot: str | None
    open: bool
    account: bool


@dataclass(frozen=True, slots=True)
class Room:
    """A match found by its room code: who sits where, the rules, its host (an account's name), when made."""

    room_code: str
    match_id: str
    status: MatchStatus
    seats: tuple[LobbySeat, ...]
    rules: RuleSet
    host: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class LobbyEntry:
    """A match in the lobby: who sits where, the rules, when it was created."""

    match_id: str
    seats: tuple[LobbySeat, ...]
    rules: RuleSet
    created_at: float


@dataclass(frozen=True, slots=True)
class LobbyPage:
    """A page of the lobby, and the cursor of the next page (None on the last)."""

    matches: tuple[LobbyEntry, ...]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class EventPage:
    """A page of events, oldest first, and the number to ask after next."""

    events: Sequence[EventDict]
    last_seq: int


NOT_ON_TURN = LegalPlays(None, False, ())


def legal_in_order(legal: LegalPlays | None) -> LegalPlays:
    """The legal plays fewest cards first, then lowest deciding card (none when the seat is not on turn)."""
    if legal is None:
        return NOT_ON_TURN
    return LegalPlays(legal.seat, legal.can_pass, tuple(sorted(legal.plays, key=play_order)))


def match_state(record: MatchRecord) -> MatchState:
    """The public state of a match from its record."""
    engine = record.engine
    return _state(MatchState, record, None if engine is None else public_view(engine))


def seat_state(record: MatchRecord, seat: int) -> SeatState:
    """The match as one seat sees it."""
    return _seat_state(SeatState, record, seat)


def action_outcome(record: MatchRecord, seat: int, events: Sequence[EventDict]) -> ActionOutcome:
    """The answer to an action: the seat's view now, and the events from the action through the bots' replies."""
    return _seat_state(ActionOutcome, record, seat, events=events)


def leave_outcome(record: MatchRecord, events: Sequence[EventDict]) -> LeaveOutcome:
    """The answer to leaving: the public match now, and what leaving set off."""
    engine = record.engine
    return _state(LeaveOutcome, record, None if engine is None else public_view(engine), events=events)


def _seat_state(kind: type[State], record: MatchRecord, seat: int, **more: Any) -> State:
    engine = record.engine
    if engine is None:
        return _state(kind, record, None, seat=seat, hand=0, start_card=None, **more)
    view = seat_view(engine, seat)
    return _state(kind, record, view.public, seat=seat, hand=view.hand, start_card=view.start_card, **more)


def _state(kind: type[State], record: MatchRecord, public: PublicView | None, **more: Any) -> State:
    """``kind`` (the public state or a state that adds to it, given in ``more``) of the record and its view."""
    if public is None:
        seats = tuple(_seat(i, s, 0, False, None, 0) for i, s in enumerate(record.seats))
        return kind(
            record.match_id, MatchStatus.WAITING, record.version, record.last_seq, record.rules, 0, seats,
            None, False, False, None, (), None, (), record.clock, record.turn_deadline, record.created_at,
            record.updated_at, record.listed, record.next_match_id, record.room_code, record.rated,
            fair_deal_state(record), record.watchable, 0, **more,
        )  # fmt: skip
    table = None if public.table is None or public.table_seat is None else public.table
    outcome = public.outcome
    seats = tuple(
        _seat(i, s, public.cards_left[i], public.passed(i), public.places[i], public.scores[i])
        for i, s in enumerate(record.seats)
    )
    return kind(
        match_id=record.match_id,
        status=record.status,  # an abandoned match is finished although nobody won
        version=record.version,
        last_seq=record.last_seq,
        rules=public.rules,
        hand_number=public.hand_number,
        seats=seats,
        turn=public.turn,
        leading=public.leading,
        reentry=public.reentry,
        table=None if table is None else TablePlay(public.table_seat or 0, table.mask, table.kind),
        hands=_completed(public.completed, completed_deals(record)),
        winner=None if outcome is None else outcome.winner,
        winners=() if outcome is None else outcome.winners,
        clock=record.clock,
        turn_deadline=record.turn_deadline,
        created_at=record.created_at,
        updated_at=record.updated_at,
        listed=record.listed,
        next_match_id=record.next_match_id,
        room_code=record.room_code,
        rated=record.rated,
        fair_deal=fair_deal_state(record),
        watchable=record.watchable,
        spectators=0,
        **more,
    )


def _completed(results: Sequence[HandResult], deals: Sequence[tuple[int, ...]]) -> tuple[CompletedHand, ...]:
    return tuple(CompletedHand(r.hand_number, r.places, r.points, deal) for r, deal in zip(results, deals, strict=True))


def _seat(index: int, seat: SeatRecord, cards_left: int, passed: bool, place: int | None, score: int) -> PublicSeat:
    return PublicSeat(
        index,
        seat.name,
        seat.bot,
        seat.open,
        cards_left,
        passed,
        place,
        score,
        seat.left,
        seat.taken_over,
        seat.account is not None,
    )


def lobby_seats(record: MatchRecord) -> tuple[LobbySeat, ...]:
    """The seats of a match as a lobby or a room shows them."""
    return tuple(LobbySeat(i, s.name, s.bot, s.open, s.account is not None) for i, s in enumerate(record.seats))


def lobby_entry(record: MatchRecord) -> LobbyEntry:
    """A match as the lobby lists it."""
    return LobbyEntry(record.match_id, lobby_seats(record), record.rules, record.created_at)


def room(record: MatchRecord, host: str | None) -> Room:
    """A match found by its room code (``host``: the name of the account that made it)."""
    assert record.room_code is not None
    return Room(
        record.room_code, record.match_id, record.status, lobby_seats(record), record.rules, host, record.created_at
    )
