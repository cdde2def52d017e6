"""What may leave the engine: the public view of a match and each seat's own view.

Views hold the engine's own values (card masks, the rule set, classified
combinations); wire text is written only where an answer is made. A seat's
view is also everything a bot may read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import FULL_DECK
from .combos import Combination
from .match import HandResult, Match, Outcome, Status
from .rules import RuleSet


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything public about a match: no card of any hand.

    ``history`` is the current hand's actions in order as (seat, card mask),
    an empty mask meaning a pass; ``played`` holds every card played this
    hand; ``locked`` has a bit per seat pass-locked in the current battle;
    ``places`` is each seat's finishing place this hand (from 1) or None.
    """

    status: Status
    rules: RuleSet
    hand_number: int
    turn: int | None
    table: Combination | None
    table_seat: int | None
    reentry: bool
    cards_left: tuple[int, ...]
    locked: int
    places: tuple[int | None, ...]
    scores: tuple[int, ...]
    completed: tuple[HandResult, ...]
    outcome: Outcome | None
    history: tuple[tuple[int, int], ...]
    played: int

    @property
    def players(self) -> int:
        """How many seats play."""
        return len(self.cards_left)

    @property
    def leading(self) -> bool:
        """The seat on turn leads a new battle."""
        return self.turn is not None and self.table is None

    def passed(self, seat: int) -> bool:
        """Whether the seat is pass-locked in the current battle."""
        return bool(self.locked >> seat & 1)


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view: the public view plus that seat's own hand (a card mask).

    ``start_card`` is the card number this seat's opening lead must include,
    given only to the seat that holds it (the others learn it when it is
    played). The rest reads through to the public view, so a bot can take
    the seat view as its whole situation.
    """

    public: PublicView
    seat: int
    hand: int = field(repr=False)  # never in a repr: a repr may end up in a log
    start_card: int | None = None

    @property
    def rules(self) -> RuleSet:
        """The match's rules."""
        return self.public.rules

    @property
    def players(self) -> int:
        """How many seats play."""
        return len(self.public.cards_left)

    @property
    def hand_number(self) -> int:
        """The current hand, from 1."""
        return self.public.hand_number

    @property
    def table(self) -> Combination | None:
        """The play to beat, or None when the seat on turn leads."""
        return self.public.table

    @property
    def table_seat(self) -> int | None:
        """Who made the play on the table."""
        return self.public.table_seat

    @property
    def cards_left(self) -> tuple[int, ...]:
        """Cards each seat still holds."""
        return self.public.cards_left

    @property
    def locked(self) -> int:
        """A bit per seat pass-locked in the current battle."""
        return self.public.locked

    @property
    def reentry(self) -> bool:
        """The seat on turn is pass-locked and may only bomb the 2s on the table, or pass."""
        return self.public.reentry

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """This hand's actions in order as (seat, card mask); an empty mask is a pass."""
        return self.public.history

    @property
    def played(self) -> int:
        """Every card played this hand, by anyone."""
        return self.public.played

    @property
    def unseen(self) -> int:
        """Cards neither in this hand nor played this hand: the other hands, and any out of play."""
        return FULL_DECK & ~self.hand & ~self.public.played

    @property
    def opponents(self) -> list[int]:
        """Other seats still holding cards."""
        left = self.public.cards_left
        return [s for s in range(len(left)) if s != self.seat and left[s] > 0]


def public_view(match: Match) -> PublicView:
    """The match as any onlooker may see it."""
    places: list[int | None] = [None] * match.players
    for place, seat in enumerate(match.places, start=1):
        places[seat] = place
    played = 0
    for _seat, mask in match.log:
        played |= mask
    return PublicView(
        status=match.status,
        rules=match.rules,
        hand_number=match.hand_number,
        turn=match.turn,
        table=match.table,
        table_seat=match.table_seat,
        reentry=match.reentry_turn(),
        cards_left=tuple(hand.bit_count() for hand in match.hands),
        locked=match.locked,
        places=tuple(places),
        scores=tuple(match.scores),
        completed=tuple(match.completed),
        outcome=match.outcome,
        history=tuple(match.log),
        played=played,
    )


def seat_view(match: Match, seat: int) -> SeatView:
    """The view of one seat: public state plus its own hand and nothing else."""
    hand = match.hands[seat]
    start = match.start_card
    own_start = start if start is not None and hand >> start & 1 else None
    return SeatView(public_view(match), seat, hand, own_start)
