"""The arena: duplicate play over seeded deals, JSON summary with CIs and decision times; Easy < Medium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tienlen.bots.arena import ArenaConfig, main, run_arena, run_versus_baseline


def test_arena_main_writes_a_json_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tienlen arena` plays each deal with the tested level in every seat and reports rates with CIs."""
    out = tmp_path / "arena.json"
    code = main(
        [
            "--tested",
            "easy",
            "--opponent",
            "random",
            "--deals",
            "12",
            "--seed",
            "3",
            "--processes",
            "2",
            "--no-progress",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    summary = json.loads(out.read_text())
    assert summary["games"] == 12 * 4
    assert summary["deals"] == 12
    lo, hi = summary["first_rate_ci95"]
    assert 0 <= lo <= summary["first_rate"] <= hi <= 1.0001
    plo, phi = summary["mean_points_ci95"]
    assert plo <= summary["mean_points"] <= phi
    assert set(summary["decision_ms"]) == {"easy", "random"}
    for timing in summary["decision_ms"].values():
        assert timing["decisions"] > 0 and 0 <= timing["median"] <= timing["p99"]
    assert "easy" in capsys.readouterr().out


def test_arena_is_reproducible_for_a_seed() -> None:
    """The same seed deals the same duplicate deals again with the same bots: the same figures."""
    config = ArenaConfig("medium", "easy", deals=4, preset="classic", seed=7, players=3)
    first = run_arena(config, progress=False)
    second = run_arena(config, progress=False)
    for key in ("first_rate", "mean_points", "games"):
        assert first[key] == second[key]


def test_medium_scores_more_than_easy_on_average() -> None:
    """Over 120 duplicate deals Medium out-scores Easy (and each side's share is consistent: Medium
    among Easy seats scores above parity, Easy among Medium seats below it), beyond the 95% CIs.

    Deterministic: the deals come from the fixed seed, Easy and Medium draw only from the seeded
    bot_rng and neither has a wall-clock budget (nor any search), so every run gives the same figures.
    Measured (seed 1): Medium 1.825 points [CI 1.736, 1.914], Easy 1.223 [1.133, 1.313], parity 1.5;
    with seeds 1-8 the difference was 0.49-0.69 and every Medium CI lay above every Easy CI and
    above parity, so the margin is not this seed's luck.
    """
    medium = run_arena(ArenaConfig("medium", "easy", deals=120, preset="standard", seed=1), processes=2, progress=False)
    easy = run_arena(ArenaConfig("easy", "medium", deals=120, preset="standard", seed=1), processes=2, progress=False)
    parity = (medium["players"] - 1) / 2
    assert medium["mean_points"] > easy["mean_points"]
    assert medium["mean_points"] > 1.5
    assert easy["mean_points"] < parity
    assert medium["mean_points_ci95"][0] > easy["mean_points_ci95"][1], (medium, easy)
    assert medium["mean_points_ci95"][0] > parity > easy["mean_points_ci95"][1]


def test_arena_rejects_bad_arguments() -> None:
    """Unknown levels and non-positive counts are refused."""
    with pytest.raises(SystemExit):
        main(["--tested", "grandmaster"])
    assert main(["--deals", "0", "--no-progress"]) == 2


def test_arena_can_time_hints_at_an_opponents_turns() -> None:
    """With hints on, the summary also times the Hard hint (default budget) at the next seat's turns."""
    config = ArenaConfig("easy", "random", deals=1, preset="standard", seed=2, players=2, hints=True)
    summary = run_arena(config, progress=False)
    assert set(summary["decision_ms"]) == {"easy", "random", "hint"}
    assert summary["decision_ms"]["hint"]["decisions"] == summary["decision_ms"]["random"]["decisions"]


def test_versus_a_baseline_the_difference_is_taken_deal_by_deal_on_the_same_deals() -> None:
    """--baseline: the baseline plays the tested seats of the very same deals, so its summary is the plain arena's
    and the edge is the difference of the two rates; the interval is over deals."""
    config = ArenaConfig("medium", "easy", deals=6, preset="standard", seed=4)
    summary = run_versus_baseline(config, "easy", processes=2, progress=False)
    plain = run_arena(config, processes=1, progress=False)
    base = run_arena(ArenaConfig("easy", "easy", deals=6, preset="standard", seed=4), progress=False)
    assert summary["first_rate"] == plain["first_rate"] and summary["baseline"]["first_rate"] == base["first_rate"]
    diff = summary["versus_baseline"]
    assert diff["level"] == "easy"
    assert diff["first_rate"] == pytest.approx(plain["first_rate"] - base["first_rate"], abs=1e-4)
    assert diff["mean_points"] == pytest.approx(plain["mean_points"] - base["mean_points"], abs=1e-4)
    lo, hi = diff["first_rate_ci95"]
    assert lo <= diff["first_rate"] <= hi


def test_a_level_against_itself_as_baseline_has_no_edge_at_all() -> None:
    """The bots draw chance only from the match's seed: the same level in the same seats plays the same games."""
    config = ArenaConfig("easy", "medium", deals=4, preset="standard", seed=2)
    diff = run_versus_baseline(config, "easy", progress=False)["versus_baseline"]
    assert (diff["first_rate"], diff["first_rate_ci95"], diff["mean_points_ci95"]) == (0.0, [0.0, 0.0], [0.0, 0.0])


def test_arena_main_prints_the_baseline_row_and_the_edge(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--tested", "easy", "--opponent", "random", "--baseline", "random", "--deals", "3", "--no-progress"])
    assert code == 0
    out = capsys.readouterr().out
    assert "easy - random, deal by deal over 3 deals: 1st rate +" in out
    assert out.index("random   random") < out.index("easy     random")


def test_baseline_and_ratings_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ratings", "--baseline", "hard", "--deals", "1"]) == 2
    assert "--baseline" in capsys.readouterr().err
