"""The one allowed way for a test to skip: a tool that a fresh machine may lack.

Some tests need a program that ``make install`` does not bring (a Chromium for
browser tests, node for JavaScript clients). Such a test calls
:func:`require_tool` first::

    require_tool("node", shutil.which("node") is not None, "install Node.js 20+ (apt-get install nodejs)")

Without the tool the test is skipped with a reason that starts ``needs node:``
and says what to install, unless ``TIENLEN_REQUIRE_TOOLS=1`` is set (CI sets
it once it installs every tool): then a missing tool fails the test. Any
other skip fails the run (see :mod:`tests.support.skips`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from _pytest.outcomes import Skipped  # the class behind the public pytest.skip.Exception
else:
    Skipped = pytest.skip.Exception

__all__ = ["REQUIRE_TOOLS_VARIABLE", "ToolMissing", "require_tool", "tools_required"]

REQUIRE_TOOLS_VARIABLE = "TIENLEN_REQUIRE_TOOLS"


class ToolMissing(Skipped):
    """The skip raised by :func:`require_tool`: the only kind of skip the test-suite accepts."""


def tools_required() -> bool:
    """True when ``TIENLEN_REQUIRE_TOOLS=1``: a missing tool fails instead of skipping."""
    return os.environ.get(REQUIRE_TOOLS_VARIABLE, "").strip() == "1"


def require_tool(name: str, found: bool, how: str) -> None:
    """Go on when ``found``; else skip the test (``needs <name>: <how>``), or fail it when tools are required.

    Args:
        name: the tool, e.g. ``"chromium"`` or ``"node"``.
        found: whether it is available on this machine.
        how: what to install, plainly, e.g. ``"apt-get install chromium"``.

    May be called in a test, a fixture, or at module level (skipping the whole module).
    """
    if found:
        return
    reason = f"needs {name}: {how}"
    if tools_required():
        pytest.fail(f"{reason} ({REQUIRE_TOOLS_VARIABLE}=1: every tool must be installed)", pytrace=False)
    raise ToolMissing(reason, allow_module_level=True, _use_item_location=True)
