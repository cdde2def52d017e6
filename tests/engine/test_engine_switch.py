"""The engine switch (docs/engine.md "The compiled core"): ``TIENLEN_ENGINE`` and what each value selects.

These run with or without the compiled core: a missing core is simulated by pointing
``TIENLEN_CORE_LIB`` at a library that is not there (here, or in a fresh interpreter).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tienlen.engine import native
from tienlen.engine.accel import CompiledCoreError, bomb_rows, chosen_engine, select
from tienlen.engine.kinds import Kind
from tienlen.engine.rules import BOMB_TABLE

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("value", "engine"),
    [
        (None, None),
        ("", None),
        ("  ", None),
        ("python", "python"),
        ("compiled", "compiled"),
        (" Compiled ", "compiled"),
    ],
)
def test_the_switch_reads_python_compiled_or_nothing(value: str | None, engine: str | None) -> None:
    """TIENLEN_ENGINE: unset or empty leaves the choice to what is built; otherwise python or compiled."""
    assert chosen_engine(value) == engine


def test_another_value_is_refused_naming_the_choices() -> None:
    """A value that names no engine is an error at import, not a silent fallback."""
    with pytest.raises(CompiledCoreError, match=r"TIENLEN_ENGINE='rust': expected one of python, compiled"):
        chosen_engine("rust")


def test_without_the_core_unset_means_python_and_compiled_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """No compiled core: the pure engine runs, unless the switch demands the core (then a clear error)."""
    monkeypatch.setenv(native.LIBRARY_VARIABLE, "/nonexistent/libtienlen_native.so")
    assert select(None) is None
    assert select("python") is None
    with pytest.raises(CompiledCoreError, match=r"the compiled core is not built: run `make native`"):
        select("compiled")


def test_python_is_chosen_whatever_is_built() -> None:
    """TIENLEN_ENGINE=python: the pure engine even where the core is built."""
    assert select("python") is None


def test_the_bomb_table_goes_to_the_core_row_for_row() -> None:
    """Rules §4: the core receives every row of the one bomb table (rules.BOMB_TABLE), kinds by number."""
    kinds = list(Kind)
    rows = dict(bomb_rows())
    assert set(rows) == {str(b) for b in BOMB_TABLE}
    for bombs, table in BOMB_TABLE.items():
        expected = {(s.kind, s.length, t.kind, t.length, t.twos) for s, targets in table.items() for t in targets}
        assert {(kinds[a], b, kinds[c], d, e) for a, b, c, d, e in rows[str(bombs)]} == expected


def engine_in_fresh_interpreter(value: str, block_core: bool) -> subprocess.CompletedProcess[str]:
    """Import the engine in a new interpreter under ``TIENLEN_ENGINE=value``; print the engine in use."""
    report = "print(accel.ENGINE, legal.legal_masks_of is legal.PYTHON.legal_masks_of)"
    code = f"from tienlen.engine import accel, legal; {report}"
    env = {**os.environ, "TIENLEN_ENGINE": value, "PYTHONPATH": os.pathsep.join([str(ROOT / "server"), *sys.path])}
    if block_core:
        env[native.LIBRARY_VARIABLE] = "/nonexistent/libtienlen_native.so"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


def test_python_forces_the_pure_engine_in_a_fresh_process() -> None:
    """TIENLEN_ENGINE=python: the match and the bots call the Python generator."""
    done = engine_in_fresh_interpreter("python", block_core=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "True"]


def test_compiled_without_the_core_stops_the_import_with_the_way_to_build_it() -> None:
    """TIENLEN_ENGINE=compiled on a machine without the core: the import fails saying how to build it."""
    done = engine_in_fresh_interpreter("compiled", block_core=True)
    assert done.returncode != 0
    message = "CompiledCoreError: TIENLEN_ENGINE=compiled but the compiled core is not built: run `make native`"
    assert message in done.stderr


def test_unset_without_the_core_runs_the_pure_engine() -> None:
    """No switch, no core: the pure engine, without a word (make serve and make test work without cargo)."""
    done = engine_in_fresh_interpreter("", block_core=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["python", "True"]
