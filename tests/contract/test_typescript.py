"""TypeScript types from openapi-typescript compile under tsc --strict, and reject what the server refuses."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "clients" / "web"  # its package.json and lock bring openapi-typescript and typescript
CONTRACT_TS = Path(__file__).resolve().parent / "ts" / "contract.ts"
# A property with a default is optional in a request: openapi-typescript 7 makes it required unless told not to.
GENERATE = ["--default-non-nullable", "false"]


@pytest.fixture(scope="module")
def node_tools() -> Path:
    """clients/web's node_modules/.bin (installed from its lock file when missing)."""
    found = shutil.which("node") is not None and shutil.which("npm") is not None
    require_tool("node", found, "install Node.js 20+ and npm (apt-get install nodejs npm)")
    bin_dir = WEB / "node_modules" / ".bin"
    if not (bin_dir / "tsc").exists() or not (bin_dir / "openapi-typescript").exists():
        installed = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=WEB, capture_output=True, text=True
        )
        assert installed.returncode == 0, installed.stderr
    return bin_dir


def generate_types(node_tools: Path, where: Path) -> None:
    """openapi-typescript's types of the committed document, as ``where/openapi.d.ts``."""
    spec = str(ROOT / "openapi" / "openapi.json")
    generated = subprocess.run(
        [str(node_tools / "openapi-typescript"), spec, *GENERATE, "-o", "openapi.d.ts"],
        cwd=where,
        capture_output=True,
        text=True,
    )
    assert generated.returncode == 0, generated.stderr


def test_generated_types_compile_strict_and_reject_a_play_without_cards(node_tools: Path, tmp_path: Path) -> None:
    generate_types(node_tools, tmp_path)
    shutil.copy(CONTRACT_TS, tmp_path / "contract.ts")
    options = ["--strict", "--noEmit", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "bundler"]
    compiled = subprocess.run(
        [str(node_tools / "tsc"), *options, "contract.ts", "openapi.d.ts"], cwd=tmp_path, capture_output=True, text=True
    )
    # An unused @ts-expect-error is an error too: each refused case must really be refused by the types.
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_contract_file_fails_when_a_refused_case_is_accepted(node_tools: Path, tmp_path: Path) -> None:
    """The check above can fail: with the expectation removed, a play without cards does not compile."""
    generate_types(node_tools, tmp_path)
    source = CONTRACT_TS.read_text().replace("// @ts-expect-error a play needs its cards\n", "")
    (tmp_path / "contract.ts").write_text(source)
    options = ["--strict", "--noEmit", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "bundler"]
    compiled = subprocess.run(
        [str(node_tools / "tsc"), *options, "contract.ts", "openapi.d.ts"], cwd=tmp_path, capture_output=True, text=True
    )
    line = source.splitlines().index('export const bare: Action = { type: "play" };') + 1
    assert compiled.returncode != 0 and f"contract.ts({line}," in compiled.stdout, compiled.stdout
