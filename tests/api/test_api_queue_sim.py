"""Ratings through the quick-play queue find the players' strengths (``bench/rated_sim.py`` with a fixed seed).

Rule checked: 12 accounts playing as random, easy, medium and hard policies (3 each) queue for rated 4-player
matches, are seated by the queue's pairing and play 200 matches to their end; their ratings then rank them by
strength: Kendall's tau-b between rating and strength is at least 0.8 over the accounts, and the levels' mean
ratings are in the strengths' order. It runs on a database of the tests' Redis that no other test uses.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tienlen.local_redis import LocalRedis

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from rated_sim import kendall_tau_b, service_on, simulate

SIM_DB = 6
MATCHES = 200
SEED = 26


def test_kendall_tau_b_counts_ties_as_tau_b_does() -> None:
    """The measure itself: perfect order 1, reversed -1, ties in one list shrink it as tau-b's formula says."""
    assert kendall_tau_b([0, 1, 2], [10, 20, 30]) == 1.0
    assert kendall_tau_b([0, 1, 2], [30, 20, 10]) == -1.0
    assert kendall_tau_b([0, 0, 1, 1], [1, 2, 3, 4]) == pytest.approx(4 / (4 * 6) ** 0.5)


@pytest.mark.xdist_group("rated_sim")
def test_ratings_through_the_queue_rank_players_by_strength(redis_server: LocalRedis) -> None:
    """Rule: after 200 rated queue matches, tau-b(rating, strength) >= 0.8 and level means in order."""
    url = redis_server.url.rsplit("/", 1)[0] + f"/{SIM_DB}"
    figures = simulate(service_on(url), MATCHES, per_level=3, seed=SEED, hard_iterations=20)
    assert figures["matches"] >= MATCHES
    assert figures["kendall_tau"] >= 0.8, figures
    assert figures["level_tau"] == 1.0, figures
