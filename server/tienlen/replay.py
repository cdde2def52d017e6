"""Replays of finished matches (format ``tienlen-replay/1``): writing one, and refereeing one again.

A replay holds the rules, the seed, the seats, each hand's deal and actions
and the result, and for a fair-dealt match its ``fair_deal`` (``tienlen-deal/1``:
the secret, its commitment, the match id and the seats' entropy).
:func:`referee` plays it through the engine: a fair deal whose secret is not
its commitment's, a deal that is not the protocol's (or, without a fair deal,
the seed's), an action the rules refuse, or a result that is not what the play
gives is reported with the first place it goes wrong.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .engine import (
    FAIR_PROTOCOL,
    DealError,
    FairDeal,
    HandStarted,
    IllegalActionError,
    Match,
    Passed,
    Played,
    RulesError,
    RuleSet,
    cards_mask,
    commitment,
    format_mask,
    resolve_rules,
    shuffled_deal,
)

FORMAT = "tienlen-replay/1"


class ReplayError(ValueError):
    """The replay is not a valid record of a match; the message says where it first goes wrong."""


@dataclass(frozen=True, slots=True)
class Refereed:
    """What refereeing a replay found: the result the play gives, and whether its deals were fair ones, verified."""

    hands: int
    actions: int
    scores: tuple[int, ...]
    winner: int | None
    abandoned: bool
    fair_deal: bool = False


def export(
    *,
    rules: RuleSet,
    seed: int,
    first_deal: Sequence[int] | None,
    deal_seed: int,
    seats: list[dict[str, Any]],
    events: Sequence[Mapping[str, Any]],
    scores: list[int],
    winner: int | None,
    abandoned: bool,
    fair: FairDeal | None = None,
) -> dict[str, Any]:
    """A replay of a finished match from its public events and its seed (every hand's deal is the seed's), or
    its ``fair`` deal (every hand's deal is the protocol's; the document then holds the secret)."""
    hands: list[dict[str, Any]] = []
    for event in events:
        kind = event["type"]
        if kind == HandStarted.type:
            number = event["hand_number"]
            masks = hand_deal(rules, number, first_deal, deal_seed, fair)
            hands.append({"hand_number": number, "deal": [format_mask(m) for m in masks], "actions": []})
        elif kind == Played.type:
            hands[-1]["actions"].append({"seat": event["seat"], "type": "play", "cards": list(event["cards"])})
        elif kind == Passed.type:
            hands[-1]["actions"].append({"seat": event["seat"], "type": "pass", "cards": []})
    document = {
        "format": FORMAT,
        "rules": rules.to_dict(),
        "seed": seed,
        "seats": seats,
        "hands": hands,
        "result": {"scores": scores, "winner": winner, "abandoned": abandoned},
    }
    if fair is not None:
        document["fair_deal"] = fair_deal_document(fair)
    return document


def hand_deal(
    rules: RuleSet, number: int, first_deal: Sequence[int] | None, deal_seed: int, fair: FairDeal | None
) -> list[int]:
    """The masks of hand ``number``'s deal, one a seat: the fair deal's, else the fixed first deal, else the seed's."""
    if fair is not None:
        return list(fair.hand(number))
    if number == 1 and first_deal is not None:
        return list(first_deal)
    return shuffled_deal(deal_seed, number, rules.players)


def fair_deal_document(fair: FairDeal) -> dict[str, Any]:
    """A replay's ``fair_deal``: the protocol, match id, commitment, the secret (hex) and the seats' entropy."""
    return {
        "protocol": FAIR_PROTOCOL,
        "match_id": fair.match_id,
        "commitment": fair.commitment,
        "secret": fair.secret.hex(),
        "entropy": list(fair.entropy),
    }


_HEX64 = re.compile(r"[0-9a-f]{64}\Z")


def fair_deal_of(document: Any, players: int) -> FairDeal:
    """The fair deal a replay's ``fair_deal`` names, once its secret is its commitment's; else :class:`ReplayError`."""
    if not isinstance(document, Mapping) or document.get("protocol") != FAIR_PROTOCOL:
        raise ReplayError(f"the fair_deal is not a {FAIR_PROTOCOL} deal")
    secret, committed = document.get("secret"), document.get("commitment")
    match_id, entropy = document.get("match_id"), document.get("entropy")
    if not (isinstance(secret, str) and _HEX64.match(secret) and isinstance(committed, str)):
        raise ReplayError("the fair_deal's secret is not 64 hex digits (or it has no commitment)")
    if commitment(bytes.fromhex(secret)) != committed:
        raise ReplayError("the fair_deal's secret is not the one its commitment committed to")
    if not isinstance(match_id, str):
        raise ReplayError("the fair_deal's match_id is not a text")
    if not isinstance(entropy, list) or len(entropy) != players or not all(isinstance(e, str) for e in entropy):
        raise ReplayError(f"the fair_deal's entropy is not a text for each of the {players} seats")
    try:
        return FairDeal(bytes.fromhex(secret), match_id, tuple(entropy))
    except DealError as error:
        raise ReplayError(f"the fair_deal is not valid: {error}") from None


