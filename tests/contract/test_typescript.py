"""TypeScript types from openapi-typescript compile under tsc --strict, and reject what the server refuses.

The types are made with openapi-typescript's default options, as a client would make them: a property with a
``default`` is then required, so request defaults are said in descriptions (tests/contract/test_spec.py), and a
plain client (ts/client.ts) that leaves them out compiles, reading answer fields as always there.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi" / "openapi.json"
TS = Path(__file__).resolve().parent / "ts"
CONTRACT_TS = TS / "contract.ts"
CLIENT_TS = TS / "client.ts"
TSC = ["--strict", "--noEmit", "--target", "ES2022", "--module", "ES2022", "--moduleResolution", "bundler"]


def generate_types(node_tools: Path, where: Path, spec: Path = SPEC) -> None:
    """openapi-typescript's types (default options) of ``spec`` (the committed document), as ``where/openapi.d.ts``."""
    generated = subprocess.run(
        [str(node_tools / "openapi-typescript"), str(spec), "-o", "openapi.d.ts"],
        cwd=where,
        capture_output=True,
        text=True,
    )
    assert generated.returncode == 0, generated.stderr


@pytest.fixture(scope="module")
def committed_types(node_tools: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The types of the committed document, made once for the module: the path of its ``openapi.d.ts``."""
    where = tmp_path_factory.mktemp("types")
    generate_types(node_tools, where)
    return where / "openapi.d.ts"


def compile_strict(node_tools: Path, where: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """``tsc --strict`` over ``files`` and the generated types in ``where``."""
    return subprocess.run(
        [str(node_tools / "tsc"), *TSC, *files, "openapi.d.ts"], cwd=where, capture_output=True, text=True
    )


def test_generated_types_compile_strict_and_reject_a_play_without_cards(
    node_tools: Path, committed_types: Path, tmp_path: Path
) -> None:
    shutil.copy(committed_types, tmp_path)
    shutil.copy(CONTRACT_TS, tmp_path / "contract.ts")
    compiled = compile_strict(node_tools, tmp_path, "contract.ts")
    # An unused @ts-expect-error is an error too: each refused case must really be refused by the types.
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_a_plain_client_that_leaves_out_the_defaults_compiles_strict(
    node_tools: Path, committed_types: Path, tmp_path: Path
) -> None:
    shutil.copy(committed_types, tmp_path)
    shutil.copy(CLIENT_TS, tmp_path / "client.ts")
    compiled = compile_strict(node_tools, tmp_path, "client.ts")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_plain_client_fails_when_a_request_default_is_a_default_keyword(node_tools: Path, tmp_path: Path) -> None:
    """The check above can fail: with ``listed`` documented by a ``default``, leaving it out does not compile."""
    spec = json.loads(SPEC.read_text())
    spec["components"]["schemas"]["CreateMatch"]["properties"]["listed"]["default"] = False
    (tmp_path / "openapi.json").write_text(json.dumps(spec))
    generate_types(node_tools, tmp_path, tmp_path / "openapi.json")
    shutil.copy(CLIENT_TS, tmp_path / "client.ts")
    compiled = compile_strict(node_tools, tmp_path, "client.ts")
    lines = CLIENT_TS.read_text().splitlines()
    line = next(number for number, text in enumerate(lines, 1) if text.startswith("export const create: "))
    assert compiled.returncode != 0 and f"client.ts({line}," in compiled.stdout, compiled.stdout


def test_the_contract_file_fails_when_a_refused_case_is_accepted(
    node_tools: Path, committed_types: Path, tmp_path: Path
) -> None:
    """The check above can fail: with the expectation removed, a play without cards does not compile."""
    shutil.copy(committed_types, tmp_path)
    source = CONTRACT_TS.read_text().replace("// @ts-expect-error a play needs its cards\n", "")
    (tmp_path / "contract.ts").write_text(source)
    compiled = compile_strict(node_tools, tmp_path, "contract.ts")
    line = source.splitlines().index('export const bare: Action = { type: "play" };') + 1
    assert compiled.returncode != 0 and f"contract.ts({line}," in compiled.stdout, compiled.stdout
