"""Ratings: the Bradley–Terry fit recovers known strengths; `tienlen arena --ratings` orders random below easy."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tienlen.bots import LEVELS
from tienlen.bots.arena import main
from tienlen.bots.elo_fit import fit_elo, pairwise_wins, rate
from tienlen.bots.roundrobin import RatingsConfig, run_ratings

TRUE_ELO = {"weak": 0.0, "fair": 150.0, "good": 350.0, "best": 600.0}


def _plackett_luce(rng: random.Random, strengths: dict[str, float]) -> list[str]:
    """One finishing order drawn with P(next = i) proportional to 10 ** (elo_i / 400) among those left."""
    left, order = list(strengths), []
    while left:
        pick = rng.choices(left, weights=[10 ** (strengths[n] / 400) for n in left])[0]
        order.append(pick)
        left.remove(pick)
    return order


def _synthetic_deals(deals: int, seed: int) -> list[list[list[str]]]:
    rng = random.Random(seed)
    return [[_plackett_luce(rng, TRUE_ELO) for _ in range(4)] for _ in range(deals)]


def test_fit_recovers_known_strengths_within_their_intervals() -> None:
    """Rule: the ratings are the maximum-likelihood strengths on the Elo scale, so games drawn from known
    Elo strengths give them back (within 40 points over 600 deals), each inside its 95% bootstrap interval,
    and the anchor keeps its fixed rating."""
    players = list(TRUE_ELO)
    ratings = rate(_synthetic_deals(600, seed=5), players, anchor="weak", resamples=200, seed=1)
    assert [r.name for r in ratings] == players
    for rating in ratings:
        truth = TRUE_ELO[rating.name]
        assert abs(rating.elo - truth) < 40, (rating, truth)
        assert rating.low <= truth <= rating.high, (rating, truth)
        assert rating.games == 2400
    assert ratings[0].elo == ratings[0].low == ratings[0].high == 0.0
    ordered = sorted(ratings, key=lambda r: r.elo)
    assert [r.name for r in ordered] == ["weak", "fair", "good", "best"]


def test_fit_of_an_even_two_player_record_is_zero_and_a_ten_to_one_record_is_400() -> None:
    """Rule: 400 Elo points are ten to one odds: 10 wins to 1 (no prior) is exactly +400; an even record is 0."""
    assert fit_elo([[0, 5], [5, 0]], prior=0) == pytest.approx([0.0, 0.0], abs=1e-6)
    assert fit_elo([[10, 10], [1, 0]], prior=0) == pytest.approx([0.0, -400.0], abs=1e-6)
    assert fit_elo([[0, 1], [10, 0]], anchor=0, prior=0) == pytest.approx([0.0, 400.0], abs=1e-6)


def test_prior_keeps_a_clean_sweep_finite() -> None:
    """Rule: each ordered pair gets `prior` virtual wins, so a player who always won gets a finite rating."""
    elo = fit_elo(pairwise_wins([["a", "b"]] * 20, ["a", "b"]), anchor=1)
    assert 400 < elo[0] < 1000


def test_pairwise_wins_counts_every_pair_of_a_finishing_order() -> None:
    """Rule: a four-player finishing order is six comparisons, each ahead-of-behind once."""
    wins = pairwise_wins([["c", "a", "d", "b"]], ["a", "b", "c", "d"])
    assert wins == [[0, 1, 0, 1], [0, 0, 0, 0], [1, 1, 0, 1], [0, 1, 0, 0]]
    with pytest.raises(ValueError, match="unknown player"):
        pairwise_wins([["a", "z"]], ["a", "b"])


def test_bootstrap_is_reproducible_for_a_seed() -> None:
    """Rule: the intervals come from a seeded resampling of deals: the same results and seed, the same figures."""
    deals = _synthetic_deals(40, seed=2)
    first = rate(deals, list(TRUE_ELO), anchor="weak", resamples=50, seed=9)
    assert first == rate(deals, list(TRUE_ELO), anchor="weak", resamples=50, seed=9)


def test_round_robin_rates_random_below_easy_and_prints_a_rating_per_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule: `tienlen arena --ratings` seats four levels at one table once per seat rotation of each deal and
    prints one Elo rating a level with its interval; random (the anchor, 0) rates below easy.

    Deterministic: fixed deals, bots seeded from them, Hard on a fixed (small) search count.
    Measured (16 deals, seed 1): easy 380 [315, 469], random 0 with no first place in 64 games."""
    out = tmp_path / "ratings.json"
    fast = ["--deals", "16", "--iterations", "5", "--processes", "2", "--resamples", "100", "--no-progress"]
    code = main(["--ratings", "--levels", "random,easy,medium,hard", *fast, "--json", str(out)])
    assert code == 0
    printed = capsys.readouterr().out
    summary = json.loads(out.read_text())
    rows = {row["level"]: row for row in summary["ratings"]}
    assert set(rows) == {"random", "easy", "medium", "hard"}
    assert summary["games"] == 16 * 4 and summary["anchor"] == "random" and summary["tables"] == 1
    for level, row in rows.items():
        assert row["games"] == 64
        low, high = row["elo_ci95"]
        assert low <= row["elo"] <= high
        assert level in printed
    assert rows["random"]["elo"] == 0.0
    assert rows["easy"]["elo"] > rows["random"]["elo"]
    assert rows["easy"]["elo_ci95"][0] > 0, rows["easy"]
    assert sum(row["first_rate"] for row in rows.values()) == pytest.approx(1.0, abs=1e-3)  # each rounded to 4 places
    assert sum(row["mean_points"] for row in rows.values()) == pytest.approx(0 + 1 + 2 + 3, abs=1e-3)
    assert "Elo: random = 0" in printed


