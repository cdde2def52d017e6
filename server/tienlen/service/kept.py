"""A kept match: the compact record of a finished match, written once it ends and read by the history.

The record holds the match's id, times, rules, seats (name, account id, bot
level, final place and points) and its replay without what the record says
already (rules, seats), as zlib-compressed compact JSON: about 1 KB for a
4-player one-hand match (``make bench-memory`` measures it).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from typing import Any

from .. import replay, wire
from ..engine import FairDeal, Match, RuleSet
from ..events import ABANDONED
from ..replay import fair_deal_document
from ..store.records import MatchRecord

RECORD_FORMAT = 1
DELETED_NAME = "(deleted)"  # the name of a deleted account's seat in what is kept
_LEVEL = 9


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """A seat of a kept match: who held it, its final place (None when abandoned) and points.

    In a rated match, an account's seat has its shown rating before and after the match (else None).
    """

    seat: int
    name: str | None
    account_id: str | None
    bot: str | None
    place: int | None
    points: int
    rating_before: int | None = None
    rating_after: int | None = None

    @property
    def account(self) -> bool:
        """An account held the seat."""
        return self.account_id is not None


@dataclass(frozen=True, slots=True)
class KeptMatch:
    """A finished match as kept; ``seat`` is the seat of the player whose history lists it (else -1)."""

    match_id: str
    created_at: float
    ended_at: float
    rules: RuleSet
    hands: int
    abandoned: bool
    seats: tuple[KeptSeat, ...]
    replay_body: dict[str, Any]
    seat: int = -1
    rated: bool = False
    watchable: bool = True

    def seat_of(self, account_id: str) -> int:
        """The seat the account held, or -1."""
        return next((s.seat for s in self.seats if s.account_id == account_id), -1)

    def replay(self) -> dict[str, Any]:
        """The ``tienlen-replay/1`` document, as ``GET /v1/matches/{id}/replay`` answered it."""
        body = self.replay_body
        document = {
            "format": replay.FORMAT,
            "rules": self.rules.to_dict(),
            "seed": body["seed"],
            "seats": [{"name": s.name, "bot": s.bot} for s in self.seats],
            "hands": body["hands"],
            "result": body["result"],
        }
        if "fair_deal" in body:
            document["fair_deal"] = body["fair_deal"]
        return document


def replay_of(record: MatchRecord, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay of a finished match from its record and every event it had."""
    engine = record.engine
    assert engine is not None and record.seed is not None
    return replay.export(
        rules=record.rules,
        seed=record.seed,
        first_deal=record.deal,
        deal_seed=engine.deal_seed,
        seats=[{"name": s.name, "bot": None if s.taken_over else s.bot} for s in record.seats],
        events=events,
        scores=list(engine.scores),
        winner=None if engine.outcome is None else engine.outcome.winner,
        abandoned=record.ended == ABANDONED,
        fair=engine.fair,
    )


