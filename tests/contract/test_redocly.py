"""``redocly lint`` (its recommended rules, as SDK makers run it) finds no error in the committed OpenAPI document.

Warnings are allowed: ``/healthz`` and ``/v1/rules`` have no 4xx answer, and two ``not: {required: [...]}``
clauses (a seat that is not a bot, a body without ``preset``) name a property of the schema around them.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "openapi" / "openapi.json"
QUIET = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}


def lint(node_tools: Path, spec: Path) -> dict[str, Any]:
    """redocly's JSON report on ``spec``: ``totals`` (errors, warnings) and ``problems``."""
    linted = subprocess.run(
        [str(node_tools / "redocly"), "lint", "--format=json", str(spec)],
        capture_output=True,
        text=True,
        env=os.environ | QUIET,
        timeout=120,
    )
    assert linted.stdout.strip(), linted.stderr
    report: dict[str, Any] = json.loads(linted.stdout)
    return report


def errors(report: dict[str, Any]) -> list[str]:
    """Each error as ``rule at pointer: message``."""
    return [
        f"{problem['ruleId']} at {problem['location'][0]['pointer']}: {problem['message']}"
        for problem in report["problems"]
        if problem["severity"] == "error"
    ]


def test_redocly_lint_finds_no_error(node_tools: Path) -> None:
    report = lint(node_tools, SPEC)
    assert report["totals"]["errors"] == 0, errors(report)


def test_redocly_lint_fails_a_public_operation_that_does_not_say_it_is_public(node_tools: Path, tmp_path: Path) -> None:
    """The check above can fail: without its ``security: []``, the lobby's operation is an error."""
    spec = json.loads(SPEC.read_text())
    del spec["paths"]["/v1/matches"]["get"]["security"]
    (tmp_path / "openapi.json").write_text(json.dumps(spec))
    found = errors(lint(node_tools, tmp_path / "openapi.json"))
    assert [error.split(":")[0] for error in found] == ["security-defined at #/paths/~1v1~1matches/get"], found
