"""The answers of API v1, written from records and engine views: the one owner of each shape.

Cards become wire text here and nowhere earlier. Nothing here can reach a
card of a hand other than the asking seat's own.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..bots import Hint
from ..engine import Combination, LegalPlays, PublicView, SeatView, format_mask, play_order, public_view, seat_view
from ..store import MatchRecord, SeatRecord
from ..store.records import MatchStatus


def rfc3339(moment: float | None) -> str | None:
    """Epoch seconds as an RFC 3339 UTC time with milliseconds (``2026-12-01T10:58:31.250Z``)."""
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def match_answer(record: MatchRecord) -> dict[str, Any]:
    """The public ``Match``: counts, table, turn, places, scores; no card of any hand."""
    engine = record.engine
    return _match_fields(record, None if engine is None else public_view(engine))


def seat_answer(record: MatchRecord, seat: int) -> dict[str, Any]:
    """The ``Match`` as one seat sees it: the public state plus its own cards."""
    engine = record.engine
    if engine is None:
        return _match_fields(record, None) | {"seat": seat, "cards": [], "start_card": None}
    view = seat_view(engine, seat)
    return _match_fields(record, view.public) | seat_fields(view)


def seat_fields(view: SeatView) -> dict[str, Any]:
    """What only the seat itself sees: its seat number, its cards low to high, the card its lead must include."""
    start = view.start_card
    return {
        "seat": view.seat,
        "cards": format_mask(view.hand),
        "start_card": None if start is None else format_mask(1 << start)[0],
    }


def view_fields(public: PublicView) -> dict[str, Any]:
    """The public state of a dealt match in wire form (seat names aside)."""
    table = public.table
    outcome = public.outcome
    return {
        "status": public.status.value,
        "rules": public.rules.to_dict(),
        "hand_number": public.hand_number,
        "turn": public.turn,
        "leading": public.leading,
        "reentry": public.reentry,
        "table": None
        if table is None
        else {"seat": public.table_seat, "cards": format_mask(table.mask), "kind": table.kind.value},
        "seats": [
            {
                "seat": seat,
                "cards_left": public.cards_left[seat],
                "passed": public.passed(seat),
                "place": public.places[seat],
                "score": public.scores[seat],
            }
            for seat in range(public.players)
        ],
        "hands": [
            {"hand_number": h.hand_number, "places": list(h.places), "points": list(h.points)} for h in public.completed
        ],
        "winner": None if outcome is None else outcome.winner,
        "winners": [] if outcome is None else list(outcome.winners),
    }


def _match_fields(record: MatchRecord, public: PublicView | None) -> dict[str, Any]:
    header = {"match_id": record.match_id, "version": record.version, "last_seq": record.last_seq}
    life = {
        "clock": None if record.clock is None else record.clock.to_dict(),
        "turn_deadline": rfc3339(record.turn_deadline),
        "created_at": rfc3339(record.created_at),
        "updated_at": rfc3339(record.updated_at),
        "listed": record.listed,
        "next_match_id": record.next_match_id,
    }
    if public is None:
        return (
            header
            | life
            | {
                "status": MatchStatus.WAITING.value,
                "rules": record.rules.to_dict(),
                "hand_number": 0,
                "turn": None,
                "leading": False,
                "reentry": False,
                "table": None,
                "seats": [
                    {"seat": i, "cards_left": 0, "passed": False, "place": None, "score": 0} | _seat_names(s)
                    for i, s in enumerate(record.seats)
                ],
                "hands": [],
                "winner": None,
                "winners": [],
            }
        )
    fields = view_fields(public)
    fields["status"] = record.status.value  # an abandoned match is finished although nobody won
    for entry, seat in zip(fields["seats"], record.seats, strict=True):
        entry.update(_seat_names(seat))
    return header | life | fields


def _seat_names(seat: SeatRecord) -> dict[str, Any]:
    return {"name": seat.name, "bot": seat.bot, "open": seat.open, "left": seat.left, "taken_over": seat.taken_over}


def action_answer(record: MatchRecord, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer to an action: the seat's view after it, and every event from it through the bots' replies."""
    return seat_answer(record, seat) | {"events": events}


def leave_answer(record: MatchRecord, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer to leaving: the public match, and what leaving set off (a bot taking the seat, its plays)."""
    return match_answer(record) | {"events": events}


def rematch_answer(match_id: str, seat: int, token: str) -> dict[str, Any]:
    """A seat of the rematch and its token there."""
    return {"match_id": match_id, "seat": seat, "token": token}


def lobby_entry(record: MatchRecord) -> dict[str, Any]:
    """A match in the lobby: who sits where, the rules, when it was created."""
    return {
        "match_id": record.match_id,
        "seats": [{"seat": i, "name": s.name, "bot": s.bot, "open": s.open} for i, s in enumerate(record.seats)],
        "rules": record.rules.to_dict(),
        "created_at": rfc3339(record.created_at),
    }


def lobby_answer(records: list[MatchRecord], next_cursor: str | None) -> dict[str, Any]:
    """A page of the lobby: its matches in order, and the cursor of the next page (None on the last)."""
    return {"matches": [lobby_entry(record) for record in records], "next_cursor": next_cursor}


def legal_answer(legal: LegalPlays | None) -> dict[str, Any]:
    """Legal plays, fewest cards first then lowest deciding card (none when the seat is not on turn)."""
    if legal is None:
        return {"can_pass": False, "plays": []}
    plays = sorted(legal.plays, key=play_order)
    return {
        "can_pass": legal.can_pass,
        "plays": [{"cards": format_mask(c.mask), "kind": c.kind.value} for c in plays],
    }


def _combination(combo: Combination | None) -> dict[str, Any] | None:
    """A combination named in a hint's explanation: its cards and kind."""
    return None if combo is None else {"cards": format_mask(combo.mask), "kind": combo.kind.value}


def hint_answer(hint: Hint) -> dict[str, Any]:
    """A suggested action and why, in English and machine-readable (``explanation_code``)."""
    why = hint.reasons
    assert why is not None, "a hint answer needs the reasons of its explanation"
    near = why.nearly_out
    return {
        "action": {"type": hint.action.type, "cards": format_mask(hint.action.mask)},
        "explanation": hint.explanation,
        "explanation_code": {
            "template": why.template,
            "reason": why.reason,
            "play": _combination(why.play),
            "table": _combination(why.table),
            "kept": _combination(why.kept),
            "nearly_out": None if near is None else {"seat": near.seat, "cards_left": near.cards_left},
        },
    }


def created_answer(record: MatchRecord, tokens: list[dict[str, Any]]) -> dict[str, Any]:
    """The answer to creating a match: its id, the remote seats' tokens, the public match."""
    return {"match_id": record.match_id, "tokens": tokens, "match": match_answer(record)}


def token_answer(seat: int, token: str) -> dict[str, Any]:
    """A seat and its bearer token."""
    return {"seat": seat, "token": token}


def events_answer(events: list[dict[str, Any]], last_seq: int) -> dict[str, Any]:
    """A page of events and the sequence number to ask after next."""
    return {"events": events, "last_seq": last_seq}
