"""docs/rules.md keeps in step with what ``GET /v1/rules`` answers.

Every rule parameter, every value an enumerated parameter allows, the range of
an integer parameter, the two values of a flag, each parameter's default and
every preset with all its values must be described in the document.

How a parameter's own section is found: it is the text under the one heading
of the rules sections (§1 to §6) whose title names the parameter in backticks
(e.g. ``### The `bombs` parameter``), up to the next heading of the same or a
higher level. Headings of the presets, the worked examples and the glossary
may name parameters too; they are not definitions. Each value must be
described inside that section, not merely somewhere in the document: a list
item starts with it in backticks (``- `wins`: ...``) or a table cell holds
just it. Presets are read from the markdown table of §7: one column per
preset (its name in backticks in the header), one row per parameter.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tienlen.api import create_app

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules.md"

# The numbered top-level sections that code comments cite as "docs/rules.md §N".
NUMBERED_SECTIONS: tuple[tuple[int, str], ...] = (
    (1, "Cards"),
    (2, "Combinations"),
    (3, "Beating the table"),
    (4, "Bombs"),
    (5, "How a hand is played"),
    (6, "Points, match length and the winner"),
    (7, "Presets"),
    (8, "Worked examples"),
)
PRESETS_SECTION = 7
RULES_SECTIONS = range(1, PRESETS_SECTION)  # where parameters are defined

# Material users never see; the document must stand on its own.
PRIVATE_SOURCES: tuple[str, ...] = ("../shared", "RULES.md")

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


class Heading(NamedTuple):
    """A markdown heading: its level (number of #), its title and its line number."""

    level: int
    title: str
    line: int


# ----- the two sources: the server's answer and the document ------------------------


@cache
def rules_answer() -> dict[str, Any]:
    """The body of ``GET /v1/rules`` from the real app (no Redis is contacted for it)."""
    app = create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})
    response = app.test_client().get("/v1/rules")
    assert response.status_code == 200, response.data
    body: dict[str, Any] = response.get_json()
    return body


def parameters() -> dict[str, dict[str, Any]]:
    """Each rule parameter's description, by name."""
    found: dict[str, dict[str, Any]] = rules_answer()["parameters"]
    return found


def presets() -> dict[str, dict[str, Any]]:
    """Each preset's values, by preset name."""
    found: dict[str, dict[str, Any]] = rules_answer()["presets"]
    return found


@cache
def doc_lines() -> tuple[str, ...]:
    """The lines of docs/rules.md."""
    return tuple(DOC.read_text(encoding="utf-8").splitlines())


def doc_text() -> str:
    """The whole of docs/rules.md."""
    return "\n".join(doc_lines())


@cache
def headings() -> tuple[Heading, ...]:
    """Every heading of the document, in order (lines inside code fences are not headings)."""
    found: list[Heading] = []
    in_fence = False
    for number, line in enumerate(doc_lines()):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        match = _HEADING.match(line)
        if match and not in_fence:
            found.append(Heading(len(match.group(1)), match.group(2), number))
    return tuple(found)


def section_under(heading: Heading) -> str:
    """The text under a heading, up to the next heading of the same or a higher level."""
    following = [h.line for h in headings() if h.line > heading.line and h.level <= heading.level]
    end = following[0] if following else len(doc_lines())
    return "\n".join(doc_lines()[heading.line + 1 : end])


def numbered_heading(number: int) -> Heading | None:
    """The top-level ``## N. ...`` heading of a numbered section, if present."""
    for heading in headings():
        if heading.level == 2 and heading.title.startswith(f"{number}. "):
            return heading
    return None


def parameter_headings(name: str) -> list[Heading]:
    """The headings of the rules sections (§1 to §6) whose title names the parameter in backticks."""
    first = numbered_heading(RULES_SECTIONS[0])
    after = numbered_heading(RULES_SECTIONS[-1] + 1)
    assert first is not None and after is not None, "the numbered sections are missing"
    return [h for h in headings() if first.line < h.line < after.line and f"`{name}`" in h.title]


def parameter_section(name: str) -> str:
    """The parameter's own section: under the one heading that names it."""
    found = parameter_headings(name)
    assert len(found) == 1, f"want one heading naming `{name}` in §1-§6, found {[h.title for h in found]}"
    return section_under(found[0])


def rendered(value: object) -> str:
    """How the document writes a parameter value: in backticks, flags as `true` / `false`."""
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    return f"`{value}`"


def describes_value(section: str, value: object) -> bool:
    """Whether a section describes a value: a list item opens with it, or a table cell is just it."""
    item = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+(?:\*\*)?" + re.escape(rendered(value)), re.MULTILINE)
    if item.search(section):
        return True
    return any(cell.strip("*") == rendered(value) for row in table_rows(section) for cell in row)


