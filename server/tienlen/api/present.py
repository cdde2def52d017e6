"""Turn stored records into the wire shapes of API v1 (never a hidden card)."""

from __future__ import annotations

from typing import Any

from ..engine import LegalPlays, PublicView, play_order, public_view, seat_view
from ..engine.cards import format_mask
from ..store import MatchRecord


def _header(record: MatchRecord) -> dict[str, Any]:
    return {"match_id": record.match_id, "version": record.version, "last_seq": record.last_seq}


def public_match(record: MatchRecord) -> dict[str, Any]:
    """The public ``Match`` of a record: counts, table, turn, places, scores."""
    engine = record.engine
    if engine is None:
        seats = [
            {
                "seat": i,
                "name": s.name,
                "bot": s.bot,
                "open": s.open,
                "cards_left": 0,
                "passed": False,
                "place": None,
                "score": 0,
            }
            for i, s in enumerate(record.seats)
        ]
        return _header(record) | {
            "status": "waiting",
            "rules": record.rules.to_dict(),
            "hand_number": 0,
            "seats": seats,
            "turn": None,
            "leading": False,
            "reentry": False,
            "table": None,
            "hands": [],
            "winner": None,
            "winners": [],
        }
    return _header(record) | _public_fields(record, public_view(engine))


def _public_fields(record: MatchRecord, public: PublicView) -> dict[str, Any]:
    view = public.to_dict(history=False)  # the events carry the history; answers stay small
    for entry, seat in zip(view["seats"], record.seats, strict=True):
        entry.update(name=seat.name, bot=seat.bot, open=seat.open)
    return view


def seat_match(record: MatchRecord, seat: int) -> dict[str, Any]:
    """The ``Match`` as one seat sees it: the public state plus its own cards."""
    engine = record.engine
    if engine is None:
        return public_match(record) | {"seat": seat, "cards": [], "start_card": None}
    view = seat_view(engine, seat)
    own = {"seat": seat, "cards": list(view.cards), "start_card": view.start_card}
    return _header(record) | _public_fields(record, view.public) | own


def legal_answer(legal: LegalPlays | None) -> dict[str, Any]:
    """Legal plays, fewest cards first then lowest deciding card."""
    if legal is None:
        return {"can_pass": False, "plays": []}
    plays = sorted(legal.plays, key=play_order)
    return {
        "can_pass": legal.can_pass,
        "plays": [{"cards": format_mask(c.mask), "kind": c.kind.value} for c in plays],
    }
