"""Layers depend one way: clients may import the server package ``tienlen``; the server never imports its clients.

Every module under server/tienlen is parsed (not imported, so a lazy import
inside a function counts too) and its imports checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "server" / "tienlen"
CLIENT_PACKAGES = ("tienlen_client", "tienlen_tournament")
"""The client side's Python packages (clients/python)."""


def client_imports(source: str) -> list[str]:
    """The modules of :data:`CLIENT_PACKAGES` (or inside them) that ``source`` imports, in order."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [name for name in names if name.split(".")[0] in CLIENT_PACKAGES]
    return found


@pytest.mark.parametrize(
    ("source", "imported"),
    [
        ("import tienlen_client", ["tienlen_client"]),
        ("from tienlen_client import Client", ["tienlen_client"]),
        ("import os, tienlen_client.botkit as kit", ["tienlen_client.botkit"]),
        ("def late():\n    from tienlen_tournament.runner import main\n", ["tienlen_tournament.runner"]),
        ("from tienlen.bots import LEVELS\nimport tienlen_clientele\nfrom . import tienlen_client", []),
    ],
)
def test_client_imports_finds_every_import_of_a_client_package(source: str, imported: list[str]) -> None:
    """Rule (of the check below): plain, from, dotted and function-local imports of a client package are
    found; a look-alike name, the server's own modules and relative imports are not."""
    assert client_imports(source) == imported


def test_the_server_package_never_imports_a_client_package() -> None:
    """Rule: one way only: no module under server/tienlen imports tienlen_client or tienlen_tournament."""
    modules = sorted(SERVER.rglob("*.py"))
    assert len(modules) > 50, "the server's modules were found"
    offenders = {
        str(path.relative_to(SERVER.parent)): names
        for path in modules
        if (names := client_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}
