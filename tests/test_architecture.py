"""docs/architecture.json matches the code: every file in one part, every import between parts declared, and
every declared use real. The engine imports nothing but the standard library (the referee is pure)."""

from __future__ import annotations

import ast
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {
    "tienlen": ROOT / "server",
    "tienlen_client": ROOT / "clients/python",
    "tienlen_tournament": ROOT / "clients/python",
}
SOURCES = [ROOT / "server/tienlen", ROOT / "clients/python"]


@cache
def picture() -> dict[str, Any]:
    """The committed architecture document."""
    found: dict[str, Any] = json.loads((ROOT / "docs/architecture.json").read_text(encoding="utf-8"))
    return found


def python_files() -> list[Path]:
    """Every Python file of the server and the Python clients."""
    return sorted(path for folder in SOURCES for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def part_of(path: Path) -> str | None:
    """The part whose longest path holds ``path``."""
    relative = path.relative_to(ROOT).as_posix()
    best: tuple[int, str] | None = None
    for name, part in picture()["parts"].items():
        for place in part["is"]:
            holds = relative == place or (place.endswith("/") and relative.startswith(place))
            if holds and (best is None or len(place) > best[0]):
                best = (len(place), name)
    return None if best is None else best[1]


def module_path(module: str) -> Path | None:
    """The file of an importable module of ours (a package's ``__init__.py``), or None."""
    top = module.split(".")[0]
    if top not in PACKAGES:
        return None
    base = PACKAGES[top].joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_name(path: Path) -> str:
    """The dotted name of one of our files."""
    for top, folder in PACKAGES.items():
        if path.is_relative_to(folder / top):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    return path.stem  # a script beside the packages (the example bot)


def imports_of(path: Path) -> set[str]:
    """Every module a file imports (relative imports resolved; ``from pkg import module`` counts the module only)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            modules = {f"{source}.{alias.name}" for alias in node.names if module_path(f"{source}.{alias.name}")}
            found.update(modules or {source})  # ``from pkg import module``: the module, not the package's face
    return found


def arrows() -> dict[tuple[str, str], list[str]]:
    """Part -> part, with the files and modules that make each arrow."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in python_files():
        mine = part_of(path)
        for module in imports_of(path):
            target = module_path(module)
            theirs = None if target is None else part_of(target)
            if mine is not None and theirs is not None and theirs != mine:
                found.setdefault((mine, theirs), []).append(f"{path.relative_to(ROOT)} -> {module}")
    return found


def test_every_python_file_is_in_exactly_one_part_of_the_picture() -> None:
    homeless = [str(path.relative_to(ROOT)) for path in python_files() if part_of(path) is None]
    assert not homeless, f"add these to a part of docs/architecture.json: {homeless}"
    for name, part in picture()["parts"].items():
        for place in part["is"]:
            assert (ROOT / place).exists(), f"{name}: {place} does not exist"


def test_every_import_between_parts_is_a_declared_use() -> None:
    parts = picture()["parts"]
    undeclared = {f"{a} -> {b}": made[:3] for (a, b), made in arrows().items() if b not in parts[a]["uses"]}
    assert not undeclared, f"imports docs/architecture.json does not allow: {undeclared}"


def test_every_declared_use_is_made_by_some_import() -> None:
    made = set(arrows())
    stale = [f"{name} -> {used}" for name, part in picture()["parts"].items() for used in part["uses"]
             if (name, used) not in made]  # fmt: skip
    assert not stale, f"docs/architecture.json declares uses no import makes: {stale}"


def test_the_uses_form_no_circle() -> None:
    parts = picture()["parts"]
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"a circle of parts: {' -> '.join((*path, name))}"
        if name in done:
            return
        for used in parts[name]["uses"]:
            visit(used, (*path, name))
        done.add(name)

    for name in parts:
        visit(name, ())


@pytest.mark.parametrize("path", [p for p in python_files() if part_of(p) == "engine"], ids=lambda p: p.name)
def test_the_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    outside = {
        module
        for module in imports_of(path)
        if module.split(".")[0] not in sys.stdlib_module_names and not module.startswith("tienlen.engine")
    }
    assert not outside, f"{path.name} imports {sorted(outside)}: the engine is pure"
