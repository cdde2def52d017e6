"""The pace of the wall-clock bounds (tests/support/pace.py): scaled by the machine's load, never below the bound
set for a quiet machine, never past the cap below which the fault a test looks for still shows."""

from __future__ import annotations

import os

import pytest

from tests.support import pace


@pytest.mark.parametrize(
    ("load", "cores", "bound", "cap", "expected"),
    [
        (0.5, 2, 1.0, 3.0, 1.0),  # a quiet machine: the bound itself
        (2.0, 2, 1.0, 3.0, 1.0),  # every core busy, none asked twice: the bound itself
        (5.0, 2, 1.0, 3.0, 2.5),  # two and a half times the cores asked for: 2.5 times the bound
        (12.0, 2, 1.0, 3.0, 3.0),  # more than the cap allows: the cap
        (6.0, 2, 0.8, 0.95, 0.95),
    ],
)
def test_a_bound_grows_with_the_load_up_to_its_cap(
    monkeypatch: pytest.MonkeyPatch, load: float, cores: int, bound: float, cap: float, expected: float
) -> None:
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert pace.paced(bound, cap_s=cap) == pytest.approx(expected)


def test_a_system_without_a_load_average_keeps_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> tuple[float, float, float]:
        raise OSError("no load average here")

    monkeypatch.setattr(os, "getloadavg", unavailable)
    assert pace.paced(1.5, cap_s=2.5) == 1.5


def test_a_cap_below_the_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="below the bound"):
        pace.paced(1.0, cap_s=0.5)
