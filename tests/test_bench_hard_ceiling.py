"""``bench/hard_ceiling.py`` keeps working, and each of its modes gives Hard the deals it names.

The benchmark swaps Hard's source of deals (true hands, uniform deals, the
shipped chain, the particles, the card model alone); these tests check the swap reaches the forked arena workers and
that each source deals what it says. Nothing is timed or compared for strength.
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

from tienlen.bots import driver, hard
from tienlen.bots.infer import action_events
from tienlen.bots.medium import choose_medium
from tienlen.bots.sampling import DealChain
from tienlen.engine.match import Match
from tienlen.engine.rules import resolve_rules
from tienlen.engine.views import SeatView, seat_view

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("hard_ceiling", ROOT / "bench" / "hard_ceiling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_one_deal_run_plays_each_chosen_mode_in_forked_workers() -> None:
    command = [sys.executable, str(ROOT / "bench" / "hard_ceiling.py"), "--deals", "2", "--processes", "2"]
    command += ["--mode", "true_hands", "--mode", "uniform"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    rows = json.loads(result.stdout)["results"]
    assert [row["mode"] for row in rows] == ["true_hands", "uniform"]
    for row in rows:
        assert row["games"] == 8 and 0.0 <= row["first_rate"] <= 1.0
        assert row["decision_ms"]["hard"]["decisions"] > 8


def _position(endgame: bool) -> tuple[Match, SeatView]:
    """A hand played on by Medium until the seat on turn has seen others act, in (or before) its endgame."""
    match, _ = Match.new(resolve_rules({"preset": "standard", "hands": 1}, players=4), random.Random(7))
    while match.turn is not None:
        seat = match.turn
        view = seat_view(match, seat)
        if len(view.history) >= 8 and view.table is not None and hard.in_endgame(view) == endgame:
            return match, view
        action = choose_medium(view, match.legal_plays(), random.Random(0))
        match.pass_turn(seat) if action.is_pass else match.play(seat, action.mask)
    raise AssertionError("the hand ended before the position was reached")


@pytest.mark.parametrize("endgame", [False, True], ids=["midgame", "endgame"])
@pytest.mark.parametrize(
    "mode",
    ["true_hands", "uniform", "inferred", "true_in_endgame", "chain", "chains", "posterior", "model", "particles"],
)
def test_each_mode_deals_what_it_names(mode: str, endgame: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "seat_view", seat_view)  # restored after the test, whatever use_mode sets
    monkeypatch.setattr(hard, "DEAL_SOURCE", DealChain)
    bench = _bench()
    bench.use_mode(mode)
    match, view = _position(endgame)
    assert vars(driver)["seat_view"](match, view.seat) == view  # records the match for the true-hands sources
    deals = vars(hard)["DEAL_SOURCE"](view, action_events(view), random.Random(1))
    drawn = [deals.next_deal() for _ in range(4)]
    for hands in drawn:
        assert hands[view.seat] == match.hands[view.seat]
        assert [h.bit_count() for h in hands] == [h.bit_count() for h in match.hands]
    true = mode == "true_hands" or (mode == "true_in_endgame" and endgame)
    if true:
        assert all(hands == match.hands for hands in drawn)
    else:  # the other seats hold many unseen cards: a uniform or inferred deal is almost never the true one
        assert any(hands != match.hands for hands in drawn)
    judged = mode in ("inferred", "chain", "chains", "particles") or (mode == "true_in_endgame" and not endgame)
    # the sources weighed by Medium's choices judge actions (the posterior's work is not charged); the model does not
    assert (deals.work > 0) == judged
