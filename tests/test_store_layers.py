"""The store's modules form layers: values, then the protocols the service is written against, then Redis.

Every module of server/tienlen/store is parsed (not imported: an import under
``TYPE_CHECKING`` or inside a function counts too) and its imports of the
other store modules form a graph. Rules held: the graph has no circle; a
value module imports only value modules; a protocol module imports only
protocol and value modules (never an implementation, never redis-py); the
service imports from the store only protocols and values. A module not named
below as a value or a protocol is an implementation.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "server"
STORE = SERVER / "tienlen" / "store"
SERVICE = SERVER / "tienlen" / "service"

VALUES = {"errors", "events", "records"}
"""What a store keeps and raises: frozen records, the events' type, the errors."""
PROTOCOLS = {
    "base",
    "accounts",
    "challenges",
    "chat",
    "follows",
    "history",
    "inbox",
    "live_seats",
    "puzzles",
    "queue",
    "rating_store",
    "reviews",
    "tournaments",
    "wait_slots",
    "watching",
}
"""What the service needs of a store: one Protocol per kind of store, and the values only they use."""


def store_imports(source: str, package: str) -> set[str]:
    """The modules of ``tienlen.store`` that ``source`` (a module of the package ``package``) imports, by name
    (``tienlen.store.connect`` -> ``connect``; the package's own face is ``__init__``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            named = [f"{source}.{alias.name}" for alias in node.names]
            modules = [name for name in named if (STORE / f"{name.rpartition('.')[2]}.py").is_file()
                       and name.rpartition(".")[0] == "tienlen.store"] or [source]  # fmt: skip
        else:
            continue
        for module in modules:
            if module == "tienlen.store":
                found.add("__init__")
            elif module.startswith("tienlen.store."):
                found.add(module.split(".")[2])
    return found


def graph(folder: Path = STORE) -> dict[str, set[str]]:
    """Each store module (``__init__`` left out: the package's face may name anything) -> the store modules it
    imports."""
    return {
        path.stem: store_imports(path.read_text(encoding="utf-8"), "tienlen.store") - {path.stem}
        for path in sorted(folder.glob("*.py"))
        if path.name != "__init__.py"
    }


def circle(edges: dict[str, set[str]]) -> list[str] | None:
    """One circle of ``edges`` (its modules in order, the first again at the end), or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for used in sorted(edges.get(name, ())):
            found = visit(used, [*path, name])
            if found is not None:
                return found
        done.add(name)
        return None

    for name in sorted(edges):
        found = visit(name, [])
        if found is not None:
            return found
    return None


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import that goes up the layers (value < protocol < implementation)."""
    layer = {name: 0 if name in VALUES else 1 if name in PROTOCOLS else 2 for name in edges}
    return sorted(
        f"{name} -> {used}" for name, uses in edges.items() for used in uses if layer.get(used, 2) > layer[name]
    )


def test_the_layers_name_only_modules_that_exist() -> None:
    missing = sorted(name for name in VALUES | PROTOCOLS if not (STORE / f"{name}.py").is_file())
    assert not missing, f"named as values or protocols but not in store/: {missing}"


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ({"a": {"b"}, "b": set()}, None),
        ({"a": {"b"}, "b": {"a"}}, ["a", "b", "a"]),
        ({"a": {"b"}, "b": {"c"}, "c": {"b"}}, ["b", "c", "b"]),
        ({"a": {"a"}}, ["a", "a"]),
    ],
)
def test_circle_finds_a_circle_of_imports(edges: dict[str, set[str]], expected: list[str] | None) -> None:
    """Rule (of the checks below): a circle of any length is found, and a line of imports is none."""
    assert circle(edges) == expected


def test_store_imports_reads_relative_from_and_type_checking_imports() -> None:
    """Rule (of the checks below): ``from .x import y``, ``from . import x``, ``from ..store import y`` and an
    import under ``TYPE_CHECKING`` all count."""
    source = (
        "from typing import TYPE_CHECKING\nfrom .records import MatchRecord\nfrom . import connect\n"
        "if TYPE_CHECKING:\n    from .redis_queue import RedisQueue\n"
    )
    assert store_imports(source, "tienlen.store") == {"records", "connect", "redis_queue"}
    service = "from ..store import MatchRecord\nfrom ..store.base import MatchStore\n"
    assert store_imports(service, "tienlen.service") == {"__init__", "base"}


def test_the_store_modules_import_one_another_in_no_circle() -> None:
    """Rule: no circle among the store's modules, counting imports made only for type checking."""
    assert circle(graph()) is None


def test_no_store_module_imports_a_layer_above_its_own() -> None:
    """Rule: values import only values; protocols only protocols and values; implementations import them."""
    assert upward(graph()) == []


@pytest.mark.parametrize("name", sorted(VALUES | PROTOCOLS))
def test_a_protocol_or_value_module_does_not_import_redis(name: str) -> None:
    """Rule: what the service is written against says nothing of Redis (redis-py is an implementation's)."""
    tree = ast.parse((STORE / f"{name}.py").read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and not node.level}
    assert not {module for module in imported if module.split(".")[0] == "redis"}


@pytest.mark.parametrize("path", sorted(SERVICE.glob("*.py")), ids=lambda p: p.name)
def test_the_service_imports_only_protocols_and_values_of_the_store(path: Path) -> None:
    """Rule: the service is written against the protocols: it imports no Redis implementation (nor the store
    package's face, which names one)."""
    used = store_imports(path.read_text(encoding="utf-8"), "tienlen.service")
    assert used <= VALUES | PROTOCOLS, f"{path.name} imports {sorted(used - VALUES - PROTOCOLS)}"


def test_the_settings_import_no_store_and_no_redis() -> None:
    """Rule: the settings (read in the server's first process, before gevent patches anything) load neither the
    store package nor redis-py: the kinds of store and the connection options are plain values."""
    script = (
        "import sys\nimport tienlen.settings\n"
        "parts = [m.split('.') for m in sys.modules]\n"
        "print(sorted('.'.join(p) for p in parts if p[0] == 'redis' or p[:2] == ['tienlen', 'store']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"