def places(engine: Match, abandoned: bool) -> list[int | None]:
    """Each seat's final standing: the winners share 1st, then by score, then by the last hand's finish."""
    if abandoned or engine.outcome is None:
        return [None] * engine.rules.players
    winners = set(engine.outcome.winners)
    last = engine.completed[-1].places if engine.completed else ()

    def key(seat: int) -> tuple[int, int, int]:
        if seat in winners:
            return (0, 0, 0)
        finish = last.index(seat) if seat in last else len(last)
        return (1, -engine.scores[seat], finish)

    keys = [key(seat) for seat in range(engine.rules.players)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def kept_of(
    record: MatchRecord,
    events: list[dict[str, Any]],
    present: set[str],
    moves: dict[int, tuple[int, int]] | None = None,
) -> KeptMatch:
    """The kept form of a finished match; accounts not in ``present`` (deleted since) are kept anonymous.

    ``moves`` are the rated seats' shown ratings before and after a rated match.
    """
    engine = record.engine
    assert engine is not None
    abandoned = record.ended == ABANDONED
    document = replay_of(record, events)
    standing = places(engine, abandoned)
    seats: list[KeptSeat] = []
    for index, (held, shown) in enumerate(zip(record.seats, document["seats"], strict=True)):
        account = held.account if held.account in present else None
        name = DELETED_NAME if held.account is not None and account is None else shown["name"]
        before, after = (None, None) if account is None else (moves or {}).get(index, (None, None))
        seats.append(KeptSeat(index, name, account, shown["bot"], standing[index], engine.scores[index], before, after))
    ended = record.ended_at if record.ended_at is not None else record.updated_at
    body = {"seed": document["seed"], "hands": document["hands"], "result": document["result"]}
    if "fair_deal" in document:
        body["fair_deal"] = document["fair_deal"]
    return KeptMatch(
        record.match_id,
        record.created_at,
        ended,
        record.rules,
        len(document["hands"]),
        abandoned,
        tuple(seats),
        body,
        rated=record.rated,
        watchable=record.watchable,
    )


def _seat_entry(seat: KeptSeat) -> list[Any]:
    entry: list[Any] = [seat.name, seat.account_id, seat.bot, seat.place, seat.points]
    return entry if seat.rating_before is None else [*entry, seat.rating_before, seat.rating_after]


def encode(kept: KeptMatch) -> bytes:
    """The stored form: zlib of compact JSON, the replay's actions as ``"<seat> <cards...>"`` texts."""
    hands = [
        [hand["hand_number"], hand["deal"], [" ".join([str(a["seat"]), *a["cards"]]) for a in hand["actions"]]]
        for hand in kept.replay_body["hands"]
    ]
    data = {
        "f": RECORD_FORMAT,
        "id": kept.match_id,
        "c": kept.created_at,
        "e": kept.ended_at,
        "r": kept.rules.to_dict(),
        "ab": kept.abandoned,
        "s": [_seat_entry(s) for s in kept.seats],
        "seed": kept.replay_body["seed"],
        "h": hands,
        "res": kept.replay_body["result"],
    }
    if kept.rated:
        data["rt"] = True
    if not kept.watchable:
        data["nw"] = True
    fair = kept.replay_body.get("fair_deal")
    if fair is not None:  # the secret and entropy: the rest follows from them and the match id
        data["fd"] = [fair["secret"], fair["entropy"]]
    return zlib.compress(wire.dumps(data), _LEVEL)


def decode(blob: bytes) -> KeptMatch:
    """Read a record written by :func:`encode`."""
    data = wire.loads(zlib.decompress(blob))
    if data.get("f") != RECORD_FORMAT:
        raise ValueError(f"unknown kept match format {data.get('f')!r}")
    hands = []
    for number, deal, actions in data["h"]:
        steps = []
        for text in actions:
            seat, *cards = text.split(" ")
            steps.append({"seat": int(seat), "type": "play" if cards else "pass", "cards": cards})
        hands.append({"hand_number": number, "deal": deal, "actions": steps})
    seats = tuple(KeptSeat(i, *entry) for i, entry in enumerate(data["s"]))
    body = {"seed": data["seed"], "hands": hands, "result": data["res"]}
    if "fd" in data:
        secret, entropy = data["fd"]
        body["fair_deal"] = fair_deal_document(FairDeal(bytes.fromhex(secret), data["id"], tuple(entropy)))
    rules = RuleSet.from_dict(data["r"])
    return KeptMatch(
        data["id"],
        data["c"],
        data["e"],
        rules,
        len(hands),
        data["ab"],
        seats,
        body,
        rated=data.get("rt", False),
        watchable=not data.get("nw", False),
    )


def anonymized(kept: KeptMatch, account_id: str) -> KeptMatch:
    """The record with the account's seats named :data:`DELETED_NAME` and no account id."""
    seats = tuple(
        KeptSeat(s.seat, DELETED_NAME, None, s.bot, s.place, s.points) if s.account_id == account_id else s
        for s in kept.seats
    )
    return replace(kept, seats=seats, seat=-1)
