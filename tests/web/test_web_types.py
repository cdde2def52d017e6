"""The browser table's API calls are typed by the contract: a wrong path, method, parameter, body or answer type
fails ``tsc --checkJs`` (clients/web/checks/api-types.js holds one of each, each marked as an expected error)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.tools import require_tool

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
CHECKS = WEB / "checks" / "api-types.js"
EXPECTED = "// @ts-expect-error "


@pytest.fixture(scope="module")
def tsc() -> Path:
    """clients/web's tsc (its node_modules installed from the lock file when missing)."""
    found_node = shutil.which("node") is not None and shutil.which("npm") is not None
    require_tool("node", found_node, "install Node.js 20+ and npm (apt-get install nodejs npm)")
    found = WEB / "node_modules" / ".bin" / "tsc"
    if not found.exists():
        installed = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=WEB, capture_output=True)
        assert installed.returncode == 0, installed.stderr
    return found


def _compile(tsc: Path, where: Path, source: str) -> subprocess.CompletedProcess[str]:
    """tsc over the page's modules and ``source`` (as a checks file), with the page's own compiler options."""
    rewritten = source.replace('"../public/js/', f'"{WEB}/public/js/').replace('"../types/', f'"{WEB}/types/')
    (where / "api-types.js").write_text(rewritten)
    options = json.loads((WEB / "tsconfig.json").read_text())["compilerOptions"]
    config = {
        "compilerOptions": options,
        "files": [str(where / "api-types.js")],
        "include": [f"{WEB}/public/js/**/*.js", f"{WEB}/types/**/*.d.ts"],
    }
    (where / "tsconfig.json").write_text(json.dumps(config))
    return subprocess.run([str(tsc), "-p", str(where / "tsconfig.json")], capture_output=True, text=True)


def test_each_wrong_call_fails_without_its_expectation(tsc: Path, tmp_path: Path) -> None:
    """With the expectations taken away, tsc reports an error on every line that followed one, and only there.

    So each expectation of the committed file is met (a wrong call that compiled would be missing from the errors)
    and nothing else in it fails to compile (an error elsewhere would be one too many); ``make lint`` compiles the
    file as committed as well."""
    lines = CHECKS.read_text().splitlines()
    expected = [i for i, line in enumerate(lines) if line.startswith(EXPECTED)]
    assert len(expected) >= 6
    kept = [line for line in lines if not line.startswith(EXPECTED)]
    wrong = {i + 1 - n for n, i in enumerate(expected)}  # 1-based numbers of the lines after them, once removed
    compiled = _compile(tsc, tmp_path, "\n".join(kept) + "\n")
    assert compiled.returncode != 0
    failed = {int(n) for n in re.findall(r"api-types\.js\((\d+),\d+\): error", compiled.stdout)}
    assert failed == wrong, compiled.stdout
