"""A pytest plugin: a skip fails, unless it skipped through :func:`~tests.support.tools.require_tool`.

A skip hides a test that no longer runs (a broken import, a missing
dependency) behind a green run. Here every skipped report becomes a failure
that names the reason, except the skips of a missing tool
(:class:`~tests.support.tools.ToolMissing`):

- a test's report, whether the skip came from ``pytest.skip()``, a
  ``skip``/``skipif`` marker or a fixture (:func:`pytest_runtest_makereport`);
- a collector's report, when a module, a conftest or a package skipped while
  it was collected: ``pytest.skip(..., allow_module_level=True)``, a
  module-level ``pytest.importorskip`` or ``unittest.SkipTest``
  (:func:`pytest_make_collect_report`). Such a skip hides every test of the
  module at once.

Expected failures (``xfail``) are left as they are. ``tests/conftest.py``
loads it with ``pytest_plugins``.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from .tools import ToolMissing

__all__ = ["pytest_make_collect_report", "pytest_runtest_makereport"]

POLICY = (
    "A test may skip only through tests.support.tools.require_tool (a tool this machine lacks); "
    "anything else must pass or fail."
)
# How a collector's skipped report words a ToolMissing: the exception's own line, "module.Class: message"
# (a plain pytest.skip reads "Skipped: message"). The report keeps this text, not the exception.
_TOOL_MISSING_PREFIX = f"{ToolMissing.__module__}.{ToolMissing.__qualname__}: "


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
    report.longrepr = f"unexpected skip in {call.when} of {item.nodeid}: {_reason(report)}\n{POLICY}"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(
    collector: pytest.Collector,
) -> Generator[None, pytest.CollectReport, pytest.CollectReport]:
    """Turn an unexpected skip of a whole module, conftest or package into a collection error."""
    report = yield
    if not report.skipped or _message(report).startswith(_TOOL_MISSING_PREFIX):
        return report
    report.outcome = "failed"
    where = collector.nodeid or collector.name
    report.longrepr = f"unexpected skip while collecting {where}: {_reason(report)}\n{POLICY}"
    return report


def _message(report: pytest.TestReport | pytest.CollectReport) -> str:
    """The skip's message, from the skipped report's ``(path, line, message)``."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    """The skip's reason: its message without pytest's ``Skipped: `` prefix."""
    return _message(report).removeprefix("Skipped: ")