def test_round_robin_of_every_level_plays_every_table_of_four(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule: by default the round robin rates random and every level of the server's bots (six); more than four
    levels play each deal at every table of four of them, once per seat rotation, so each level plays 10 of the 15
    tables and every game still has one first place and the places 0 to 3."""
    out = tmp_path / "ratings.json"
    fast = ["--deals", "1", "--budget", "0.002", "--resamples", "20", "--no-progress"]
    assert main(["--ratings", *fast, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    summary = json.loads(out.read_text())
    rows = {row["level"]: row for row in summary["ratings"]}
    assert set(rows) == {"random", *LEVELS} and len(rows) == 6
    assert summary["tables"] == 15 and summary["players"] == 4 and summary["games"] == 15 * 4
    assert all(row["games"] == 10 * 4 for row in rows.values())
    firsts = sum(row["first_rate"] * row["games"] for row in rows.values())
    points = sum(row["mean_points"] * row["games"] for row in rows.values())
    assert firsts == pytest.approx(summary["games"], abs=0.1)
    assert points == pytest.approx(summary["games"] * (0 + 1 + 2 + 3), abs=0.5)
    assert "1 deals x 15 table(s) x 4 seat rotations" in printed


def test_round_robin_of_four_levels_is_one_table() -> None:
    """Rule: up to four levels sit at one table: each level plays each seat of each deal once."""
    config = RatingsConfig(deals=2, preset="classic", seed=4, levels=("random", "easy", "medium"), resamples=10)
    assert config.tables == [("random", "easy", "medium")]
    summary = run_ratings(config, progress=False)
    assert summary["tables"] == 1 and summary["games"] == 2 * 3
    assert all(row["games"] == 6 for row in summary["ratings"])


def test_round_robin_is_reproducible_and_takes_fewer_levels() -> None:
    """Rule: the same seed deals the same deals again; two levels make two-player tables, the first one anchoring
    when random does not play."""
    config = RatingsConfig(deals=3, preset="classic", seed=4, levels=("easy", "medium"), resamples=20)
    first = run_ratings(config, progress=False)
    assert first == run_ratings(config, progress=False)
    assert first["players"] == 2 and first["anchor"] == "easy" and first["games"] == 6


def test_round_robin_refuses_bad_levels() -> None:
    """Rule: a round robin needs at least 2 different known levels."""
    with pytest.raises(SystemExit):
        main(["--ratings", "--levels", "easy,grandmaster"])
    with pytest.raises(SystemExit):
        main(["--ratings", "--levels", "easy,easy"])
    with pytest.raises(SystemExit):
        main(["--ratings", "--levels", "easy"])
