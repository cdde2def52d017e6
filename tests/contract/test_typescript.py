"""TypeScript types of the OpenAPI document compile under tsc --strict, and reject what the server refuses.

The types are the web table's (clients/web/scripts/types.mjs, ``npm run types``): openapi-typescript's default
options, as a client would make them, and an array with ``minItems: 1`` written non-empty (``[T, ...T[]]``). With
the defaults a property with a ``default`` is required, so request defaults are said in descriptions
(tests/contract/test_spec.py), and a plain client (ts/client.ts) that leaves them out compiles, reading answer
fields as always there.

The files that compile against the committed document's types share one ``tsc`` run (``compiled_together``): the
contract, the plain client, and the contract with each refused case's expectation removed, each file a module of
its own. Every error tsc reports names its file, so each test reads its own file's verdict from that one run.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi" / "openapi.json"
TYPES_SCRIPT = ROOT / "clients" / "web" / "scripts" / "types.mjs"
TS = Path(__file__).resolve().parent / "ts"
CONTRACT_TS = TS / "contract.ts"
CLIENT_TS = TS / "client.ts"
TSC = ["--strict", "--noEmit", "--pretty", "false", "--target", "ES2022", "--module", "ES2022"]
TSC += ["--moduleResolution", "bundler"]
ERROR_LINE = re.compile(r"^(?P<file>[^(\s]+)\((?P<line>\d+),\d+\): error ")

# Each refused case of ts/contract.ts: its @ts-expect-error line, and the declaration under it that must not compile
# once the expectation is removed.
REFUSED = {
    "no_cards": ("// @ts-expect-error a play needs its cards\n", 'export const bare: Action = { type: "play" };'),
    "empty_cards": (
        "// @ts-expect-error a play needs at least one card (minItems 1)\n",
        'export const empty: Action = { type: "play", cards: [] };',
    ),
}


def generate_types(node_tools: Path, where: Path, spec: Path = SPEC) -> None:
    """The web table's types of ``spec`` (the committed document unless told), as ``where/openapi.d.ts``."""
    node = shutil.which("node")  # node_tools has required it
    assert node is not None and (node_tools / "openapi-typescript").exists()
    generated = subprocess.run(
        [node, str(TYPES_SCRIPT), str(spec), str(where / "openapi.d.ts")], capture_output=True, text=True
    )
    assert generated.returncode == 0, generated.stderr


def compile_strict(node_tools: Path, where: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """``tsc --strict`` over ``files`` and the generated types in ``where``."""
    return subprocess.run(
        [str(node_tools / "tsc"), *TSC, *files, "openapi.d.ts"], cwd=where, capture_output=True, text=True
    )


@dataclass(frozen=True, slots=True)
class Compiled:
    """One tsc run over several files: its output, and the error lines by the file they name."""

    output: str
    errors: dict[str, list[int]]
    unattributed: list[str]

    def verdict(self, file: str) -> list[str]:
        """The run's error lines about ``file`` and those naming no file (which concern every file)."""
        about = [line for line in self.output.splitlines() if line.startswith(f"{file}(")]
        return about + self.unattributed


def refused_variant(case: str) -> str:
    """The contract file's source with the expectation of one refused case removed."""
    expectation, _ = REFUSED[case]
    source = CONTRACT_TS.read_text()
    assert expectation in source, expectation
    return source.replace(expectation, "")


@pytest.fixture(scope="module")
def compiled_together(node_tools: Path, tmp_path_factory: pytest.TempPathFactory) -> Compiled:
    """The committed document's types, made once by the web table's script, and one strict tsc run over the
    contract, the plain client and each refused-case variant of the contract."""
    where = tmp_path_factory.mktemp("types")
    generate_types(node_tools, where)
    shutil.copy(CONTRACT_TS, where / "contract.ts")
    shutil.copy(CLIENT_TS, where / "client.ts")
    variants = [f"contract_{case}.ts" for case in REFUSED]
    for case, name in zip(REFUSED, variants, strict=True):
        (where / name).write_text(refused_variant(case))
    run = compile_strict(node_tools, where, "contract.ts", "client.ts", *variants)
    output = run.stdout + run.stderr
    errors: dict[str, list[int]] = {}
    unattributed = []
    for line in output.splitlines():
        found = ERROR_LINE.match(line)
        if found:
            errors.setdefault(found["file"], []).append(int(found["line"]))
        elif "error" in line and not line.startswith(" "):
            unattributed.append(line)
    return Compiled(output, errors, unattributed)


def test_generated_types_compile_strict_and_reject_a_play_without_cards(compiled_together: Compiled) -> None:
    """Rule: the contract compiles strict with the web table's types, and each of its refused cases (a play without
    cards, a play with ``cards: []``, ...) is an error: an unused @ts-expect-error is an error too."""
    assert compiled_together.verdict("contract.ts") == [], compiled_together.output
    assert compiled_together.verdict("openapi.d.ts") == [], compiled_together.output


def test_a_plain_client_that_leaves_out_the_defaults_compiles_strict(compiled_together: Compiled) -> None:
    """Rule: a client that leaves out every request default compiles strict against the types."""
    assert compiled_together.verdict("client.ts") == [], compiled_together.output


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


@pytest.mark.parametrize("case", list(REFUSED))
def test_the_contract_file_fails_when_a_refused_case_is_accepted(compiled_together: Compiled, case: str) -> None:
    """The check above can fail: with a refused case's expectation removed, its declaration does not compile."""
    _, declaration = REFUSED[case]
    line = refused_variant(case).splitlines().index(declaration) + 1
    assert line in compiled_together.errors.get(f"contract_{case}.ts", []), compiled_together.output
