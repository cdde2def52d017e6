"""The match state machine: deals, turns, battles, pass locks, places and scores.

Every action follows ``verify_x`` (raise :class:`IllegalActionError` with a
reason) → ``can_x`` (a bool) → ``x`` (apply, return the events). The legal
plays from :mod:`.legal` decide acceptance; :mod:`.refusals` only names the
reason a play is refused. A hand's points and when the match is decided are
:mod:`.scoring`'s.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card, UnknownCardError, cards_mask, lowest_card
from .combos import CLASSIFIED, Combination, bomb_beats, classify
from .deal import FairDeal, parse_deal, shuffled_deal
from .errors import DealError, IllegalActionError
from .events import (
    PASSED_BY_SEAT,
    SHARED_SEATS,
    Event,
    HandEnded,
    HandStarted,
    MatchEnded,
    WentOut,
    passed_event,
    shared_played,
    table_cleared_event,
)
from .kinds import Kind
from .legal import legal_masks_of
from .refusals import refusal
from .rules import RuleSet
from .scoring import HandResult, Outcome, decide, hand_points
from .turns import next_to_act, places_after_going_out

CardsInput = Iterable[str | Card] | int
_KIND_TEXT = {kind: kind.value for kind in Kind}
_PASS_LOG = tuple((seat, 0) for seat in range(SHARED_SEATS))  # a pass's log entry, shared (tuples are values)


class Status(StrEnum):
    """Where the match stands."""

    PLAYING = "playing"
    FINISHED = "finished"


_PLAYING, _FINISHED = Status.PLAYING, Status.FINISHED


@dataclass(frozen=True, slots=True)
class LegalPlays:
    """What the seat on turn may do: ``plays`` (classified) and whether it may pass."""

    seat: int | None
    can_pass: bool
    plays: tuple[Combination, ...]


@dataclass(slots=True)
class Match:
    """A match in progress. Build one with :meth:`Match.new`; mutate only through actions."""

    rules: RuleSet
    deal_seed: int
    hand_number: int = 0
    hands: list[int] = field(default_factory=list)
    turn: int | None = None
    table: Combination | None = None
    table_seat: int | None = None
    locked: int = 0
    places: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    completed: list[HandResult] = field(default_factory=list)
    start_card: int | None = None
    tied: tuple[int, ...] | None = None
    outcome: Outcome | None = None
    log: list[tuple[int, int]] = field(default_factory=list)
    fair: FairDeal | None = None  # every hand dealt by tienlen-deal/1 from these inputs (else from the seed)
    _legal: list[int] | None = field(default=None, repr=False, compare=False)

    # ----- creation -------------------------------------------------------------

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        rng: random.Random,
        deal: Sequence[Iterable[str | Card]] | None = None,
        fair: FairDeal | None = None,
    ) -> tuple[Match, list[Event]]:
        """Start a match: draw its deal seed from ``rng`` and deal the first hand.

        ``deal`` (optional) fixes the first hand: one list of 1..13 distinct
        cards per seat, no card twice. Later hands are shuffled from the seed,
        or with ``fair`` every hand is the fair deal's (no ``deal`` then).
        Returns the match and its opening events.
        """
        if fair is not None and (deal is not None or len(fair.entropy) != rules.players):
            raise DealError("a fair deal fixes no hand and has an entropy text for each seat")
        masks = None if deal is None else parse_deal(deal, rules.players)
        match = cls(rules=rules, deal_seed=rng.getrandbits(63), scores=[0] * rules.players, fair=fair)
        return match, match._start_hand(masks)

    def __repr__(self) -> str:
        """The match's public counts only: never a hand nor the deal seed (a repr may end up in a log)."""
        left = [hand.bit_count() for hand in self.hands]
        return f"Match(hand_number={self.hand_number}, turn={self.turn}, cards_left={left})"

    # ----- queries --------------------------------------------------------------

    @property
    def status(self) -> Status:
        """``playing`` until the match has an outcome, then ``finished``."""
        return _FINISHED if self.outcome is not None else _PLAYING

    @property
    def players(self) -> int:
        """How many seats play."""
        return self.rules.players

    def is_locked(self, seat: int) -> bool:
        """Whether the seat passed in the current battle."""
        return bool(self.locked >> seat & 1)

    def reentry_turn(self) -> bool:
        """Whether the seat on turn is a locked seat offered a bomb re-entry turn."""
        return self.turn is not None and self.is_locked(self.turn)

    def legal_masks(self) -> list[int]:
        """Masks of every legal play for the seat on turn (empty when none is on turn)."""
        legal = self._legal
        if legal is not None:
            return legal
        turn = self.turn
        if turn is None:
            legal = []
        else:
            # The one generator (legal.py), as a client holding only this seat's view calls it.
            legal = legal_masks_of(
                self.hands[turn], self.table, self.rules.bombs, bool(self.locked >> turn & 1), self.start_card
            )
        self._legal = legal
        return legal

    def legal_plays(self) -> LegalPlays:
        """The seat on turn's legal plays, classified, and whether it may pass."""
        plays = tuple(c for c in map(classify, self.legal_masks()) if c is not None)
        return LegalPlays(self.turn, self.turn is not None and self.table is not None, plays)

    # ----- actions --------------------------------------------------------------

    def verify_turn(self, seat: int) -> None:
        """Refuse with ``match_not_playing`` or ``not_your_turn`` when the seat may not act."""
        if self.outcome is not None:
            raise IllegalActionError("match_not_playing", "the match is over")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError("not_your_turn", f"there is no seat {seat}")
        if seat != self.turn:
            raise IllegalActionError("not_your_turn", f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def verify_play(self, seat: int, cards: CardsInput) -> int:
        """Check a play; return its mask or raise :class:`IllegalActionError` naming the first reason."""
        self.verify_turn(seat)
        mask = cards if isinstance(cards, int) else cards_mask(cards)
        if mask in self.legal_masks():
            return mask
        raise refusal(self.hands[seat], mask, self.table, self.start_card, self.is_locked(seat), self.rules.bombs)

    def can_play(self, seat: int, cards: CardsInput) -> bool:
        """Whether :meth:`play` would accept this play."""
        try:
            self.verify_play(seat, cards)
        except IllegalActionError:
            return False
        return True

    def play(self, seat: int, cards: CardsInput) -> list[Event]:
        """Play cards for a seat; return the events it caused, in order."""
        legal = self._legal
        if (
            type(cards) is int
            and type(seat) is int
            and seat == self.turn
            and self.outcome is None
            and cards in (legal if legal is not None else self.legal_masks())
        ):
            mask = cards  # the hot path (bots, self-play): a legal mask from the seat on turn
        else:
            mask = self.verify_play(seat, cards)
        combo = CLASSIFIED.get(mask) or classify(mask)
        assert combo is not None
        self._legal = None
        table = self.table
        # is_bomb, inlined: not an ordinary beat (same kind, same length, higher card) but a row of the bomb table.
        bomb = (
            table is not None
            and not (combo.kind is table.kind and combo.length == table.length and combo.top > table.top)
            and bomb_beats(combo, table, self.rules.bombs)
        )
        hands = self.hands
        left = hands[seat] = hands[seat] ^ mask
        locked = self.locked
        if locked:
            locked = self.locked = locked & ~(1 << seat)
        self.table = combo
        self.table_seat = seat
        self.start_card = None
        self.log.append((seat, mask))
        events: list[Event] = [shared_played(seat, mask, _KIND_TEXT[combo.kind], bomb)]
        if not left:
            self.places.append(seat)
            events.append(WentOut(seat, len(self.places)))
            rest = places_after_going_out(hands, seat, self.rules.end_on_first_out)
            if rest is not None:
                self._place_rest(rest, events)
                return events
        nxt = seat + 1 if seat + 1 < len(hands) else 0
        if nxt != seat and hands[nxt] and not locked >> nxt & 1:
            self.turn = nxt  # _advance's usual case, inlined (the table is this seat's)
        else:
            self._advance(seat, events)
        return events

    def verify_pass(self, seat: int) -> None:
        """Check a pass; raise :class:`IllegalActionError` when it is refused."""
        self.verify_turn(seat)
        if self.table is None:
            raise IllegalActionError("cannot_pass_on_lead", "the leader of a battle must play")

    def can_pass(self, seat: int) -> bool:
        """Whether :meth:`pass_turn` would accept a pass."""
        try:
            self.verify_pass(seat)
        except IllegalActionError:
            return False
        return True

    def pass_turn(self, seat: int) -> list[Event]:
        """Pass for a seat (it is locked out of the battle); return the events."""
        if not (type(seat) is int and seat == self.turn and self.table is not None and self.outcome is None):
            self.verify_pass(seat)
        self._legal = None
        locked = self.locked = self.locked | 1 << seat
        self.log.append(_PASS_LOG[seat] if seat < SHARED_SEATS else (seat, 0))
        events: list[Event] = [PASSED_BY_SEAT[seat] if seat < SHARED_SEATS else passed_event(seat)]
        hands = self.hands
        nxt = seat + 1 if seat + 1 < len(hands) else 0
        if nxt != self.table_seat and hands[nxt] and not locked >> nxt & 1:
            self.turn = nxt  # _advance's usual case, inlined
        else:
            self._advance(seat, events)
        return events

    # ----- the flow of a hand ---------------------------------------------------

    def _advance(self, seat: int, events: list[Event]) -> None:
        """Pass the turn clockwise from ``seat``, skipping finished and locked seats."""
        hands = self.hands
        nxt = seat + 1
        if nxt == len(hands):
            nxt = 0
        if nxt != self.table_seat and hands[nxt] and not self.locked >> nxt & 1:
            # The usual case, decided at once: the next seat holds cards and may answer.
            self.turn = nxt
            return
        rules = self.rules
        self.turn, won = next_to_act(
            seat, hands, self.locked, self.table, self.table_seat, rules.bombs, rules.pass_reentry_with_bomb
        )
        if won:
            self.table = None
            self.table_seat = None
            self.locked = 0
            events.append(table_cleared_event(self.turn))

    def _place_rest(self, seats: list[int], events: list[Event]) -> None:
        for seat in seats:
            self.places.append(seat)
            events.append(WentOut(seat, len(self.places)))
        self._end_hand(events)

    def _end_hand(self, events: list[Event]) -> None:
        points = hand_points(self.rules, self.places)
        for seat, gained in enumerate(points):
            self.scores[seat] += gained
        result = HandResult(self.hand_number, tuple(self.places), points)
        self.completed.append(result)
        events.append(HandEnded(result.hand_number, result.places, result.points))
        self.turn = None
        self.table = None
        self.table_seat = None
        self.locked = 0
        winners, self.tied = decide(self.rules, self.completed, self.scores, self.tied)
        if winners is None:
            events.extend(self._start_hand(None))
            return
        self.outcome = Outcome(winners, tuple(self.scores))
        events.append(MatchEnded(self.outcome.winner, self.outcome.winners, self.outcome.scores))

    def _start_hand(self, deal: list[int] | None) -> list[Event]:
        self._legal = None
        self.hand_number += 1
        if deal is None:
            fair, number = self.fair, self.hand_number
            deal = fair.hand(number) if fair else shuffled_deal(self.deal_seed, number, self.players)
        self.hands = deal
        self.places = []
        self.log = []
        self.locked = 0
        self.table = None
        self.table_seat = None
        if self.completed:
            leader = self.completed[-1].places[0]
            self.start_card = None
        else:
            dealt = 0
            for hand in self.hands:
                dealt |= hand
            lowest = lowest_card(dealt)
            leader = next(s for s, h in enumerate(self.hands) if h >> lowest & 1)
            self.start_card = lowest if self.rules.start_card_rule else None
        self.turn = leader
        return [HandStarted(self.hand_number, leader)]


__all__ = [
    "CardsInput",
    "DealError",
    "HandResult",
    "IllegalActionError",
    "LegalPlays",
    "Match",
    "Outcome",
    "Status",
    "UnknownCardError",
    "hand_points",
    "parse_deal",
    "shuffled_deal",
]
