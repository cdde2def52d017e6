"""The suite's xdist groups hold: under ``--dist loadgroup`` a group's tests all run on one worker.

``make test`` relies on them (tests/conftest.py): the browser tests of a group share one Chromium and its servers,
a module's expensive fixture is made once. pytest 9.2 with pytest-xdist 3.8 silently stopped honouring them (each
test went to any worker), so this checks the installed pair does.
"""

from __future__ import annotations

import pytest

GROUPED = """
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("n", range(6))
def test_grouped(n: int) -> None:
    Path(f"grouped-{n}").write_text(os.environ["PYTEST_XDIST_WORKER"])
"""

LOOSE = """
import time

import pytest


@pytest.mark.parametrize("n", range(6))
def test_loose(n: int) -> None:
    time.sleep(0.05)
"""


def test_a_groups_tests_run_on_one_worker(pytester: pytest.Pytester) -> None:
    """Rule: six tests of one xdist_group, among ungrouped ones, run on one worker of two."""
    pytester.makepyfile(test_grouped=GROUPED, test_loose=LOOSE)
    result = pytester.runpytest_subprocess("-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=12)
    workers = {(pytester.path / f"grouped-{n}").read_text() for n in range(6)}
    assert len(workers) == 1, f"the group's tests ran on {sorted(workers)}"
