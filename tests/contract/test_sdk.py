"""An SDK generated from the committed OpenAPI document type-checks under mypy --strict and plays a match."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "sdk_scripts" / "play_with_sdk.py"
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def sdk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generate the Python SDK with openapi-python-client into a temp dir; answer that dir."""
    generator = shutil.which("openapi-python-client", path=str(BIN))
    assert generator is not None, "openapi-python-client is missing: it is in the dev extra (make install)"
    where = tmp_path_factory.mktemp("sdk")
    generated = subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(ROOT / "openapi" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(where / "tienlen_sdk"),
        ],
        capture_output=True,
        text=True,
        cwd=where,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return where


def test_the_generated_sdk_and_a_script_on_it_pass_mypy_strict(sdk: Path) -> None:
    shutil.copy(SCRIPT, sdk / SCRIPT.name)
    checked = subprocess.run(
        [str(BIN / "mypy"), "--strict", "--no-incremental", "tienlen_sdk", SCRIPT.name],
        capture_output=True,
        text=True,
        cwd=sdk,
        env=os.environ | {"MYPYPATH": str(sdk)},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_generated_sdk_plays_a_match_against_a_real_server(sdk: Path, live_server: str) -> None:
    played = subprocess.run(
        [sys.executable, str(SCRIPT), live_server],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(sdk)},
        timeout=120,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    assert played.stdout.startswith("finished after"), played.stdout
