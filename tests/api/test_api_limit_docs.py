"""The rate-limit table of docs/operations.md is the code's: one row per limited operation, nothing else.

Rule checked: every limited view the app declares (``@limited``) has a row with its kind, its operation (method
and path as the OpenAPI document writes it), who it counts (the mark's words) and its kind's default; every row
is such a view, and every kind of :data:`~tienlen.settings.DEFAULT_RATE_LIMITS` is declared by some view.
"""

from __future__ import annotations

import re
from pathlib import Path

from tienlen.api import create_app
from tienlen.api.limits import limits_of
from tienlen.settings import DEFAULT_RATE_LIMITS

OPERATIONS_MD = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
ROW = re.compile(r"^\| `(\w+)` \| `(GET|POST|PUT|DELETE|PATCH) (/\S+)` \| ([^|]+) \| `([^`]+)` \|$", re.M)


def documented() -> set[tuple[str, str, str, str, str]]:
    """The rows of the table under ``## Rate limits``: (kind, method, path, counted per, default)."""
    text = OPERATIONS_MD.read_text(encoding="utf-8")
    section = text.split("## Rate limits", 1)[1].split("\n## ", 1)[0]
    return {
        (kind, method, path, counted.strip(), default) for kind, method, path, counted, default in ROW.findall(section)
    }


def declared() -> set[tuple[str, str, str, str, str]]:
    """The same, from the limited views of the app."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    rows = set()
    for view in limits_of(app):
        for rule in app.url_map.iter_rules(view.endpoint):
            path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
            kind = view.limit.kind
            rows.add((kind, view.method, path, view.limit.counted.words, DEFAULT_RATE_LIMITS[kind]))
    return rows


def test_the_rate_limit_table_lists_every_limited_operation_and_nothing_else() -> None:
    in_code, in_docs = declared(), documented()
    assert sorted(in_code - in_docs) == [], "limited in the code, missing (or different) in docs/operations.md"
    assert sorted(in_docs - in_code) == [], "in docs/operations.md, not so in the code"
    assert {row[0] for row in in_code} == set(DEFAULT_RATE_LIMITS), "a kind of limit that no view declares"
