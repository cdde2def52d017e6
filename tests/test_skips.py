"""The suite's skip policy: an unexpected skip fails; a missing tool skips, or fails when tools are required."""

from __future__ import annotations

import pytest

from tests.support.tools import REQUIRE_TOOLS_VARIABLE, ToolMissing, require_tool

INNER_TESTS = """
import pytest

from tests.support.tools import require_tool


def test_skips_by_call():
    pytest.skip("not today")


@pytest.mark.skip(reason="by a marker")
def test_skips_by_marker():
    pass


@pytest.mark.skipif(True, reason="by a condition")
def test_skips_by_condition():
    pass


@pytest.fixture
def skipping_fixture():
    pytest.skip("in a fixture")


def test_skips_in_a_fixture(skipping_fixture):
    pass


@pytest.mark.xfail(reason="a known bug", strict=True)
def test_expected_failure():
    assert False


def test_needs_a_browser():
    require_tool("chromium", False, "apt-get install chromium")


def test_has_its_tool():
    require_tool("python", True, "nothing to install")
"""


def run_inner(pytester: pytest.Pytester) -> pytest.RunResult:
    """Run :data:`INNER_TESTS` in a pytest of their own, with the suite's skip plugin."""
    pytester.makepyfile(test_inner=INNER_TESTS)
    return pytester.runpytest_inprocess("-p", "tests.support.skips", "-rA")


def test_an_unexpected_skip_fails_and_a_missing_tool_skips(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REQUIRE_TOOLS_VARIABLE, raising=False)
    result = run_inner(pytester)
    # A skip in the call fails the test; one in the setup (marker, fixture) is an error.
    result.assert_outcomes(passed=1, failed=1, errors=3, skipped=1, xfailed=1)
    result.stdout.fnmatch_lines_random(
        [
            "*unexpected skip in call of test_inner.py::test_skips_by_call: not today*",
            "*unexpected skip in setup of test_inner.py::test_skips_by_marker: by a marker*",
            "*unexpected skip in setup of test_inner.py::test_skips_by_condition: by a condition*",
            "*unexpected skip in setup of test_inner.py::test_skips_in_a_fixture: in a fixture*",
            "SKIPPED *test_inner.py*needs chromium: apt-get install chromium",
        ]
    )


def test_a_missing_tool_fails_when_tools_are_required(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REQUIRE_TOOLS_VARIABLE, "1")
    result = run_inner(pytester)
    result.assert_outcomes(passed=1, failed=2, errors=3, skipped=0, xfailed=1)
    result.stdout.fnmatch_lines(["*needs chromium: apt-get install chromium (TIENLEN_REQUIRE_TOOLS=1*"])


# Modules that skip while they are collected, hiding every test in them; one conftest does the same to its folder.
SKIPPING_MODULES = {
    "test_skips_as_a_module": """
import pytest

pytest.skip("the whole module", allow_module_level=True)


def test_hidden():
    pass
""",
    "test_imports_or_skips": """
import pytest

pytest.importorskip("tienlen_no_such_module")


def test_hidden():
    pass
""",
    "test_raises_unittest_skip": """
import unittest

raise unittest.SkipTest("by unittest")


def test_hidden():
    pass
""",
    "test_module_needs_node": """
from tests.support.tools import require_tool

require_tool("node", False, "install Node.js")


def test_hidden():
    pass
""",
}
SKIPPING_CONFTEST = """
import pytest

pytest.skip("the whole folder", allow_module_level=True)
"""


def run_skipping_modules(pytester: pytest.Pytester) -> pytest.RunResult:
    """Run :data:`SKIPPING_MODULES` and a folder whose conftest skips, with the suite's skip plugin."""
    pytester.makepyfile(**SKIPPING_MODULES)
    folder = pytester.mkdir("folder")
    (folder / "conftest.py").write_text(SKIPPING_CONFTEST, encoding="utf-8")
    (folder / "test_in_folder.py").write_text("def test_hidden():\n    pass\n", encoding="utf-8")
    return pytester.runpytest_inprocess("-p", "tests.support.skips", "-rA")


def test_a_module_that_skips_while_collected_fails_and_a_missing_tool_skips(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(REQUIRE_TOOLS_VARIABLE, raising=False)
    result = run_skipping_modules(pytester)
    result.assert_outcomes(passed=0, errors=4, skipped=1)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines_random(
        [
            "*unexpected skip while collecting test_skips_as_a_module.py: the whole module*",
            "*unexpected skip while collecting test_imports_or_skips.py: could not import 'tienlen_no_such_module'*",
            "*unexpected skip while collecting test_raises_unittest_skip.py: *by unittest*",
            "*unexpected skip while collecting folder: the whole folder*",
            "SKIPPED *needs node: install Node.js",
        ]
    )


def test_a_module_missing_its_tool_fails_when_tools_are_required(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(REQUIRE_TOOLS_VARIABLE, "1")
    result = run_skipping_modules(pytester)
    result.assert_outcomes(passed=0, errors=5, skipped=0)
    result.stdout.fnmatch_lines(["*needs node: install Node.js (TIENLEN_REQUIRE_TOOLS=1*"])


@pytest.mark.parametrize("value", [None, "", "0", "yes"])
def test_require_tool_skips_unless_the_variable_is_one(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv(REQUIRE_TOOLS_VARIABLE, raising=False)
    else:
        monkeypatch.setenv(REQUIRE_TOOLS_VARIABLE, value)
    require_tool("node", True, "install Node.js")
    with pytest.raises(ToolMissing, match=r"^needs node: install Node\.js$"):
        require_tool("node", False, "install Node.js")


def test_require_tool_fails_when_the_variable_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_TOOLS_VARIABLE, "1")
    require_tool("node", True, "install Node.js")
    with pytest.raises(pytest.fail.Exception, match=r"^needs node: install Node\.js \(TIENLEN_REQUIRE_TOOLS=1"):
        require_tool("node", False, "install Node.js")
