"""The environment's fast path (tienlen.env.observe, tienlen.env.info) gives exactly the reference's numbers.

Rule (docs/env.md "The observation"): the documented encoding is ``encode(facts_of_view(seat_view))``;
the environment computes it straight from the match (:class:`~tienlen.env.observe.Observer`), writes
the action mask into a byte buffer, and makes ``info["view"]`` only when it is read
(:class:`~tienlen.env.info.ViewInfo`). At every position of seeded random whole matches (every hand,
tie-breaks included) under every preset and seat count, for every seat, the fast observation must be
the reference's byte for byte, and the mask of the seat on turn the set of classes of the engine's legal
plays; on both engines (each in a process of its own, ``TIENLEN_ENGINE``, as users select it).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tests.support.tools import require_tool
from tienlen.engine import Match, SeatView, resolve_rules, seat_view
from tienlen.engine.accel import BUILD_HINT, ENGINE, ENGINE_VARIABLE, load_core
from tienlen.engine.crosscheck import CASES
from tienlen.env import ACTION_COUNT, OBS_SIZE, PASS, encode_view, index_of
from tienlen.env.aec import TienLenEnv
from tienlen.env.game import Game, frozen_copy, make_rules
from tienlen.env.info import ViewInfo
from tienlen.env.observe import Observer, card_floats

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 6  # whole matches a case: about 60,000 seats checked in all
# Every preset and seat count and the engine cross-check's variants, then every scoring and tie-break.
RULES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    *CASES,
    ("standard", 4, {"scoring": "wins", "tiebreak": "until_clear", "hands": 3}),
    ("classic", 3, {"end_on_first_out": True, "tiebreak": "until_clear", "hands": 5}),
    ("ladder", 2, {"scoring": "wins", "hands": 2}),
)


def reference_mask(match: Match, seat: int) -> npt.NDArray[np.int8]:
    """The action mask as docs/env.md defines it: 1 at the class of every legal play, and at pass when allowed."""
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if match.turn == seat and match.outcome is None:
        for play in match.legal_masks():
            mask[index_of(play)] = 1
        mask[PASS] = match.table is not None
    return mask


def check_position(game: Game, match: Match) -> int:
    """Every seat's fast observation and action mask against the reference at this position; seats checked."""
    for seat in range(match.players):
        fast = game.observer.observe(match, seat)
        slow = encode_view(seat_view(match, seat))
        assert fast.dtype == slow.dtype and fast.shape == slow.shape == (OBS_SIZE,)
        assert fast.flags.writeable and fast.flags.aligned and fast.flags.c_contiguous
        assert fast.tobytes() == slow.tobytes(), (match.rules, seat, np.flatnonzero(fast != slow))
        allowed = game.action_mask(seat)
        assert allowed.dtype == np.int8 and allowed.flags.writeable
        assert np.array_equal(allowed, reference_mask(match, seat))
    return match.players


def compare_everywhere(matches: int = MATCHES, seed: int = 11) -> dict[str, Any]:
    """Play ``matches`` seeded random whole matches under each of :data:`RULES`; check every position of each.

    Answers the engine used and the seats checked (run in a subprocess by the test, once an engine).
    """
    rng = random.Random(seed)
    checked = 0
    for preset, players, overrides in RULES:
        game = Game(make_rules(preset, players, overrides))
        for _ in range(matches):
            game.reset(rng.getrandbits(32))
            match = game.current
            while match.outcome is None:
                checked += check_position(game, match)
                legal = match.legal_masks()
                pick = rng.randrange(len(legal) + (match.table is not None))
                game.act_mask(legal[pick] if pick < len(legal) else None)
            checked += check_position(game, match)  # the final position: every seat placed, the scores final
    return {"engine": ENGINE, "seats_checked": checked}


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_the_fast_observation_and_mask_are_the_references_on_every_position(engine: str) -> None:
    """Rule: the observation is encode(facts_of_view(seat_view)) byte for byte, the mask the classes of the legal
    plays, at every position of whole matches under every preset, seat count and rule variant, on this engine."""
    if engine == "compiled":
        require_tool("tienlen_native", load_core() is not None, f"the compiled core is not built: {BUILD_HINT}")
    code = "import json; from tests.env.test_observe import compare_everywhere; print(json.dumps(compare_everywhere()))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, ENGINE_VARIABLE: engine},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout)
    assert answer["engine"] == engine
    assert answer["seats_checked"] > 50_000


def test_card_floats_are_the_bits_of_the_mask() -> None:
    """Rule: a card mask's 52 numbers are its bits, card 0 first (the hand and table fields)."""
    rng = random.Random(3)
    for mask in [0, 1, 1 << 51, (1 << 52) - 1, *(rng.getrandbits(52) for _ in range(500))]:
        floats = np.frombuffer(card_floats(mask), dtype=np.float32)
        assert floats.tolist() == [float(mask >> card & 1) for card in range(52)]


