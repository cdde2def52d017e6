"""Positions of random self-play under every preset and seat count, for the environment's tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tienlen.engine import PRESET_NAMES, Match, resolve_rules

SETUPS = [(preset, players) for preset in PRESET_NAMES for players in (2, 3, 4)]
"""Every preset with 2, 3 and 4 seats."""


def random_positions(preset: str, players: int, matches: int, seed: int) -> Iterator[Match]:
    """The match before each action of ``matches`` random one-hand matches (the same object, moving on).

    Each seat picks uniformly among its legal plays and, when allowed, a pass,
    as ``bench/engine.py`` does; the caller reads the position before the next
    action is taken.
    """
    rng = random.Random(seed)
    rules = resolve_rules({"preset": preset, "hands": 1}, players=players)
    for _ in range(matches):
        match, _ = Match.new(rules, rng)
        while match.outcome is None:
            yield match
            seat = match.turn
            assert seat is not None
            legal = match.legal_masks()
            pick = rng.randrange(len(legal) + (match.table is not None))
            if pick < len(legal):
                match.play(seat, legal[pick])
            else:
                match.pass_turn(seat)
