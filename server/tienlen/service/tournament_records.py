"""Between the stored tournament (:mod:`tienlen.store.tournaments`) and the pure core (:mod:`tienlen.tournaments`):
terms and results in and out of their stored form, derived match ids and deal seeds, and the views.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from typing import Any

from ..store.records import MatchRecord
from ..store.tournaments import TournamentRecord
from ..tournaments import Entrant, Format, HandScore, Sitter, TableResult, Terms
from .kept import places
from .tournament_views import (
    EntrantView,
    RoundView,
    SitterView,
    TableView,
    TournamentSummary,
    TournamentView,
    YourTable,
)


def terms_dict(terms: Terms) -> dict[str, Any]:
    """The terms' stored form."""
    data = asdict(terms)
    data["format"] = terms.format.value
    return data


def terms_of(data: dict[str, Any]) -> Terms:
    """The terms from their stored form."""
    return Terms(**{**data, "format": Format(data["format"])})


def entrants_of(record: TournamentRecord) -> list[Entrant]:
    """Every entrant (withdrawn ones too), by join number."""
    return [Entrant(e.account_id, e.name, e.bot, e.rating, e.number, e.withdrawn) for e in record.entrants]


def result_dict(result: TableResult) -> dict[str, Any]:
    """A table's result's stored form."""
    return {
        "round": result.round,
        "table": result.table,
        "match_id": result.match_id,
        "sitters": [[s.entrant, s.name] for s in result.sitters],
        "places": list(result.places),
        "points": list(result.points),
        "hands": [[h.deal, list(h.points)] for h in result.hands],
        "ended_at": result.ended_at,
    }


def results_of(record: TournamentRecord) -> list[TableResult]:
    """The tables' results, in the order recorded."""
    return [
        TableResult(
            r["round"],
            r["table"],
            r["match_id"],
            tuple(Sitter(s[0], s[1]) for s in r["sitters"]),
            tuple(r["places"]),
            tuple(r["points"]),
            tuple(HandScore(h[0], tuple(h[1])) for h in r["hands"]),
            r["ended_at"],
        )
        for r in record.results
    ]


def table_match_id(tournament_id: str, round_no: int, table: int) -> str:
    """The match id of a table: derived from (tournament, round, table), so seating again makes the same match."""
    return hashlib.sha256(f"tienlen-tournament:{tournament_id}:{round_no}:{table}".encode()).hexdigest()[:20]


def round_seed(secret_hex: str, round_no: int) -> int:
    """The deal seed of every table of a duplicate round: the first 63 bits of SHA-256(secret bytes + round as 4
    big-endian bytes); anyone checks it once the secret is shown."""
    digest = hashlib.sha256(bytes.fromhex(secret_hex) + round_no.to_bytes(4, "big")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def commitment_of(secret_hex: str) -> str:
    """The public SHA-256 (hex) of the tournament's deal secret."""
    return hashlib.sha256(bytes.fromhex(secret_hex)).hexdigest()


def table_result(record: MatchRecord, round_no: int, table: int, sitters: list[tuple[str | None, str]],
                 terms: Terms, deals: list[int] | None, now: float) -> TableResult:  # fmt: skip
    """What a finished match tells its tournament: places (by score when abandoned), points, each hand's points."""
    engine = record.engine
    assert engine is not None
    found = places(engine, record.ended is not None)
    if any(p is None for p in found):  # abandoned: ranked by the points so far (ties share)
        scores = engine.scores
        found = [1 + sum(other > mine for other in scores) for mine in scores]
    hands = []
    for index, hand in enumerate(engine.completed):
        deal = None
        if terms.format is Format.DUPLICATE:
            if deals is None or index >= len(deals):
                break  # a tie's extra hands are not of the deal set
            deal = deals[index]
        hands.append(HandScore(deal, tuple(hand.points)))
    return TableResult(
        round_no,
        table,
        record.match_id,
        tuple(Sitter(s[0], s[1]) for s in sitters),
        tuple(int(p or 0) for p in found),
        tuple(engine.scores),
        tuple(hands),
        record.ended_at or now,
    )


def summary_of(record: TournamentRecord, caller: str | None = None) -> TournamentSummary:
    """A tournament in a list; with ``caller`` (an account id) whether it entered (and did not withdraw)."""
    terms = record.terms
    entered = caller is not None and any(e.account_id == caller and not e.withdrawn for e in record.entrants)
    return TournamentSummary(
        record.tournament_id,
        terms["name"],
        terms["format"],
        record.status,
        terms["players"],
        sum(not e.withdrawn for e in record.entrants),
        terms["max_entrants"],
        terms["starts_at"],
        terms["rated"],
        terms["bots"],
        record.creator_name,
        entered,
    )


OVER = ("finished", "cancelled")


def view_of(record: TournamentRecord, caller: str | None) -> TournamentView:
    """A tournament as anyone sees it; ``caller``'s table now and entry when an account asks."""
    bots = {e.account_id for e in record.entrants if e.bot}
    rounds = tuple(
        RoundView(
            r.number,
            r.seated,
            tuple(
                TableView(
                    t.number,
                    t.match_id,
                    tuple(SitterView(name, who is None or who in bots, who is None) for who, name in t.sitters),
                    None if t.deals is None else tuple(t.deals),
                    t.ended,
                )
                for t in r.tables
            ),
        )
        for r in record.rounds
    )
    you = None
    if caller is not None:
        for r in record.rounds:
            for t in r.tables:
                seats = [seat for seat, (who, _name) in enumerate(t.sitters) if who == caller]
                if seats and not t.ended:
                    you = YourTable(r.number, t.number, t.match_id, seats[0])
    entered = caller is not None and any(e.account_id == caller and not e.withdrawn for e in record.entrants)
    return TournamentView(
        record.tournament_id,
        terms_of(record.terms),
        record.status,
        record.creator_name,
        record.created_at,
        record.started_at,
        record.ended_at,
        tuple(EntrantView(e.name, e.bot, e.number, e.rating, e.withdrawn) for e in record.entrants),
        rounds,
        you,
        entered,
        commitment_of(record.deal_secret),
        record.deal_secret if record.status in OVER else None,
    )
