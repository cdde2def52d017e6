"""``bench/hard_decisions.py`` judges each decision exactly and counts gains and losses as it says.

Nothing here is timed or compared for strength: the tests check that a judged
place is the place the bot loop really reaches after that move, that Medium
judged against itself neither gains nor loses, and the summary's arithmetic.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tienlen.bots import deal_seed, driver, hard
from tienlen.bots.base import Action
from tienlen.bots.medium import choose_medium
from tienlen.bots.sampling import DealChain
from tienlen.engine.match import LegalPlays, Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView, seat_view

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The benchmark module, loaded as its script runs (its folder first on the path)."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    monkeypatch.setattr(driver, "seat_view", seat_view)  # restored after the test, whatever use_mode sets
    monkeypatch.setattr(hard, "DEAL_SOURCE", DealChain)
    spec = importlib.util.spec_from_file_location("hard_decisions", ROOT / "bench" / "hard_decisions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "hard_decisions", module)  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def _quick_hard(view: SeatView, legal: LegalPlays, rng: random.Random) -> Action:
    return hard.choose_hard(view, legal, rng, iterations=40)


def _place_from_the_start(deal: int, turns: int, move: int) -> int:
    """Deal the deal again, let Medium play ``turns`` actions, make ``move``, let Medium finish: the mover's place."""
    match, _ = Match.new(
        resolve_rules({"preset": "standard", "hands": 1}, players=4), random.Random(deal_seed(1, deal))
    )
    for _ in range(turns):
        seat = match.turn
        assert seat is not None
        action = choose_medium(seat_view(match, seat), match.legal_plays(), driver.bot_rng(match, seat))
        match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)
    seat = match.turn
    assert seat is not None
    match.pass_turn(seat) if move == 0 else match.play(seat, move)
    driver.play_bot_turns(match, dict.fromkeys(range(4), "medium"))
    return match.completed[0].places.index(seat)


def test_each_judged_place_is_the_place_reached_by_making_that_move_then_playing_medium(bench: ModuleType) -> None:
    judged = bench.judge_deal(3, choose=_quick_hard)
    deviations = [j for j in judged if j.deviates]
    assert judged and deviations, "the deal should have decisions where the quick Hard departs from Medium"
    for j in deviations[:6]:
        assert _place_from_the_start(3, j.turn, j.chosen) == j.chosen_place
    for j in judged:
        assert j.best_place <= min(j.medium_place, j.chosen_place)
        assert j.phase in bench.PHASES


def test_medium_judged_against_itself_neither_gains_nor_loses(bench: ModuleType) -> None:
    judged = bench.judge_deal(5, choose=choose_medium)
    assert judged
    assert not any(j.deviates for j in judged)
    assert all(j.chosen_place == j.medium_place for j in judged)
    row = bench.summarize(judged, deals=[5])
    assert (row["gains"], row["losses"], row["net_per_seat"]) == (0, 0, 0.0)


def _judged(bench: ModuleType, deal: int, medium: int, chosen: int, best: int) -> object:
    return bench.Judged(deal, 0, 0, "early", 1, medium, chosen, best, chosen != medium)


def test_summary_counts_first_places_gained_lost_and_missed(bench: ModuleType) -> None:
    rows = [
        _judged(bench, 0, medium=2, chosen=0, best=0),  # a gain, and an opportunity taken
        _judged(bench, 0, medium=1, chosen=1, best=0),  # an opportunity missed
        _judged(bench, 1, medium=0, chosen=3, best=0),  # a loss
        _judged(bench, 1, medium=3, chosen=1, best=1),  # a better place, but no first place: not counted
    ]
    row = bench.summarize(rows, deals=[0, 1])
    assert (row["gains"], row["losses"], row["opportunities"], row["captured"]) == (1, 1, 2, 0.5)
    assert row["net_per_seat"] == 0.0  # deal 0: +1/4, deal 1: -1/4
    lo, hi = row["net_per_seat_ci95"]
    assert lo < 0 < hi


@pytest.mark.parametrize(
    ("gains", "chances", "expected"),
    [
        ([1, 1, 1, 1], [2, 2, 2, 2], [0.5, 0.5]),  # every deal takes half its chances: no spread
        # deals alternate 2 and 1 of 2: 0.75 +- 1.96 * sqrt(var(+-0.5) = 2/7, over 8 deals) / 2 chances = 0.185
        ([2, 1] * 4, [2] * 8, [0.565, 0.935]),
        ([2, 0, 2, 0], [2, 2, 2, 2], [0.0, 1.0]),  # all or nothing by deal: 0.5 +- 0.566, clipped to a share
        ([0, 0], [0, 0], None),  # no chances, no share
        ([3], [4], None),  # one deal says nothing of the spread
    ],
)
def test_captured_share_interval_is_a_ratio_over_deals(
    bench: ModuleType, gains: list[int], chances: list[int], expected: list[float] | None
) -> None:
    """Rule of the benchmark: a deal's decisions share its cards, so the captured share's interval is taken over
    deals (gains / chances as a ratio estimator), not over decisions as if each were a coin of its own."""
    assert bench.captured_interval(gains, chances) == expected


def test_summary_gives_the_captured_share_an_interval_over_deals(bench: ModuleType) -> None:
    rows = [_judged(bench, d, medium=2, chosen=0 if d % 2 else 3, best=0) for d in range(6)]
    row = bench.summarize(rows, deals=range(6))
    assert row["captured"] == 0.5
    lo, hi = row["captured_ci95"]
    assert lo < 0.5 < hi and row["captured_ci95"] == bench.captured_interval([0, 1] * 3, [1] * 6)


def test_a_short_run_prints_rows_whose_phases_add_up(bench: ModuleType) -> None:
    command = [sys.executable, str(ROOT / "bench" / "hard_decisions.py"), "--deals", "2", "--processes", "2"]
    result = subprocess.run([*command, "--mode", "uniform"], capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    (mode,) = json.loads(result.stdout)["results"]
    assert mode["mode"] == "uniform" and mode["deals"] == 2
    rows = mode["rows"]
    assert rows["all"]["decisions"] > 10
    for key in ("decisions", "deviations", "opportunities", "gains", "losses"):
        assert rows["all"][key] == sum(rows[phase][key] for phase in bench.PHASES)