def test_one_observer_serves_matches_in_turn() -> None:
    """Rule: an observer holds nothing of one match that leaks into another's numbers (two matches, alternately)."""
    rules = resolve_rules({"preset": "classic"}, players=3)
    observer = Observer(rules)
    rng = random.Random(8)
    matches = [Match.new(rules, rng)[0] for _ in range(2)]
    for _ in range(200):
        for match in matches:
            if match.outcome is None:
                legal = match.legal_masks()
                assert match.turn is not None
                pick = rng.randrange(len(legal) + (match.table is not None))
                match.play(match.turn, legal[pick]) if pick < len(legal) else match.pass_turn(match.turn)
            for seat in range(3):
                assert observer.observe(match, seat).tobytes() == encode_view(seat_view(match, seat)).tobytes()


def test_a_frozen_copy_keeps_the_position_while_the_match_moves_on() -> None:
    """Rule: the view read from an info later is the view of the position the info was given at."""
    rules = resolve_rules({"preset": "standard", "hands": 2})
    match, _ = Match.new(rules, random.Random(4))
    rng = random.Random(4)
    kept: list[tuple[Match, list[SeatView]]] = []
    while match.outcome is None:
        kept.append((frozen_copy(match), [seat_view(match, seat) for seat in range(4)]))
        legal = match.legal_masks()
        assert match.turn is not None
        pick = rng.randrange(len(legal) + (match.table is not None))
        match.play(match.turn, legal[pick]) if pick < len(legal) else match.pass_turn(match.turn)
    for position, views in kept:
        assert [seat_view(position, seat) for seat in range(4)] == views
        assert position == frozen_copy(position)


def test_an_info_read_after_later_steps_holds_the_view_of_its_own_step() -> None:
    """Rule: info["view"] of the agent on turn is its seat view at that step, however late it is read."""
    environment = TienLenEnv(preset="standard", players=4, rules={"hands": 2})
    environment.reset(seed=9)
    rng = random.Random(9)
    kept: list[tuple[dict[str, Any], SeatView]] = []
    for agent in environment.agent_iter():
        observation, _reward, terminated, _truncated, info = environment.last()
        if terminated:
            kept.append((info, seat_view(environment.game.current, environment.seat_of[agent])))
            environment.step(None)
            continue
        kept.append((info, seat_view(environment.game.current, environment.seat_of[agent])))
        allowed = np.flatnonzero(observation["action_mask"])
        environment.step(int(allowed[rng.randrange(len(allowed))]))
    assert len(kept) > 50
    for info, view in kept:
        assert info["view"] == view


def reads() -> list[tuple[str, Any]]:
    """Every way of reading a dict, by name: each must see the view as a plain ``{"view": view}`` does."""
    return [
        ("getitem", lambda d: d["view"]),
        ("get", lambda d: d.get("view")),
        ("in", lambda d: "view" in d),
        ("iter", lambda d: list(d)),
        ("len", len),
        ("bool", bool),
        ("keys", lambda d: list(d.keys())),
        ("values", lambda d: list(d.values())),
        ("items", lambda d: list(d.items())),
        ("eq", lambda d: d == {"view": d.get("view")}),
        ("repr", repr),
        ("dict", dict),
        ("unpack", lambda d: {**d}),
        ("copy", lambda d: d.copy()),
        ("deepcopy", copy.deepcopy),
        ("pickle", lambda d: pickle.loads(pickle.dumps(d))),
        ("or", lambda d: d | {"x": 1}),
        ("ror", lambda d: {"x": 1} | d),
        ("pop", lambda d: d.pop("view")),
        ("setdefault", lambda d: d.setdefault("view", None)),
        ("update", lambda d: (d.update(x=1), dict(d))[1]),
        ("setitem", lambda d: (d.__setitem__("x", 1), dict(d))[1]),
        ("delitem", lambda d: (d.__delitem__("view"), dict(d))[1]),
    ]


@pytest.mark.parametrize(("name", "read"), reads(), ids=[name for name, _ in reads()])
def test_an_info_reads_as_the_dict_of_the_view(name: str, read: Any) -> None:
    """Rule: however it is read, the agent's info is {"view": its seat view} (made on the first read)."""
    match, _ = Match.new(resolve_rules({"preset": "ladder"}, players=3), random.Random(2))
    seat = match.turn
    assert seat is not None
    lazy = ViewInfo(frozen_copy(match), seat)
    plain = {"view": seat_view(match, seat)}
    assert read(lazy) == read(plain), name
    assert dict(lazy) == plain or name in ("pop", "update", "setitem", "delitem")
