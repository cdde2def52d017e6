"""Hold the compiled core to the Python engine, the reference: seeded random matches played side by side.

    python -m tienlen.engine.crosscheck --positions 100000    # a case: 100,000 positions; prints one JSON line

Every case (a preset at a seat count, or a variant no preset holds) plays seeded random matches.
At each position the legal plays of the pure Python generator (:data:`.legal.PYTHON`), of the
engine in use (:meth:`.Match.legal_masks`) and of the same hand played inside the compiled core
(:class:`.compiled.Hand`) must be the same list in the same order; after each action the events
of the match and of the core's hand, the classification of the play, and at each hand's end the
places. A difference raises :class:`Mismatch` naming the case, the seed and what differed.
tests/engine/test_compiled_core.py runs this over 100,000 positions and more; this command runs
as many as asked.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from typing import Any

from .accel import KIND_NUMBERS, CompiledCore, CompiledEvent, CompiledHand, load_core
from .combos import python_classify
from .events import Event, HandEnded, Passed, Played, TableCleared, WentOut
from .kinds import Kind
from .legal import PYTHON
from .match import Match, Status
from .rules import PRESET_NAMES, RuleSet, resolve_rules

SEAT_COUNTS = (2, 3, 4)
# Every preset at every seat count, then the variants no preset holds (every bombs value, the hand
# ending at the first seat out, no start card): (preset, players, overrides).
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    *((preset, players, {}) for preset in PRESET_NAMES for players in SEAT_COUNTS),
    ("standard", 4, {"bombs": "classic", "end_on_first_out": True}),
    ("standard", 3, {"bombs": "ladder", "pass_reentry_with_bomb": True}),
    ("standard", 4, {"bombs": "off", "start_card_rule": False}),
    ("classic", 2, {"end_on_first_out": True, "pass_reentry_with_bomb": True}),
)


class Mismatch(AssertionError):
    """The compiled core and the Python engine disagree."""


def case_rules(case: tuple[str, int, dict[str, Any]]) -> RuleSet:
    """The rule set of a case."""
    preset, players, overrides = case
    return resolve_rules({"preset": preset, **overrides}, players=players)


def in_hand(events: Sequence[Event]) -> list[CompiledEvent]:
    """The match's events as the core's hand reports them (the hand and match events are the match's own)."""
    found: list[CompiledEvent] = []
    for event in events:
        if isinstance(event, Played):
            found.append(("played", event.seat, event.mask, KIND_NUMBERS[Kind(event.kind)], event.bomb))
        elif isinstance(event, Passed):
            found.append(("passed", event.seat))
        elif isinstance(event, TableCleared):
            found.append(("table_cleared", event.leader))
        elif isinstance(event, WentOut):
            found.append(("went_out", event.seat, event.place))
    return found


def core_hand(core: CompiledCore, match: Match) -> CompiledHand:
    """The match's current hand, started afresh inside the core."""
    rules, turn = match.rules, match.turn
    assert turn is not None
    return core.Hand(
        list(match.hands), turn, rules.bombs, rules.pass_reentry_with_bomb, rules.end_on_first_out, match.start_card
    )


def expect(same: bool, what: str, rules: RuleSet, seed: int, python: object, compiled: object) -> None:
    """Raise :class:`Mismatch` unless ``same``."""
    if not same:
        raise Mismatch(f"{what} differ ({rules.to_dict()}, seed {seed}): python {python!r}, compiled {compiled!r}")


def cross_check(core: CompiledCore, rules: RuleSet, seed: int, positions: int) -> int:
    """Play seeded random matches until ``positions`` positions agreed; the number of positions compared."""
    rng = random.Random(seed)
    seen = 0
    while seen < positions:
        match, _ = Match.new(rules, rng)
        hand = core_hand(core, match)
        while match.status is Status.PLAYING:
            seat = match.turn
            assert seat is not None
            state = (match.hands, match.locked, None if match.table is None else match.table.mask, seat)
            expect(state == (hand.hands, hand.locked, hand.table, hand.turn), "states", rules, seed, state, hand)
            locked = match.is_locked(seat)
            plays = PYTHON.legal_masks_of(match.hands[seat], match.table, rules.bombs, locked, match.start_card)
            in_use, compiled = match.legal_masks(), hand.legal()
            expect(plays == in_use == compiled, "legal plays", rules, seed, plays, (in_use, compiled))
            seen += 1
            pick = rng.randrange(len(plays) + (match.table is not None))
            if pick < len(plays):
                mask = plays[pick]
                combo = python_classify(mask)
                assert combo is not None
                kind = core.classify(mask)
                expect((KIND_NUMBERS[combo.kind], combo.length, combo.top) == kind, "kinds", rules, seed, combo, kind)
                events, done = match.play(seat, mask), hand.play(mask)
            else:
                events, done = match.pass_turn(seat), hand.pass_turn()
            expect(in_hand(events) == done, "events", rules, seed, events, done)
            ended = any(isinstance(e, HandEnded) for e in events)
            expect(ended == hand.done, "hand ends", rules, seed, ended, hand.done)
            if ended:
                places = match.completed[-1].places
                expect(places == tuple(hand.places), "places", rules, seed, places, hand.places)
                if match.status is Status.PLAYING:
                    hand = core_hand(core, match)  # the match dealt its next hand
    return seen


def main(argv: Sequence[str] | None = None) -> None:
    """Cross-check every case and print one JSON line (a :class:`Mismatch` ends the run with its message)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=100_000, help="positions a case (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed; case i plays seed + i")
    args = parser.parse_args(argv)
    core = load_core()
    if core is None:
        parser.exit(2, "the compiled core is not built: run `make native`\n")
    started = time.perf_counter()
    total = sum(cross_check(core, case_rules(case), args.seed + i, args.positions) for i, case in enumerate(CASES))
    elapsed = time.perf_counter() - started
    print(json.dumps({"cases": len(CASES), "positions": total, "seconds": round(elapsed, 1), "differences": 0}))


if __name__ == "__main__":
    main()
