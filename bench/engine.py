"""Engine benchmark: self-play hands per second and legal-play generation time.

Prints one JSON object:
- ``selfplay_hands_per_s``: complete random self-play hands a second (4
  players, ``standard``; each seat picks uniformly among its legal plays and,
  when allowed, a pass), the median of several timed rounds of wall-clock time;
- ``selfplay_hands_per_cpu_s``: the same hands per second of this process's
  CPU time, the best round (on a shared machine other processes take the CPU
  in turn, which the wall clock counts and this does not);
- ``legal_lead_us``: median microseconds of the legal-plays generator for a
  leader holding 13 random cards;
- ``legal_answer_us``: the same for a seat answering a random single.

Run with ``make bench-engine``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.engine import Match, Status, classify, match_to_dict, resolve_rules


def selfplay_round(seconds: float, rng: random.Random) -> tuple[float, float, float]:
    """Play random hands for about ``seconds``; return (hands a second, actions a hand, hands a CPU second)."""
    rules = resolve_rules({"hands": 1})
    hands = actions = 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        match, _ = Match.new(rules, rng)
        while match.status is Status.PLAYING:
            seat = match.turn
            assert seat is not None
            legal = match.legal_masks()
            choices = len(legal) + (match.table is not None)
            pick = rng.randrange(choices)
            if pick < len(legal):
                match.play(seat, legal[pick])
            else:
                match.pass_turn(seat)
            actions += 1
        hands += 1
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return hands / elapsed, actions / max(hands, 1), hands / cpu


def median_us(samples: list[int]) -> float:
    """Median of nanosecond samples, in microseconds."""
    return round(statistics.median(samples) / 1000, 2)


def legal_lead_samples(count: int, rng: random.Random) -> list[int]:
    """Timings (ns) of the generator for a leader holding 13 random cards."""
    rules = resolve_rules({"hands": 1})
    samples = []
    for _ in range(count):
        match, _ = Match.new(rules, rng)
        seat = rng.randrange(4)
        match.turn, match.start_card = seat, None
        started = time.perf_counter_ns()
        match.legal_masks()
        samples.append(time.perf_counter_ns() - started)
    return samples


def legal_answer_samples(count: int, rng: random.Random) -> list[int]:
    """Timings (ns) of the generator for a seat answering a random single."""
    rules = resolve_rules({"hands": 1})
    samples = []
    for _ in range(count):
        match, _ = Match.new(rules, rng)
        seat = rng.randrange(4)
        other = (seat + 3) % 4
        card = rng.choice([i for i in range(52) if match.hands[other] >> i & 1])
        match.turn, match.start_card = seat, None
        match.table, match.table_seat = classify(1 << card), other
        started = time.perf_counter_ns()
        match.legal_masks()
        samples.append(time.perf_counter_ns() - started)
    return samples


def state_size(rng: random.Random) -> int:
    """Median bytes of a serialized match (compact JSON) at random points of play."""
    sizes = []
    rules = resolve_rules()
    for _ in range(50):
        match, _ = Match.new(rules, rng)
        for _ in range(rng.randrange(1, 200)):
            if match.status is Status.FINISHED:
                break
            legal = match.legal_masks()
            assert match.turn is not None
            if match.table is not None and (not legal or rng.random() < 0.3):
                match.pass_turn(match.turn)
            else:
                match.play(match.turn, rng.choice(legal))
        sizes.append(len(json.dumps(match_to_dict(match), separators=(",", ":"))))
    return int(statistics.median(sizes))


def main() -> None:
    """Run the benchmark and print its JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="timed self-play rounds (median reported)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one self-play round")
    parser.add_argument("--samples", type=int, default=20000, help="legal-play generator samples")
    args = parser.parse_args()
    rng = random.Random(20261129)
    selfplay_round(0.5, rng)  # warm-up
    rounds = [selfplay_round(args.seconds, rng) for _ in range(args.rounds)]
    result = {
        "selfplay_hands_per_s": round(statistics.median(r[0] for r in rounds), 1),
        "selfplay_hands_per_cpu_s": round(max(r[2] for r in rounds), 1),
        "selfplay_actions_per_hand": round(statistics.median(r[1] for r in rounds), 1),
        "legal_lead_us": median_us(legal_lead_samples(args.samples, rng)),
        "legal_answer_us": median_us(legal_answer_samples(args.samples, rng)),
        "state_json_bytes_median": state_size(rng),
        "machine": {
            "cpus": os.cpu_count(),
            "load_1min": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