def referee(replay: Mapping[str, Any]) -> Refereed:
    """Play the replay through the engine; :class:`ReplayError` at the first thing that does not hold."""
    if not isinstance(replay, Mapping) or replay.get("format") != FORMAT:
        raise ReplayError(f"not a {FORMAT} replay")
    try:
        rules = resolve_rules(dict(replay["rules"]))
        seed = replay["seed"]
        hands = list(replay["hands"])
        result = replay["result"]
        if not isinstance(seed, int) or isinstance(seed, bool) or not hands:
            raise ReplayError("the replay needs an integer seed and at least one hand")
        if not isinstance(result, Mapping) or not all(isinstance(hand, Mapping) for hand in hands):
            raise ReplayError("the result and every hand must be objects")
        fair = fair_deal_of(replay["fair_deal"], rules.players) if "fair_deal" in replay else None
        first = hands[0]["deal"] if fair is None else None  # a fair match's first hand is the protocol's too
        match, _ = Match.new(rules, random.Random(seed), first, fair=fair)
    except ReplayError:
        raise
    except (KeyError, TypeError, RulesError, IllegalActionError, ValueError) as error:
        raise ReplayError(f"the replay's header is not valid: {error}") from None
    actions = 0
    for hand in hands:
        number = hand.get("hand_number")
        if match.outcome is not None or number != match.hand_number:
            raise ReplayError(f"hand {number}: the match was at hand {match.hand_number} (or over) by then")
        if [format_mask(h) for h in match.hands] != [sorted_cards(d) for d in hand.get("deal", [])]:
            given = f"the {FAIR_PROTOCOL} protocol" if fair is not None else "the seed"
            raise ReplayError(f"hand {number}: the deal is not the one {given} gives")
        actions_of_hand = hand.get("actions", [])
        if not isinstance(actions_of_hand, list):
            raise ReplayError(f"hand {number}: actions must be a list")
        for index, action in enumerate(actions_of_hand, start=1):
            actions += 1
            _apply(match, number, index, action)
    abandoned = bool(result.get("abandoned", False))
    winner = None if match.outcome is None else match.outcome.winner
    if match.outcome is None and not abandoned:
        raise ReplayError(f"the actions end in hand {match.hand_number} before the match does")
    if list(match.scores) != list(result.get("scores", [])) or winner != result.get("winner"):
        raise ReplayError(f"the result says {result}, the play gives scores {match.scores} and winner {winner}")
    return Refereed(len(hands), actions, tuple(match.scores), winner, abandoned, fair is not None)


def sorted_cards(cards: Any) -> list[str]:
    """Card texts in canonical form, low to high (a deal may list them in any order)."""
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        raise ReplayError("a deal is a list of card texts per seat")
    try:
        return format_mask(cards_mask(cards))
    except IllegalActionError as error:
        raise ReplayError(f"a deal lists cards that are not a hand: {error}") from None


def _apply(match: Match, number: int, index: int, action: Any) -> None:
    if not isinstance(action, Mapping):
        raise ReplayError(f"hand {number}, action {index}: not an action")
    seat = action.get("seat")
    kind = action.get("type")
    cards = action.get("cards") or []
    if not isinstance(cards, list) or not all(isinstance(card, str) for card in cards):
        raise ReplayError(f"hand {number}, action {index}: cards must be a list of card texts")
    where = f"hand {number}, action {index}: seat {seat} {kind} {' '.join(cards)}".rstrip()
    if not isinstance(seat, int) or isinstance(seat, bool) or kind not in ("play", "pass"):
        raise ReplayError(f"{where}: not an action")
    try:
        if kind == "pass":
            match.pass_turn(seat)
        else:
            match.play(seat, cards)
    except IllegalActionError as error:
        raise ReplayError(f"{where}: {error.reason} ({error})") from None
