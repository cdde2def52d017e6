"""openapi-generator's Python client (its ``python`` generator) parses every kind of seat, request and answer.

The generator tries each case of a ``oneOf`` and wants exactly one to fit; it keeps no ``additionalProperties:
false`` and reads a boolean ``enum`` as strings. So before seats said their ``type``, a bot seat fitted the remote
case too, and an open seat fitted none. The check generates the client from the committed document once per
session and plays a match's seats through it against a real server (tests/contract/sdk_scripts).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "sdk_scripts" / "play_with_openapi_generator.py"
BIN = Path(sys.executable).parent
# Only the package: no docs, no test stubs, no setup files (a third of the time).
ONLY_THE_PACKAGE = "apiTests=false,modelTests=false,apiDocs=false,modelDocs=false"


@pytest.fixture(scope="session")  # before the session's server: a missing tool skips before anything starts
def client_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generate the client (package ``tienlen_gen``) into a temp dir; answer the dir that holds the package."""
    java = shutil.which("java") is not None
    require_tool("java", java, "install a Java 11+ runtime (apt-get install default-jre-headless)")
    generator = shutil.which("openapi-generator-cli", path=str(BIN))
    how = "pip install openapi-generator-cli (in the dev extra: make install)"
    require_tool("openapi-generator-cli", generator is not None, how)
    assert generator is not None
    where = tmp_path_factory.mktemp("openapi-generator")
    command = [generator, "generate", "-g", "python", "-i", str(ROOT / "openapi" / "openapi.json"), "-o", str(where)]
    options = ["--additional-properties", "packageName=tienlen_gen", "--global-property", ONLY_THE_PACKAGE]
    generated = subprocess.run([*command, *options], capture_output=True, text=True, timeout=300)
    assert generated.returncode == 0, generated.stdout[-3000:] + generated.stderr[-3000:]
    return where


def test_the_generated_python_client_parses_each_kind_of_seat_and_every_answer(
    client_dir: Path, live_server: str
) -> None:
    played = subprocess.run(
        [sys.executable, str(SCRIPT), live_server],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(client_dir)},
        timeout=120,
    )
    assert played.returncode == 0, played.stdout + played.stderr[-4000:]
    assert played.stdout.startswith("parsed "), played.stdout
