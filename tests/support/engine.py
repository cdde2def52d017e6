"""Helpers of the engine tests: explicit deals, scripted actions, forced hands.

Nothing here decides legality: positions are set up through the engine's own
actions (or its serialized state) and the tests judge the outcome.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from tienlen.engine import (
    Match,
    RuleSet,
    mask_of,
    match_from_dict,
    match_to_dict,
    parse_cards,
    resolve_rules,
)


def mask(text: str) -> int:
    """The mask of space-separated cards."""
    return mask_of(parse_cards(text.split()))


def rules(preset: str = "standard", **overrides: object) -> RuleSet:
    """A rule set from a preset plus overrides."""
    return resolve_rules({"preset": preset, **overrides})


def new_match(
    deal: Sequence[str], preset: str = "standard", seed: int = 0, **overrides: object
) -> tuple[Match, list[dict[str, Any]]]:
    """A match whose first hand is dealt explicitly (one space-separated string a seat)."""
    ruleset = rules(preset, players=len(deal), **overrides)
    match, events = Match.new(ruleset, random.Random(seed), deal=[d.split() for d in deal])
    return match, [e.to_dict() for e in events]


def act(match: Match, seat: int, play: str | None) -> list[dict[str, Any]]:
    """Play space-separated cards for a seat, or pass when ``play`` is None; return event dicts."""
    if play is None:
        return [e.to_dict() for e in match.pass_turn(seat)]
    return [e.to_dict() for e in match.play(seat, play.split())]


def script(match: Match, actions: Sequence[tuple[int, str | None]]) -> list[dict[str, Any]]:
    """Run several actions; return all their events."""
    out: list[dict[str, Any]] = []
    for seat, play in actions:
        out += act(match, seat, play)
    return out


def clone(match: Match) -> Match:
    """An independent copy through the serialized form."""
    return match_from_dict(match_to_dict(match))


def _find_actions(match: Match, places: tuple[int, ...], done: int) -> list[tuple[int, int | None]] | None:
    """Depth-first search for actions that end the current hand with ``places``."""
    if len(match.completed) > done:
        return [] if match.completed[done].places == places else None
    seat = match.turn
    assert seat is not None
    options: list[int | None] = list(match.legal_masks())
    if match.can_pass(seat):
        options.append(None)
    for option in options:
        trial = clone(match)
        if option is None:
            trial.pass_turn(seat)
        else:
            trial.play(seat, option)
        if trial.places != list(places[: len(trial.places)]) and len(trial.completed) == done:
            continue
        rest = _find_actions(trial, places, done)
        if rest is not None:
            return [(seat, option), *rest]
    return None


def force_hand(match: Match, places: Sequence[int]) -> tuple[Match, list[dict[str, Any]]]:
    """Deal the current hand small cards and play it out so it ends with exactly ``places``.

    The leader is whoever the engine put on turn. Returns the (new) match and
    the events of the actions that ended the hand.
    """
    n = match.players
    leader = match.turn
    assert leader is not None and match.table is None and not match.log
    target = tuple(places)
    hands = [""] * n
    for i, seat in enumerate(target):
        hands[seat] = f"{4 + i}S {4 + i}C"
    hands[leader] = "3S " + hands[leader]
    data = match_to_dict(match)
    data["cards"] = [mask(h) for h in hands]
    if data["start"] is not None:
        data["start"] = 0  # the opening lead of a match must then include 3S, which the leader holds
    forced = match_from_dict(data)
    found = _find_actions(clone(forced), target, len(forced.completed))
    assert found is not None, f"no way to finish {target} from leader {leader}"
    events: list[dict[str, Any]] = []
    for seat, option in found:
        evs = forced.pass_turn(seat) if option is None else forced.play(seat, option)
        events += [e.to_dict() for e in evs]
    return forced, events
