"""Engine benchmark: the pure Python engine and the compiled core side by side, and a peer.

Prints one JSON object. For each engine (``python``, and ``compiled`` when the core is built:
``make native``), the match's legal-play generator is switched between rounds, so both run
alternately in one process under the same load:

- ``selfplay_hands_per_s``: complete random self-play hands a second of the match (4 players,
  ``standard``; each seat picks uniformly among its legal plays and, when allowed, a pass), the
  median of several timed rounds of wall-clock time; ``selfplay_hands_per_cpu_s`` the same per
  second of this process's CPU time, the best round (on a shared machine other processes take the
  CPU in turn, which the wall clock counts and this does not);
- ``legal_lead_us``: median microseconds of the match's legal plays for a leader holding 13 random
  cards; ``legal_answer_us`` the same for a seat answering a random single.

With the compiled core, ``core_selfplay_hands_per_s`` (and per CPU second): the same random hands
played inside the core (``random_hands`` of :mod:`tienlen.engine.compiled`: its own deals and random picks, no Python
in the loop). With ``--peer DIR`` (a checkout of hoangdung-nguyen/rl-tien-len, the fastest Python
peer we ran; ``make bench-engine PEER=DIR``), ``peer_selfplay_hands_per_s``: its game engine
playing complete random hands, timed in the same rounds. ``ratios`` compares them; the issue's
targets are the core at 20x the peer or more and compiled legal leads under 2 µs.

Run with ``make bench-engine``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.engine import Match, Status, classify, legal, match_to_dict, resolve_rules
from tienlen.engine import match as match_module
from tienlen.engine.accel import CompiledCore, load_core

Round = tuple[float, float, float]  # hands a second (wall), actions a hand, hands a CPU second


def use(generator: legal.Generator) -> None:
    """Make the match call this engine's legal-play generator (its one call to it)."""
    vars(match_module)["legal_masks_of"] = generator.legal_masks_of


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


def core_round(core: CompiledCore, seconds: float, seed: int) -> Round:
    """Random hands inside the compiled core for about ``seconds``: (hands a second, actions a hand, per CPU s)."""
    batch, hands, actions = 200, 0, 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        played, taken = core.random_hands(4, "exact", True, True, False, seed + hands, batch)
        hands, actions = hands + played, actions + taken
    elapsed = time.perf_counter() - started
    return hands / elapsed, actions / hands, hands / (time.process_time() - cpu_started)


def peer_round_maker(directory: str) -> Callable[[float, random.Random], Round]:
    """A round of the peer's game engine (hoangdung-nguyen/rl-tien-len): complete random hands."""
    sys.path.insert(0, directory)
    game_class = importlib.import_module("game.tienlen_game").TienLenGame

    def peer_round(seconds: float, rng: random.Random) -> Round:
        random.seed(rng.getrandbits(32))  # its dealer shuffles with the random module
        hands = actions = 0
        cpu_started = time.process_time()
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            game = game_class()
            state, _ = game.init_game()
            while not game.is_over():
                state, _ = game.step(rng.choice(state["legal_actions"]))
                actions += 1
            hands += 1
        elapsed = time.perf_counter() - started
        return hands / elapsed, actions / max(hands, 1), hands / (time.process_time() - cpu_started)

    return peer_round


def summary(rounds: list[Round]) -> dict[str, float]:
    """Median hands a second (wall), best per CPU second, median actions a hand."""
    return {
        "selfplay_hands_per_s": round(statistics.median(r[0] for r in rounds), 1),
        "selfplay_hands_per_cpu_s": round(max(r[2] for r in rounds), 1),
        "selfplay_actions_per_hand": round(statistics.median(r[1] for r in rounds), 1),
    }


def ratio(a: float | None, b: float | None) -> float | None:
    """a / b to two decimals, or None when either is missing."""
    return None if a is None or b is None else round(a / b, 2)


def main() -> None:
    """Run the benchmark and print its JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="timed self-play rounds of each (median reported)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one self-play round")
    parser.add_argument("--samples", type=int, default=20000, help="legal-play generator samples")
    parser.add_argument("--peer", help="a checkout of hoangdung-nguyen/rl-tien-len, timed in the same rounds")
    args = parser.parse_args()
    rng = random.Random(20261129)
    core = load_core()
    engines = {"python": legal.PYTHON} | ({} if core is None else {"compiled": legal.compiled(core)})
    peer = None if args.peer is None else peer_round_maker(args.peer)
    rounds: dict[str, list[Round]] = {name: [] for name in [*engines, "core", "peer"]}
    for generator in engines.values():  # warm-up
        use(generator)
        selfplay_round(0.3, rng)
    for number in range(args.rounds):  # alternated, so that each meets the same load
        for name, generator in engines.items():
            use(generator)
            rounds[name].append(selfplay_round(args.seconds, rng))
        if core is not None:
            rounds["core"].append(core_round(core, args.seconds, number << 32))
        if peer is not None:
            rounds["peer"].append(peer(args.seconds, rng))
    result: dict[str, Any] = {}
    for name, generator in engines.items():
        use(generator)
        result[name] = summary(rounds[name]) | {
            "legal_lead_us": median_us(legal_lead_samples(args.samples, rng)),
            "legal_answer_us": median_us(legal_answer_samples(args.samples, rng)),
        }
    if core is not None:
        core_figures = summary(rounds["core"])
        result["compiled"] |= {f"core_{key}": value for key, value in core_figures.items()}
    if peer is not None:
        result["peer"] = {"name": "hoangdung-nguyen/rl-tien-len"} | summary(rounds["peer"])
    python_hands = result["python"]["selfplay_hands_per_s"]
    compiled = result.get("compiled", {})
    peer_hands = result.get("peer", {}).get("selfplay_hands_per_s")
    result["ratios"] = {
        "compiled_match_vs_python": ratio(compiled.get("selfplay_hands_per_s"), python_hands),
        "core_vs_python": ratio(compiled.get("core_selfplay_hands_per_s"), python_hands),
        "python_vs_peer": ratio(python_hands, peer_hands),
        "core_vs_peer": ratio(compiled.get("core_selfplay_hands_per_s"), peer_hands),
        "core_vs_peer_target": 20,
        "legal_lead_python_vs_compiled": ratio(result["python"]["legal_lead_us"], compiled.get("legal_lead_us")),
    }
    use(engines["compiled" if core is not None else "python"])
    result["state_json_bytes_median"] = state_size(rng)
    result["machine"] = {
        "cpus": os.cpu_count(),
        "load_1min": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
