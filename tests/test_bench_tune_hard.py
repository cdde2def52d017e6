"""``bench/tune_hard.py``: the cross-entropy method over Hard's weights puts each setting in place and restores it.

Nothing is compared for strength here: the tests check that a setting reaches Hard (and the deal source it
builds), that draws stay in range and repeat with the seed, that the next distribution is the elite's, and that a
one-deal run prints a setting per draw, the shipped one first.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tienlen.bots import hard, sampling
from tienlen.engine.match import Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import seat_view

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_hard", ROOT / "bench" / "tune_hard.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_hard"] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def test_the_run_starts_from_the_weights_hard_ships_with(bench: ModuleType) -> None:
    assert bench.shipped() == {
        "first_bonus": hard.FIRST_BONUS,
        "prior": hard.DEFAULT_PRIOR,
        "candidates": hard.MAX_CANDIDATES,
        "chains": sampling.CHAINS,
        "burn_in": sampling.chain_pace().burn_in_per_event,
        "likelihood": pytest.approx(-1.69897),  # log10(0.02)
    }


def test_a_setting_reaches_hard_and_its_deal_source_and_is_restored_after(bench: ModuleType) -> None:
    before = bench.shipped()
    setting = {"first_bonus": 3.5, "prior": 0.4, "candidates": 3.0, "chains": 5.0, "burn_in": 2.0, "likelihood": -1.0}
    match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}, players=4), random.Random(3))
    with bench.weights_in_place(setting):
        assert (hard.FIRST_BONUS, hard.DEFAULT_PRIOR, hard.MAX_CANDIDATES) == (3.5, 0.4, 3)
        assert sampling.PYTHON_PACE.burn_in_per_event == sampling.COMPILED_PACE.burn_in_per_event == 2
        deals = hard.DEAL_SOURCE(seat_view(match, 0), [], random.Random(1), deadline=None)
        assert isinstance(deals, sampling.DealChains) and deals.chains == 5
        assert deals.likelihood == pytest.approx(0.1)  # 10 ** -1
        assert bench.shipped() == pytest.approx(setting)
    assert bench.shipped() == before
    assert hard.DEAL_SOURCE is sampling.DealChains


def test_draws_stay_in_range_whole_weights_are_whole_and_the_seed_repeats_them(bench: ModuleType) -> None:
    mean = bench.shipped()
    wide = {w.name: (w.high - w.low) * 3 for w in bench.WEIGHTS}  # most draws fall outside: kept in range
    draws = [bench.draw(mean, wide, random.Random(5)) for _ in range(2)]
    assert draws[0] == draws[1]
    many = [bench.draw(mean, wide, random.Random(seed)) for seed in range(50)]
    for weight in bench.WEIGHTS:
        values = [d[weight.name] for d in many]
        assert all(weight.low <= v <= weight.high for v in values)
        assert {weight.low, weight.high} <= set(values)  # the range's ends are reached, so the clip is what held
        if weight.whole:
            assert all(v == int(v) for v in values)


def test_the_next_distribution_is_the_elites_mean_and_spread_never_below_the_floor(bench: ModuleType) -> None:
    names = [w.name for w in bench.WEIGHTS]
    elite = [dict.fromkeys(names, 1.0), dict.fromkeys(names, 3.0)]
    floor = dict.fromkeys(names, 0.5) | {"prior": 2.0}
    mean, spread = bench.refit(elite, floor)
    assert mean == dict.fromkeys(names, 2.0)
    assert spread == dict.fromkeys(names, 1.0) | {"prior": 2.0}


def test_a_one_deal_run_plays_each_setting_the_shipped_one_first(bench: ModuleType) -> None:
    run = bench.tune(generations=1, population=2, elite=1, deals=1, seed=3, processes=1)
    rows = run["generations"][0]["rows"]
    assert len(rows) == 2 and rows[0]["setting"] == bench.shipped()
    assert all(0.0 <= row["first_rate"] <= 1.0 for row in rows)
    best = max(rows, key=lambda r: (r["first_rate"], r["mean_points"]))["setting"]
    assert run["proposal"] == best  # one elite: the next mean is its setting
