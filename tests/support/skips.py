"""A pytest plugin: a test that skips fails, unless it skipped through :func:`~tests.support.tools.require_tool`.

A skip hides a test that no longer runs (a broken import, a missing
dependency) behind a green run. Here every skipped report, whether from
``pytest.skip()``, a ``skip``/``skipif`` marker or a fixture, becomes a
failure that names the reason, except the skips of a missing tool
(:class:`~tests.support.tools.ToolMissing`). Expected failures
(``xfail``) are left as they are.

``tests/conftest.py`` loads it with ``pytest_plugins``.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from .tools import ToolMissing

__all__ = ["pytest_runtest_makereport"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Turn an unexpected skip into a failure of the same phase (a setup skip becomes an error)."""
    report = yield
    if not report.skipped or hasattr(report, "wasxfail"):
        return report
    if call.excinfo is not None and isinstance(call.excinfo.value, ToolMissing):
        return report
    report.outcome = "failed"
    report.longrepr = (
        f"unexpected skip in {call.when} of {item.nodeid}: {_reason(report)}\n"
        "A test may skip only through tests.support.tools.require_tool (a tool this machine lacks); "
        "anything else must pass or fail."
    )
    return report


def _reason(report: pytest.TestReport) -> str:
    """The skip's message, from the skipped report's ``(path, line, message)``."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)
