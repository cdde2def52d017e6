"""Master's network, compiled against pure Python (`make bench-master-net`): ms a decision, and whether they agree.

Over the positions of ``--hands`` one-hand Medium self-play games (standard,
four seats; every decision with two actions or more), each decision's every
legal action is valued by the shipped network twice: with its copy in the
compiled core (native/src/net.rs) and in pure Python alone (the reference).
Prints the median and p90 of each (ms a decision, the features included), the
ratio of the medians, and how many estimates differ (none on Python 3.11,
where both add in the same order). Then Master's whole decision at its fixed
counts (no clock) on a sample of those positions, as the server plays it (the
compiled core, its playouts led by the network): median and p90. The two
networks are timed alternately, position by position, so a busy machine slows
both alike.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from array import array
from collections.abc import Callable, Iterator
from typing import Any

from tienlen.bots.driver import choose
from tienlen.bots.master_net import NET_PATH, MasterNet
from tienlen.bots.medium import choose_medium
from tienlen.engine import Match, SeatView, resolve_rules, seat_view
from tienlen.engine.match import LegalPlays


def positions(hands: int) -> Iterator[tuple[SeatView, LegalPlays]]:
    """The decisions with two actions or more of ``hands`` seeded one-hand games of Medium self-play."""
    rules = resolve_rules({"preset": "standard", "hands": 1}, players=4)
    for seed in range(hands):
        match, _ = Match.new(rules, random.Random(seed))
        while match.turn is not None:
            seat = match.turn
            view, legal = seat_view(match, seat), match.legal_plays()
            if len(legal.plays) + legal.can_pass >= 2:
                yield view, legal
            action = choose_medium(view, legal, random.Random(0))
            match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)


def networks() -> tuple[MasterNet, MasterNet]:
    """The shipped network with its compiled copy, and in pure Python alone."""
    with NET_PATH.open("rb") as stream:
        header = json.loads(stream.readline())
        numbers = array("f")
        numbers.frombytes(stream.read())
    compiled = MasterNet(header["sizes"], numbers, {}, compiled_net=True)
    if compiled.compiled is None:
        raise SystemExit("bench-master-net: the compiled core is not built (make native)")
    return compiled, MasterNet(header["sizes"], numbers, {}, compiled_net=False)


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 3), "p90_ms": round(ordered[len(ordered) * 9 // 10], 3)}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--searches", type=int, default=40, help="positions of those where Master decides in full")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args(argv)
    compiled, python = networks()
    found = list(positions(args.hands))
    network: dict[str, list[float]] = {"compiled": [], "python": []}
    differing = estimates = 0
    for view, legal in found:
        options = [*legal.plays, *([None] if legal.can_pass else [])]
        ms_c, ours = timed(lambda: compiled.estimates(view, legal, options))  # noqa: B023 (called at once)
        ms_p, reference = timed(lambda: python.estimates(view, legal, options))  # noqa: B023
        network["compiled"].append(ms_c)
        network["python"].append(ms_p)
        differing += sum(a != b for a, b in zip(ours, reference, strict=True))
        estimates += len(options)
    searched: list[float] = []
    sample = random.Random(0).sample(found, min(args.searches, len(found)))
    for index, (view, legal) in enumerate(sample):
        ms, _ = timed(lambda: choose("master", view, legal, random.Random(index)))  # noqa: B023
        searched.append(ms)
    result: dict[str, Any] = {
        "decisions": len(found),
        "estimates": estimates,
        "estimates_differing": differing,
        "network": {name: figures(samples) for name, samples in network.items()},
        "network_ratio": round(statistics.median(network["python"]) / statistics.median(network["compiled"]), 1),
        "master_decisions": len(sample),
        "master": figures(searched),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['decisions']} decisions, {estimates} estimates, {differing} differing")
    for name in ("compiled", "python"):
        times = result["network"][name]
        print(f"network {name}: median {times['median_ms']} ms, p90 {times['p90_ms']} ms")
    print(f"network python / compiled (medians): {result['network_ratio']}")
    decided = result["master"]
    print(f"Master ({len(sample)} decisions): median {decided['median_ms']} ms, p90 {decided['p90_ms']} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
