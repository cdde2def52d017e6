"""The tournament's 95% intervals stay inside what they measure: Wilson for rates, a seeded bootstrap for points.

No server here: the interval functions on numbers, and the report on made-up outcomes.
"""

from __future__ import annotations

import pytest
from tienlen_tournament.intervals import BOOTSTRAP_RESAMPLES, bootstrap_mean_interval, wilson_interval
from tienlen_tournament.report import summarize
from tienlen_tournament.seating import MatchPlan, SeatOutcome

# Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, the score method.
PUBLISHED_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize(("successes", "trials", "low", "high"), PUBLISHED_WILSON)
def test_wilson_interval_gives_the_published_values(successes: int, trials: int, low: float, high: float) -> None:
    """Rule: the first-place interval is the Wilson score interval (95%), to 4 decimals as published."""
    found = wilson_interval(successes, trials)
    assert (round(found[0], 4), round(found[1], 4)) == (low, high)


@pytest.mark.parametrize(
    ("successes", "trials"), [(0, 1), (1, 1), (0, 3), (3, 3), (0, 12), (12, 12), (0, 1000), (1000, 1000)]
)
def test_a_rate_of_0_or_100_percent_gets_an_interval_inside_0_1_with_width(successes: int, trials: int) -> None:
    """Rule: never [0, 0] or [1, 1]: a bot that never (or always) won so far may still win (lose) sometimes."""
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low < high <= 1.0
    assert low <= successes / trials <= high
    assert (low == 0.0) == (successes == 0) and (high == 1.0) == (successes == trials)


def test_wilson_interval_holds_its_rate_inside_0_1_for_every_count() -> None:
    """Rule: for every k of n (n up to 40) the interval contains k/n, has width, and lies in [0, 1]."""
    for trials in range(1, 41):
        for successes in range(trials + 1):
            low, high = wilson_interval(successes, trials)
            assert 0.0 <= low <= successes / trials <= high <= 1.0, (successes, trials)
            assert high - low > 0.0, (successes, trials)


def test_wilson_interval_without_games_is_the_whole_range_and_refuses_impossible_counts() -> None:
    """Rule: no games say nothing ([0, 1]); more wins than games, or fewer than none, are an error."""
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for successes, trials in ((-1, 5), (6, 5), (1, 0)):
        with pytest.raises(ValueError, match="between 0 and trials"):
            wilson_interval(successes, trials)


BOOTSTRAP_CASES = [
    ("spread", [0.0, 3.0, 1.5, 2.25, 0.75, 3.0, 0.0, 1.0]),
    ("near the floor", [0.0, 0.0, 0.0, 0.25, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0]),
    ("near the top", [3.0, 3.0, 2.75, 3.0, 3.0, 3.0]),
    ("two deals", [0.0, 3.0]),
]


@pytest.mark.parametrize(("name", "points"), BOOTSTRAP_CASES, ids=[case[0] for case in BOOTSTRAP_CASES])
def test_bootstrap_interval_of_mean_points_stays_in_range_and_is_reproducible(name: str, points: list[float]) -> None:
    """Rule: the mean points' interval lies within the deals' values (so within [0, players - 1]), holds the
    mean, and the same seed gives the same interval."""
    low, high = bootstrap_mean_interval(points, seed=7)
    assert min(points) <= low <= sum(points) / len(points) <= high <= max(points)
    assert low >= 0.0 and high <= 3.0
    assert bootstrap_mean_interval(points, seed=7) == (low, high)


def test_bootstrap_interval_depends_on_its_seed_and_refuses_nothing_to_resample() -> None:
    """Rule: the resamples come from the seed alone (another seed, other resamples); no value, no interval."""
    points = [float(i % 4) for i in range(40)]
    assert len({bootstrap_mean_interval(points, seed=seed) for seed in range(5)}) > 1
    assert bootstrap_mean_interval(points, seed="1:0:easy") == bootstrap_mean_interval(points, seed="1:0:easy")
    assert BOOTSTRAP_RESAMPLES == 2000
    with pytest.raises(ValueError, match="at least one value"):
        bootstrap_mean_interval([], seed=1)


def _outcomes(places_by_deal: list[list[int | None]], players: int = 4) -> list[SeatOutcome]:
    """The bot's outcomes against Easy: one list of places (by seat) a deal; None is a stalled match."""
    found = []
    for deal, places in enumerate(places_by_deal):
        for seat, place in enumerate(places):
            plan = MatchPlan(0, "bot", "easy", deal, seed=deal, seat=seat, players=players, preset="standard")
            found.append(SeatOutcome(plan, match_id=f"m{deal}-{seat}", place=place, stalled=place is None))
    return found


REPORT_CASES = [
    ("never first", [[3, 2, 1, 3], [1, 3, 2, 2], [2, 1, 3, 3]], 0, 12),
    ("always first", [[0, 0, 0, 0], [0, 0, 0, 0]], 8, 8),
    ("one deal", [[0, 3, 1, 2]], 1, 4),
    ("a stalled match left out", [[0, None, 1, 2], [3, 0, 2, 1]], 2, 7),
]


@pytest.mark.parametrize(("name", "places", "firsts", "games"), REPORT_CASES, ids=[case[0] for case in REPORT_CASES])
def test_report_intervals_stay_inside_rate_and_points_ranges(
    name: str, places: list[list[int | None]], firsts: int, games: int
) -> None:
    """Rule: the report's first-place interval is Wilson's over games (n = finished matches) inside [0, 1]
    with width; its points interval lies in [0, players - 1] (all of it with one deal); the same outcomes and
    seed give the same report."""
    outcomes = _outcomes(places)
    (row,) = summarize(["bot"], ["easy"], outcomes, seed=3)["bots"][0]["results"]
    assert (row["first_places"], row["games"], row["deals"]) == (firsts, games, len(places))
    assert row["first_rate"] == round(firsts / games, 4)
    assert row["first_rate_ci95"] == [round(x, 4) for x in wilson_interval(firsts, games)]
    low, high = row["first_rate_ci95"]
    assert 0.0 <= low <= row["first_rate"] <= high <= 1.0 and low < high
    points_low, points_high = row["mean_points_ci95"]
    assert 0.0 <= points_low <= row["mean_points"] <= points_high <= 3.0
    if len(places) == 1:
        assert row["mean_points_ci95"] == [0.0, 3.0]
    assert summarize(["bot"], ["easy"], outcomes, seed=3) == summarize(["bot"], ["easy"], outcomes, seed=3)
