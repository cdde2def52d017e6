"""95% confidence intervals that stay inside what they measure: Wilson for rates, a bootstrap for means.

A normal approximation (mean ± 1.96 standard errors) says ``[0, 0]`` for a
rate of 0 out of 12 and reaches below 0 for points near their floor. Instead:

- :func:`wilson_interval`: the Wilson score interval of ``successes`` out of
  ``trials``; always inside [0, 1], and wider than nothing at 0 % and 100 %;
- :func:`bootstrap_mean_interval`: the percentile bootstrap of a mean (the
  values resampled with replacement, seeded so a report is reproducible);
  always inside the values' range, hence inside any range they lie in.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

__all__ = ["BOOTSTRAP_RESAMPLES", "Z_95", "bootstrap_mean_interval", "wilson_interval"]

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""

BOOTSTRAP_RESAMPLES = 2000
"""Resamples of a bootstrap interval: enough that its 2.5 and 97.5 percentiles are stable to about 1%."""


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate: ``successes`` of ``trials``, at ``z`` (95% by default).

    Inside [0, 1] always; at 0 and ``trials`` successes it still has width
    (``[0, z²/(n+z²)]`` at 0). With no trials nothing is known: ``(0.0, 1.0)``.

    Raises:
        ValueError: when ``successes`` is not between 0 and ``trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be between 0 and trials: {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    n = trials
    rate = successes / n
    z2 = z * z
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    # At 0 (or n) successes the bound is exactly 0 (or 1); rounding would leave it a hair off.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def bootstrap_mean_interval(
    values: Sequence[float],
    *,
    seed: int | str,
    resamples: int = BOOTSTRAP_RESAMPLES,
    level: float = 0.95,
) -> tuple[float, float]:
    """The percentile bootstrap interval of the mean of ``values``: reproducible for the same ``seed``.

    Each resample draws ``len(values)`` values with replacement; the interval is
    the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles of the resampled
    means, so it lies within ``[min(values), max(values)]``. Fewer than two
    values say nothing about their spread: callers give the whole range then.

    Raises:
        ValueError: when ``values`` is empty or ``resamples`` is below 1.
    """
    if not values:
        raise ValueError("a bootstrap needs at least one value")
    if resamples < 1:
        raise ValueError(f"resamples must be >= 1, got {resamples}")
    rng = random.Random(seed)
    count = len(values)
    means = sorted(math.fsum(rng.choices(values, k=count)) / count for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[min(resamples - 1, int(tail * resamples))]
    high = means[max(0, math.ceil((1 - tail) * resamples) - 1)]
    return max(low, min(values)), min(high, max(values))
