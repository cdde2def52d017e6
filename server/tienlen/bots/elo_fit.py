"""Ratings from finishing orders: a Bradley–Terry fit on the Elo scale, with bootstrap intervals.

Pure: no engine, no I/O, randomness only from the seed given. A game is a
finishing order (the players' names, first to last). Each game is broken into
its pairwise comparisons (in a four-player game, six: who finished ahead of
whom), and the ratings are the maximum-likelihood Bradley–Terry strengths on
the Elo scale::

    P(i finishes ahead of j) = 1 / (1 + 10 ** ((R_j - R_i) / 400))

so 400 points more means ten to one odds of finishing ahead. (When games are
Plackett–Luce rankings, which is how the tests simulate them, every pair's
marginal is exactly this, so the pairwise fit is consistent.) Each ordered
pair of players also gets ``prior`` virtual wins, half a game by default,
which keeps the fit finite when one player always beat another and pulls
little once there are many games.

Games come grouped by deal (every seat permutation of one deal); the
confidence intervals are bootstrap percentiles over deals, resampled with a
seeded generator, so the luck of a deal is counted once and the figures are
the same for the same results and seed. One player is the anchor: its rating
is fixed (e.g. ``random`` = 0) and the others are measured from it, so the
anchor's interval is its rating alone.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "ELO_SCALE",
    "Rating",
    "fit_elo",
    "mean_ci95",
    "pairwise_wins",
    "rate",
]

ELO_SCALE = 400.0 / math.log(10.0)
"""Elo points per unit of natural-log strength (400 points = odds of 10)."""

DEFAULT_PRIOR = 0.5
_TOLERANCE = 1e-10
_MAX_STEPS = 100_000

Game = Sequence[str]
"""One game: the players' names in finishing order, first to last."""

Deal = Sequence[Game]
"""The games of one deal (e.g. every seat permutation); the unit of resampling."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's rating, its confidence interval and the games it comes from."""

    name: str
    elo: float
    low: float
    high: float
    games: int
    first_rate: float
    mean_points: float


def mean_ci95(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal 95% confidence interval (mean, low, high)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def pairwise_wins(games: Sequence[Game], players: Sequence[str]) -> list[list[float]]:
    """``wins[i][j]``: how many times ``players[i]`` finished ahead of ``players[j]`` in ``games``.

    A name in a game that is not among ``players`` raises ``ValueError``.
    """
    index = {name: i for i, name in enumerate(players)}
    wins = [[0.0] * len(players) for _ in players]
    for game in games:
        try:
            order = [index[name] for name in game]
        except KeyError as error:
            raise ValueError(f"unknown player {error.args[0]!r} in a game") from None
        for ahead, i in enumerate(order):
            for j in order[ahead + 1 :]:
                wins[i][j] += 1.0
    return wins


def fit_elo(
    wins: Sequence[Sequence[float]],
    *,
    anchor: int = 0,
    anchor_rating: float = 0.0,
    prior: float = DEFAULT_PRIOR,
) -> list[float]:
    """The maximum-likelihood Bradley–Terry ratings (Elo scale) of a win matrix.

    ``wins[i][j]`` counts i finishing ahead of j; each ordered pair gets
    ``prior`` extra wins (must be > 0 unless every player is connected both
    ways). Solved with Hunter's MM iteration; the ratings are shifted so that
    player ``anchor`` has ``anchor_rating``.
    """
    n = len(wins)
    if n == 0:
        return []
    if not 0 <= anchor < n:
        raise ValueError(f"anchor {anchor} is not a player index")
    if prior < 0:
        raise ValueError("prior must be >= 0")
    w = [[(wins[i][j] + prior) if i != j else 0.0 for j in range(n)] for i in range(n)]
    total_wins = [sum(row) for row in w]
    meetings = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(_MAX_STEPS):
        updated = []
        for i in range(n):
            denominator = sum(meetings[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            updated.append(total_wins[i] / denominator if denominator > 0 else strength[i])
        # Normalised by the geometric mean (the scale is free), so values stay near 1.
        centre = math.exp(statistics.fmean(math.log(max(s, 1e-300)) for s in updated))
        updated = [max(s / centre, 1e-300) for s in updated]
        change = max(abs(math.log(a / b)) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < _TOLERANCE:
            break
    logs = [math.log(s) for s in strength]
    return [anchor_rating + ELO_SCALE * (x - logs[anchor]) for x in logs]


def _percentile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated between neighbours."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def rate(
    deals: Sequence[Deal],
    players: Sequence[str],
    *,
    anchor: str,
    anchor_rating: float = 0.0,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    prior: float = DEFAULT_PRIOR,
) -> list[Rating]:
    """Each player's rating with a bootstrap ``level`` interval over deals, in the order of ``players``.

    ``first_rate`` and ``mean_points`` (``players - 1 - place`` a game, as the
    arena scores) are plain averages over the player's games. With
    ``resamples`` 0 the interval is the rating itself.
    """
    if anchor not in players:
        raise ValueError(f"the anchor {anchor!r} is not among the players")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1")
    anchor_index = list(players).index(anchor)

    def fit(sample: Sequence[Deal]) -> list[float]:
        games = [game for deal in sample for game in deal]
        return fit_elo(pairwise_wins(games, players), anchor=anchor_index, anchor_rating=anchor_rating, prior=prior)

    point = fit(deals)
    rng = random.Random(seed)
    draws: list[list[float]] = [[] for _ in players]
    if deals:
        for _ in range(resamples):
            sample = [deals[rng.randrange(len(deals))] for _ in deals]
            for i, value in enumerate(fit(sample)):
                draws[i].append(value)
    tail = (1 - level) / 2
    ratings = []
    for i, name in enumerate(players):
        places = [game.index(name) for deal in deals for game in deal if name in game]
        seats = [len(game) for deal in deals for game in deal if name in game]
        ordered = sorted(draws[i])
        low, high = (_percentile(ordered, tail), _percentile(ordered, 1 - tail)) if ordered else (point[i], point[i])
        ratings.append(
            Rating(
                name=name,
                elo=point[i],
                low=min(low, point[i]),
                high=max(high, point[i]),
                games=len(places),
                first_rate=statistics.fmean(p == 0 for p in places) if places else 0.0,
                mean_points=statistics.fmean(s - 1 - p for s, p in zip(seats, places, strict=True)) if places else 0.0,
            )
        )
    return ratings
