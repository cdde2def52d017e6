"""The review of finished matches: how long a 4-hand, 4-seat match takes to review (``make bench-review``).

Plays ``--matches`` seeded matches of house bots (Medium, Hard, Easy, Expert at a small fixed playout count:
the matches only need to be played, reproducibly), then reviews each with :func:`tienlen.bots.review.review_match`
at the server's budget (or ``--deals``), one after another in this process, and prints ONE JSON object: the
seconds per match (p50, p95, max), the decisions per match, the share of each grade and whether the compiled
core ran. The target (docs/api.md, Reviews): under 60 s a match on 2 cores with the compiled core.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace

from tienlen.bots import bot_rng, choose, compiled
from tienlen.bots.review import DEFAULT_REVIEW_BUDGET, review_match
from tienlen.engine import Match, resolve_rules, seat_view

LEVELS = ("medium", "hard", "easy", "expert")
PLAY_ITERATIONS = 20  # the searching bots' playouts while the matches are played (not what is measured)


def play(seed: int, hands: int) -> tuple[Match, list[list[tuple[int, int]]]]:
    """A seeded match of ``hands`` hands of house bots, and each hand's actions (seat, mask; 0 = a pass)."""
    rules = resolve_rules({"hands": hands}, players=4)
    match, _ = Match.new(rules, random.Random(seed))
    actions: list[list[tuple[int, int]]] = []
    number = 0
    while match.outcome is None and match.turn is not None:
        if number != match.hand_number:
            actions.append([])
            number = match.hand_number
        seat = match.turn
        view, legal = seat_view(match, seat), match.legal_plays()
        action = choose(LEVELS[seat], view, legal, bot_rng(match, seat), iterations=PLAY_ITERATIONS)
        mask = 0 if action.is_pass else action.mask
        actions[-1].append((seat, mask))
        if mask:
            match.play(seat, mask)
        else:
            match.pass_turn(seat)
    return match, actions


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def main(argv: list[str] | None = None) -> int:
    """Play, review and print the figures as one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--hands", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=DEFAULT_REVIEW_BUDGET.deals, help="sampled deals a decision")
    args = parser.parse_args(argv)
    budget = replace(DEFAULT_REVIEW_BUDGET, deals=args.deals)
    seconds: list[float] = []
    decisions: list[int] = []
    grades: Counter[str] = Counter()
    for n in range(args.matches):
        seed = args.seed + n
        match, actions = play(seed, args.hands)
        started = time.perf_counter()
        review = review_match(match.rules, seed, actions, budget=budget)
        seconds.append(time.perf_counter() - started)
        decisions.append(len(review.decisions))
        grades.update(d.grade for d in review.decisions)
        print(f"match {n + 1}/{args.matches}: {len(review.decisions)} decisions, {seconds[-1]:.1f} s", file=sys.stderr)
    total = sum(grades.values())
    result = {
        "matches": args.matches,
        "hands": args.hands,
        "deals": args.deals,
        "compiled_core": compiled.CORE is not None,
        "seconds_p50": round(statistics.median(seconds), 2),
        "seconds_p95": round(percentile(seconds, 0.95), 2),
        "seconds_max": round(max(seconds), 2),
        "decisions_p50": statistics.median(decisions),
        "grades": {grade: round(count / total, 3) for grade, count in sorted(grades.items())},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
