"""docs/security.md stays true: its settings, defaults, reasons and links are the code's and the other docs'."""

from __future__ import annotations

import re
from pathlib import Path

from tienlen.api.errors import REASON_STATUS
from tienlen.settings import VARIABLES

ROOT = Path(__file__).resolve().parent.parent
SECURITY = ROOT / "docs" / "security.md"
README = ROOT / "README.md"


def _table_rows(text: str) -> list[list[str]]:
    rows = (line.strip().strip("|") for line in text.splitlines() if line.startswith("|"))
    return [[cell.strip() for cell in row.split("|")] for row in rows]


def _readme_defaults() -> dict[str, str]:
    """The README's settings table: variable -> default as written."""
    rows = _table_rows(README.read_text(encoding="utf-8"))
    return {row[0].strip("`"): row[1] for row in rows if len(row) >= 3 and row[0].startswith("`TIENLEN_")}


def test_every_setting_the_security_page_names_is_a_setting() -> None:
    """Rule: a variable named on the security page is one the server reads (settings.VARIABLES)."""
    named = set(re.findall(r"TIENLEN_[A-Z_]+[A-Z]", SECURITY.read_text(encoding="utf-8")))
    assert named, "the page names no setting"
    assert not named - set(VARIABLES), f"not settings: {sorted(named - set(VARIABLES))}"


def test_the_security_pages_defaults_are_the_readmes() -> None:
    """Rule: a default in the page's limits table is the one the README's settings table gives."""
    readme = _readme_defaults()
    checked = 0
    for row in _table_rows(SECURITY.read_text(encoding="utf-8")):
        if len(row) == 5 and row[3].startswith("`TIENLEN_") and row[3] != "`TIENLEN_RATE_LIMITS`":
            variable = row[3].strip("`")
            assert row[2] == readme[variable], f"{variable}: {row[2]} on the page, {readme[variable]} in the README"
            checked += 1
    assert checked >= 6


def test_every_reason_the_security_page_names_has_its_status() -> None:
    """Rule: `reason` after a status on the page is a reason the API gives, with that status."""
    text = SECURITY.read_text(encoding="utf-8")
    found = re.findall(r"\b([1-5]\d\d) `([a-z_]+)`", text)
    assert len(found) >= 8
    for status, reason in found:
        said = REASON_STATUS.get(reason)
        assert said == int(status), f"{status} `{reason}`: the API says {said}"


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors of a page's headings."""
    anchors = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchors.add(slug)
    return anchors


def test_every_link_of_the_security_page_leads_somewhere() -> None:
    """Rule: each relative link names a file of the repository and, with #anchor, a heading of it."""
    links = re.findall(r"\]\(([^)]+)\)", SECURITY.read_text(encoding="utf-8"))
    assert links
    for link in links:
        if link.startswith("http"):
            continue
        path, _, anchor = link.partition("#")
        target = SECURITY if not path else (SECURITY.parent / path).resolve()
        assert target.exists(), link
        if anchor:
            assert anchor in _anchors(target), f"{link}: no such heading"