def table_rows(text: str) -> list[list[str]]:
    """The cells of every markdown table row in ``text`` (separator rows left out)."""
    rows: list[list[str]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("|"):
            continue
        cells = [cell.strip() for cell in stripped.strip("|").split("|")]
        if all(re.fullmatch(r":?-{3,}:?", cell) for cell in cells):
            continue
        rows.append(cells)
    return rows


def presets_table() -> list[list[str]]:
    """The first §7 table whose header names presets: its header row first."""
    heading = numbered_heading(PRESETS_SECTION)
    assert heading is not None, f"no section {PRESETS_SECTION}"
    rows = table_rows(section_under(heading))
    header_at = [i for i, row in enumerate(rows) if any(f"`{p}`" in cell for p in presets() for cell in row[1:])]
    assert header_at, "§7 has no table with a column per preset"
    table = [rows[header_at[0]]]
    for row in rows[header_at[0] + 1 :]:
        if len(row) != len(table[0]):
            break
        table.append(row)
    return table


def preset_column(name: str) -> int:
    """The column of the §7 presets table that belongs to a preset."""
    header = presets_table()[0]
    columns = [i for i, cell in enumerate(header) if f"`{name}`" in cell]
    assert len(columns) == 1, f"want one column for preset `{name}` in {header}"
    return columns[0]


def preset_row(parameter: str) -> list[str]:
    """The row of the §7 presets table that belongs to a parameter."""
    rows = [row for row in presets_table()[1:] if f"`{parameter}`" in row[0]]
    assert len(rows) == 1, f"want one row for `{parameter}` in the §7 presets table"
    return rows[0]


# ----- parametrize tables, built from the server's answer -----------------------------

PARAMETER_NAMES: list[str] = list(parameters())
ENUM_VALUES: list[tuple[str, str]] = [
    (name, value) for name, about in parameters().items() for value in about.get("enum", [])
]
FLAGS: list[str] = [name for name, about in parameters().items() if about.get("type") == "boolean"]
RANGES: list[tuple[str, int, int]] = [
    (name, about["minimum"], about["maximum"]) for name, about in parameters().items() if about.get("type") == "integer"
]
DEFAULTS: list[tuple[str, object]] = [
    (name, value) for name, value in presets()[rules_answer()["default_preset"]].items() if name in parameters()
]
PRESET_NAMES: list[str] = list(presets())
PRESET_VALUES: list[tuple[str, str, object]] = [
    (preset, name, value) for preset, values in presets().items() for name, value in values.items() if name != "preset"
]


# ----- the tests ------------------------------------------------------------------------


def test_the_rules_answer_has_parameters_and_presets_to_check() -> None:
    assert PARAMETER_NAMES and ENUM_VALUES and PRESET_NAMES and PRESET_VALUES
    assert rules_answer()["default_preset"] in presets()


@pytest.mark.parametrize(("number", "title"), NUMBERED_SECTIONS)
def test_numbered_section_exists_with_its_number(number: int, title: str) -> None:
    heading = numbered_heading(number)
    assert heading is not None, f"no '## {number}. {title}'"
    assert heading.title == f"{number}. {title}"


def test_numbered_sections_come_in_order() -> None:
    found = [numbered_heading(number) for number, _title in NUMBERED_SECTIONS]
    lines = [heading.line for heading in found if heading is not None]
    assert len(lines) == len(NUMBERED_SECTIONS)
    assert lines == sorted(lines)


@pytest.mark.parametrize("name", PARAMETER_NAMES)
def test_rule_parameter_is_named_in_the_doc(name: str) -> None:
    assert f"`{name}`" in doc_text()


@pytest.mark.parametrize("name", PARAMETER_NAMES)
def test_rule_parameter_has_its_own_section(name: str) -> None:
    assert parameter_section(name).strip()


@pytest.mark.parametrize(("name", "value"), ENUM_VALUES)
def test_enum_value_is_described_in_its_parameter_section(name: str, value: str) -> None:
    assert describes_value(parameter_section(name), value), f"the section of `{name}` does not describe `{value}`"


@pytest.mark.parametrize("name", FLAGS)
def test_flag_parameter_section_describes_true_and_false(name: str) -> None:
    section = parameter_section(name)
    assert describes_value(section, True) and describes_value(section, False)


@pytest.mark.parametrize(("name", "minimum", "maximum"), RANGES)
def test_integer_parameter_section_states_its_range(name: str, minimum: int, maximum: int) -> None:
    stated = re.compile(rf"`{minimum}`\s*(?:to|–|-)\s*`{maximum}`")
    assert stated.search(parameter_section(name)), f"the section of `{name}` does not say `{minimum}` to `{maximum}`"


@pytest.mark.parametrize(("name", "value"), DEFAULTS)
def test_parameter_section_names_its_default(name: str, value: object) -> None:
    stated = re.compile(r"Default:\**\s*" + re.escape(rendered(value)))
    assert stated.search(parameter_section(name)), f"the section of `{name}` does not say Default: {rendered(value)}"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_has_a_column_in_the_presets_table(preset: str) -> None:
    assert preset_column(preset) > 0


def test_default_preset_is_marked_default_in_the_presets_table() -> None:
    header = presets_table()[0]
    assert "default" in header[preset_column(rules_answer()["default_preset"])].lower()


@pytest.mark.parametrize(("preset", "name", "value"), PRESET_VALUES)
def test_preset_value_is_in_the_presets_table(preset: str, name: str, value: object) -> None:
    cell = preset_row(name)[preset_column(preset)]
    assert rendered(value) in cell, f"preset `{preset}`, `{name}`: want {rendered(value)}, the table says {cell!r}"


@pytest.mark.parametrize("source", PRIVATE_SOURCES)
def test_doc_does_not_cite_private_sources(source: str) -> None:
    assert source not in doc_text()
