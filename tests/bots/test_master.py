"""Master's network: what it reads, the file it ships in, and the same numbers in pure Python as in training.

Rules checked: the inputs are a function of the seat's view only (moving hidden cards between the other seats
changes none); every input index is in range and each one-hot group has exactly one 1; the weights file the
server ships reads with the sizes the code expects (and a file of other sizes is refused); the pure Python
forward pass gives the numbers of the training side's numpy one (``bench/train_master.py``), for a file that
script writes; Master and the network alone choose legal actions, the same for the same seed.
"""

from __future__ import annotations

import importlib.util
import itertools
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.bots import seeded_match
from tienlen.bots import bot_rng, choose, hard
from tienlen.bots.master import choose_policy, ranked
from tienlen.bots.master_features import (
    ACTION_KIND,
    CANDIDATE,
    CONTROL,
    COUNT_AFTER,
    INPUTS,
    KINDS,
    MAX_COUNT,
    PLAN_COST,
    PLAN_SIZE,
    PLAYERS,
    SEAT_BLOCK,
    SEAT_COUNT,
    SEATS,
    TWOS,
    action_inputs,
    read,
)
from tienlen.bots.master_net import NET_PATH, MasterNet, NetFileError, shipped_net
from tienlen.bots.medium import choose_medium
from tienlen.bots.net_playouts import NetLedPlayouts
from tienlen.engine import Match, seat_view
from tienlen.engine.combos import Combination

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def trainer() -> ModuleType:
    """``bench/train_master.py`` as a module (its PyTorch parts are imported only when it trains)."""
    spec = importlib.util.spec_from_file_location("train_master", ROOT / "bench" / "train_master.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_master"] = module
    spec.loader.exec_module(module)
    return module


def _played_to(seed: int, steps: int, players: int = 4) -> Match:
    """A seeded one-hand match after ``steps`` Medium actions (fewer if it ends)."""
    match = seeded_match(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.outcome is not None or match.turn is None:
            break
        seat = match.turn
        action = choose_medium(seat_view(match, seat), match.legal_plays(), rng)
        if action.is_pass:
            match.pass_turn(seat)
        else:
            match.play(seat, action.mask)
    return match


def _options(match: Match) -> list[Combination | None]:
    legal = match.legal_plays()
    return [*legal.plays, *([None] if legal.can_pass else [])]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 40), swaps=st.integers(1, 8))
def test_the_inputs_read_the_seat_view_only(seed: int, steps: int, swaps: int) -> None:
    """Rule: moving hidden cards between the other seats' hands (their counts kept) changes no input (nor the
    candidates read with them)."""
    match = _played_to(seed, steps)
    if match.outcome is not None or match.turn is None:
        return
    seat = match.turn
    inputs = _all_inputs(match, seat)
    rng = random.Random(seed)
    others = [s for s in range(match.players) if s != seat and match.hands[s]]
    for _ in range(swaps if len(others) > 1 else 0):
        a, b = rng.sample(others, 2)
        card_a = rng.choice([c for c in range(52) if match.hands[a] >> c & 1])
        card_b = rng.choice([c for c in range(52) if match.hands[b] >> c & 1])
        match.hands[a] ^= (1 << card_a) | (1 << card_b)
        match.hands[b] ^= (1 << card_a) | (1 << card_b)
    assert _all_inputs(match, seat) == inputs


def _all_inputs(match: Match, seat: int) -> tuple[list[int], tuple[int, ...], list[list[int]]]:
    view, legal = seat_view(match, seat), match.legal_plays()
    reading = read(view, legal)
    actions = [sorted(action_inputs(view, reading, p)) for p in _options(match)]
    return sorted(reading.inputs), reading.candidates, actions


@pytest.mark.parametrize(("players", "seed", "steps"), [(4, 1, 0), (4, 2, 17), (3, 3, 9), (2, 4, 5), (4, 5, 33)])
def test_every_input_is_in_range_and_each_one_hot_group_has_one(players: int, seed: int, steps: int) -> None:
    """Rule: inputs lie in [0, INPUTS), none twice; the action's kind, the count after it, the players, each
    other seat's count, the action's place among Hard's candidates, the plan's size and cost, the cards kept above
    every unseen card and the 2s kept are one-hot."""
    match = _played_to(seed, steps, players)
    view = seat_view(match, match.turn or 0)
    reading = read(view, match.legal_plays())
    for play in _options(match):
        inputs = reading.inputs + action_inputs(view, reading, play)
        assert len(set(inputs)) == len(inputs) and all(0 <= i < INPUTS for i in inputs)
        groups = [range(ACTION_KIND, ACTION_KIND + 1 + len(KINDS)), range(COUNT_AFTER, COUNT_AFTER + MAX_COUNT + 1)]
        groups += [range(PLAYERS, CANDIDATE), range(CANDIDATE, PLAN_SIZE), range(PLAN_SIZE, PLAN_COST)]
        groups += [range(PLAN_COST, CONTROL), range(CONTROL, TWOS), range(TWOS, INPUTS)]
        groups += [
            range(SEATS + k * SEAT_BLOCK + SEAT_COUNT, SEATS + k * SEAT_BLOCK + SEAT_COUNT + MAX_COUNT + 1)
            for k in range(players - 1)
        ]
        for group in groups:
            assert sum(1 for i in inputs if i in group) == 1


