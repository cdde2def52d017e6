"""What may leave the engine: the public view and each seat's own view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import format_mask
from .match import Match


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat as everybody sees it."""

    seat: int
    cards_left: int
    passed: bool
    place: int | None
    score: int


@dataclass(frozen=True, slots=True)
class TableView:
    """The play on the table and who made it."""

    seat: int
    cards: tuple[str, ...]
    kind: str


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything public about a match: no card of any hand.

    ``history`` is the current hand's actions in order as (seat, card mask),
    where an empty mask means a pass.
    """

    status: str
    rules: dict[str, Any]
    hand_number: int
    turn: int | None
    leading: bool
    reentry: bool
    table: TableView | None
    seats: tuple[SeatState, ...]
    hands: tuple[dict[str, Any], ...]
    winner: int | None
    winners: tuple[int, ...]
    history: tuple[tuple[int, int], ...]

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """The view as JSON-able values; ``history=False`` leaves out the hand's actions."""
        view = {
            "status": self.status,
            "rules": dict(self.rules),
            "hand_number": self.hand_number,
            "turn": self.turn,
            "leading": self.leading,
            "reentry": self.reentry,
            "table": None
            if self.table is None
            else {"seat": self.table.seat, "cards": list(self.table.cards), "kind": self.table.kind},
            "seats": [
                {"seat": s.seat, "cards_left": s.cards_left, "passed": s.passed, "place": s.place, "score": s.score}
                for s in self.seats
            ],
            "hands": [dict(h) for h in self.hands],
            "winner": self.winner,
            "winners": list(self.winners),
        }
        if history:
            view["history"] = [{"seat": seat, "cards": format_mask(mask)} for seat, mask in self.history]
        return view


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view: the public view plus that seat's own cards, low to high.

    ``start_card`` is the card this seat's opening lead must include, shown only
    to the seat that holds it (the others learn it when it is played).
    """

    public: PublicView
    seat: int
    cards: tuple[str, ...]
    hand_mask: int
    start_card: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-able values."""
        own = {"seat": self.seat, "cards": list(self.cards), "start_card": self.start_card}
        return self.public.to_dict() | own


def public_view(match: Match) -> PublicView:
    """The match as any onlooker may see it."""
    places = {seat: place for place, seat in enumerate(match.places, start=1)}
    table = match.table
    return PublicView(
        status=match.status.value,
        rules=match.rules.to_dict(),
        hand_number=match.hand_number,
        turn=match.turn,
        leading=match.turn is not None and table is None,
        reentry=match.reentry_turn(),
        table=None
        if table is None or match.table_seat is None
        else TableView(match.table_seat, tuple(format_mask(table.mask)), table.kind.value),
        seats=tuple(
            SeatState(seat, match.hands[seat].bit_count(), match.is_locked(seat), places.get(seat), match.scores[seat])
            for seat in range(match.players)
        ),
        hands=tuple(
            {"hand_number": h.hand_number, "places": list(h.places), "points": list(h.points)} for h in match.completed
        ),
        winner=None if match.outcome is None else match.outcome.winner,
        winners=() if match.outcome is None else match.outcome.winners,
        history=tuple(match.log),
    )


def seat_view(match: Match, seat: int) -> SeatView:
    """The view of one seat: public state plus its own hand and nothing else."""
    hand = match.hands[seat]
    start = match.start_card
    start_text = format_mask(1 << start)[0] if start is not None and hand >> start & 1 else None
    return SeatView(public_view(match), seat, tuple(format_mask(hand)), hand, start_text)
