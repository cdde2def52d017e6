"""Environment benchmark: steps and hands a second of ``tienlen.env``, random legal actions, one process.

Prints one JSON object:
- ``aec_steps_per_s``: steps a second of the PettingZoo AEC environment
  (``standard``, 4 players), each step an ``env.last()`` (the encoded
  observation and the action mask) then ``env.step()`` of a uniformly random
  allowed index; the median of several timed rounds of wall-clock time;
- ``aec_hands_per_s``: complete hands a second in the same rounds;
- ``aec_steps_per_cpu_s``: steps a second of this process's CPU time, the
  best round (on a shared machine other processes take the CPU in turn, which
  the wall clock counts and this does not);
- ``aec_steps_per_s_without_view`` / ``aec_steps_per_cpu_s_without_view``:
  the same with ``with_view=False`` (no ``SeatView`` in the info of the agent
  on turn). With the view (the default) the info's view is made only when it
  is read (``tienlen.env.info.ViewInfo``), and the loop above never reads it;
- ``aec_steps_per_cpu_s_reading_view``: per CPU second with the view, reading
  ``info["view"]`` every step (what a loop that uses the view pays);
- ``core_steps_per_s`` / ``core_hands_per_s``: the environment's core
  (:class:`tienlen.env.game.Game`): the action mask and a random allowed index,
  no observation encoded: what the engine and the action space cost alone;
  ``core_steps_per_cpu_s`` per CPU second as above;
- ``target_steps_per_s``: 50,000, the issue's target for the compiled core;
- ``engine``: the engine the run used (``compiled`` when the core is built,
  ``make native``; ``TIENLEN_ENGINE=python`` forces the pure Python one).

Run with ``make bench-env``.
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

import numpy as np

from tienlen.engine.accel import ENGINE
from tienlen.env.aec import TienLenEnv
from tienlen.env.game import Game, make_rules

TARGET_STEPS_PER_S = 50_000


Round = tuple[float, float, float]
"""Steps a second, hands a second (wall clock) and steps a second of the process's CPU time."""


def aec_round(seconds: float, rng: random.Random, with_view: bool, read_view: bool = False) -> Round:
    """Step the AEC environment with random allowed actions for about ``seconds`` (reading the view if asked)."""
    env = TienLenEnv(preset="standard", players=4, with_view=with_view)
    env.reset(seed=rng.getrandbits(32))
    steps = hands = 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        observation, _reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            hands += env.game.hands_played
            env.game.hands_played = 0
            env.reset()
            continue
        if read_view:
            info["view"]
        allowed = np.flatnonzero(observation["action_mask"])
        env.step(int(allowed[rng.randrange(len(allowed))]))
        steps += 1
    hands += env.game.hands_played
    elapsed = time.perf_counter() - started
    return steps / elapsed, hands / elapsed, steps / (time.process_time() - cpu_started)


def core_round(seconds: float, rng: random.Random) -> Round:
    """Step the core with random allowed actions (no observation) for about ``seconds``."""
    game = Game(make_rules("standard", 4))
    game.reset(rng.getrandbits(32))
    steps = 0
    cpu_started = time.process_time()
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if game.over:
            game.reset()
            continue
        turn = game.turn
        assert turn is not None
        allowed = np.flatnonzero(game.action_mask(turn))
        game.act(int(allowed[rng.randrange(len(allowed))]))
        steps += 1
    elapsed = time.perf_counter() - started
    return steps / elapsed, game.hands_played / elapsed, steps / (time.process_time() - cpu_started)


def main(argv: list[str] | None = None) -> int:
    """Run the rounds and print the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a round (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each measure (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    aec = [aec_round(args.seconds, rng, True) for _ in range(args.rounds)]
    bare = [aec_round(args.seconds, rng, False) for _ in range(args.rounds)]
    reading = [aec_round(args.seconds, rng, True, read_view=True) for _ in range(args.rounds)]
    core = [core_round(args.seconds, rng) for _ in range(args.rounds)]
    figures = {
        "aec_steps_per_s": round(statistics.median(r[0] for r in aec)),
        "aec_hands_per_s": round(statistics.median(r[1] for r in aec), 1),
        "aec_steps_per_cpu_s": round(max(r[2] for r in aec)),
        "aec_steps_per_s_without_view": round(statistics.median(r[0] for r in bare)),
        "aec_steps_per_cpu_s_without_view": round(max(r[2] for r in bare)),
        "aec_steps_per_cpu_s_reading_view": round(max(r[2] for r in reading)),
        "core_steps_per_s": round(statistics.median(r[0] for r in core)),
        "core_hands_per_s": round(statistics.median(r[1] for r in core), 1),
        "core_steps_per_cpu_s": round(max(r[2] for r in core)),
        "target_steps_per_s": TARGET_STEPS_PER_S,
        "engine": ENGINE,
        "rounds": args.rounds,
        "seconds_a_round": args.seconds,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "load": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