def test_the_shipped_network_reads_with_the_sizes_the_code_expects() -> None:
    """Rule: the weights ship with the server and read in pure Python; their header says how they were trained."""
    assert NET_PATH.exists(), "server/tienlen/bots/master_net.bin ships with the server (make train-master)"
    net = shipped_net()
    assert net.sizes[0] == INPUTS
    assert NET_PATH.stat().st_size < 4_000_000, "a few MB at most"
    assert net.about["method"].startswith("deep Monte Carlo")


def test_a_file_of_other_sizes_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "net.bin"
    path.write_bytes(b'{"sizes": [10, 4, 4, 2]}\n' + bytes(4 * 70))
    with pytest.raises(NetFileError):
        MasterNet.read(path)
    path.write_bytes(b'{"sizes": [%d, 4, 4, 2]}\n' % INPUTS + bytes(4 * 7))
    with pytest.raises(NetFileError):
        MasterNet.read(path)


def test_the_pure_python_forward_pass_equals_the_trainers_numpy_one(trainer: ModuleType, tmp_path: Path) -> None:
    """Rule: a file written by the trainer's export gives in pure Python the values its numpy network gives."""
    rng = np.random.default_rng(7)
    sizes = [INPUTS, *trainer.HIDDEN, 2]
    state = {}
    for n, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        state[f"{2 * n}.weight"] = rng.normal(0, 0.2, (n_out, n_in)).astype(np.float32)
        state[f"{2 * n}.bias"] = rng.normal(0, 0.2, n_out).astype(np.float32)
    path = tmp_path / "net.bin"
    trainer.export(state, path, {"method": "deep Monte Carlo (test)"})
    net = MasterNet.read(path, compiled_net=False)
    assert net.compiled is None, "the pure Python forward pass (the compiled one is checked against it)"
    reference = trainer.numpy_net(state)
    for seed, steps in [(11, 0), (12, 14), (13, 30)]:
        match = _played_to(seed, steps)
        view, legal = seat_view(match, match.turn or 0), match.legal_plays()
        options = _options(match)
        x = reference.outputs(view, legal, options)
        ours = net.estimates(view, legal, options)
        expected_first = 1 / (1 + np.exp(-x[:, 0]))
        expected_points = 1 / (1 + np.exp(-x[:, 1]))
        assert [e.first for e in ours] == pytest.approx(list(expected_first), abs=1e-5)
        assert [e.points for e in ours] == pytest.approx(list(expected_points), abs=1e-5)


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_master_and_its_network_choose_legal_actions_the_same_for_the_same_seed(seed: int) -> None:
    match = _played_to(seed, seed % 7 * 3)
    seat = match.turn
    assert seat is not None
    view, legal = seat_view(match, seat), match.legal_plays()
    masks = {p.mask for p in legal.plays}
    order = ranked(view, legal, shipped_net())
    assert set(order) == masks | ({0} if legal.can_pass else set())
    policy = choose_policy(view, legal)
    assert (policy.is_pass and legal.can_pass) or policy.mask in masks
    first = choose("master", view, legal, bot_rng(match, seat), iterations=10)
    assert (first.is_pass and legal.can_pass) or first.mask in masks
    assert first == choose("master", view, legal, bot_rng(match, seat), iterations=10)


def test_master_searches_hards_counts_led_by_its_network_within_ten_budgets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rule: Master is Hard's search at SEARCH_EFFORT times its counts within ten bot budgets (its level's effort),
    with the network's best actions first among the candidates, a head start for each, and playouts whose seat's
    moves are the network's; the network's time comes out of the budget."""
    from tienlen.bots import master

    match = _played_to(31, 0)
    seat = match.turn
    assert seat is not None
    view, legal = seat_view(match, seat), match.legal_plays()
    calls: list[dict[str, object]] = []

    def record(view: object, legal: object, rng: object, **options: object) -> object:
        calls.append(options)
        return choose_medium(seat_view(match, seat), match.legal_plays(), random.Random(0))

    monkeypatch.setattr(master, "choose_hard", record)
    choose("master", view, legal, random.Random(1), budget_s=0.2, iterations=40)
    (options,) = calls
    assert options["effort"] == master.SEARCH_EFFORT and options["iterations"] == 40 * master.SEARCH_EFFORT
    assert 1.0 < float(options["budget_s"]) <= 2.0  # type: ignore[arg-type]
    led = options["playouts"]
    assert callable(led)
    runner = led(view, hard.FIRST_BONUS)
    assert isinstance(runner, NetLedPlayouts) or runner._handle  # the core's, led by the network
    order = ranked(view, legal, shipped_net())
    assert options["first"] == order[: master.NET_CANDIDATES]
    head_start = options["head_start"]
    assert callable(head_start)
    starts = head_start(order[:3])
    assert starts == sorted(starts, reverse=True) and starts[0] > 0
