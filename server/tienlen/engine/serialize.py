"""The whole match to a compact JSON-able dict and back, exactly."""

from __future__ import annotations

from typing import Any

from .combos import classify
from .deal import FairDeal
from .match import HandResult, Match, Outcome
from .rules import RuleSet

SCHEMA_VERSION = 1


class StateVersionError(ValueError):
    """A stored match written by an unknown schema version."""


def match_to_dict(match: Match) -> dict[str, Any]:
    """Everything needed to rebuild the match; hands are 52-bit card masks."""
    data: dict[str, Any] = {
        "v": SCHEMA_VERSION,
        "rules": match.rules.to_dict(),
        "seed": match.deal_seed,
        "hand": match.hand_number,
        "cards": list(match.hands),
        "turn": match.turn,
        "table": None if match.table is None else [match.table_seat, match.table.mask],
        "locked": match.locked,
        "places": list(match.places),
        "scores": list(match.scores),
        "done": [[r.hand_number, list(r.places), list(r.points)] for r in match.completed],
        "start": match.start_card,
        "tied": None if match.tied is None else list(match.tied),
        "won": None if match.outcome is None else list(match.outcome.winners),
        "log": [[seat, mask] for seat, mask in match.log],
    }
    fair = match.fair
    if fair is not None:  # the hand-key inputs of the next hands (absent: dealt from the seed)
        data["fair"] = [fair.secret.hex(), fair.match_id, list(fair.entropy)]
    return data


def match_from_dict(data: dict[str, Any]) -> Match:
    """Rebuild a match written by :func:`match_to_dict`."""
    if data.get("v") != SCHEMA_VERSION:
        raise StateVersionError(f"unknown match schema version {data.get('v')!r}")
    table = None
    table_seat = None
    if data["table"] is not None:
        table_seat, mask = data["table"]
        table = classify(mask)
    scores = list(data["scores"])
    fair = data.get("fair")
    return Match(
        rules=RuleSet.from_dict(data["rules"]),
        deal_seed=data["seed"],
        hand_number=data["hand"],
        hands=list(data["cards"]),
        turn=data["turn"],
        table=table,
        table_seat=table_seat,
        locked=data["locked"],
        places=list(data["places"]),
        scores=scores,
        completed=[HandResult(n, tuple(p), tuple(s)) for n, p, s in data["done"]],
        start_card=data["start"],
        tied=None if data["tied"] is None else tuple(data["tied"]),
        outcome=None if data["won"] is None else Outcome(tuple(data["won"]), tuple(scores)),
        log=[(seat, mask) for seat, mask in data["log"]],
        fair=None if fair is None else FairDeal(bytes.fromhex(fair[0]), fair[1], tuple(fair[2])),
    )
