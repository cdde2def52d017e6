"""The README's curl walk-through works when typed as written.

The shell blocks of its "A match with curl" section run in one bash session,
in order, against a real server (only ``localhost:8000`` and the ``.venv/bin/``
of the commands are pointed at this run's server and virtual environment).
Every ``curl`` fails the run on an HTTP error (``--fail-with-body``), so a play
the deal does not allow, a join of a full match or a missing route is caught.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.tools import require_tool

README = Path(__file__).resolve().parent.parent / "README.md"
SECTION = "## A match with curl"


def walkthrough() -> list[str]:
    """The ``sh`` blocks of the README's curl section, in order."""
    text = README.read_text(encoding="utf-8")
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    return re.findall(r"```sh\n(.*?)```", text[start : end if end != -1 else None], flags=re.S)


def test_the_walkthrough_has_no_placeholders_to_fill_in() -> None:
    blocks = walkthrough()
    assert len(blocks) >= 2, "the walk-through and the friends' table"
    for block in blocks:
        assert not re.search(r"<[a-z_]+>", block), f"a placeholder the reader must replace:\n{block}"


def test_the_readme_curl_walkthrough_runs_as_written(live_server: str, tmp_path: Path) -> None:
    require_tool("curl", shutil.which("curl") is not None, "apt-get install curl")
    script = "\n".join(walkthrough())
    script = script.replace("localhost:8000", live_server.removeprefix("http://"))
    script = script.replace(".venv/bin/", f"{Path(sys.executable).parent}/")
    prelude = 'set -euo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n'
    done = subprocess.run(["bash", "-c", prelude + script], cwd=tmp_path, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, f"exit {done.returncode}\n--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr}"
    out = done.stdout
    assert "every action legal: 1 hand, " in out, "the replay of the finished match was refereed"
    assert '"event: match_ended' not in out and "event: match_ended\n" in out, "the stream ends with the match"
    assert re.search(r'\{"match_id":"[0-9a-f]{20}","seat":0,"token":"[^"]+"\}', out), "the rematch answer"
    assert '"listed":true' in out, "the friends' match is in the lobby"
    assert (tmp_path / "match.json").stat().st_size > 1000


def test_the_readme_lists_every_error_reason_under_its_status() -> None:
    """Rule: a reason the API can give is in the README's table of reasons, in the row of its status."""
    from tienlen.api.errors import DEFAULT_REASONS, FALLBACK_REASON, REASON_STATUS

    text = README.read_text(encoding="utf-8")
    rows = {
        match.group(1): match.group(2) for match in re.finditer(r"^\| (\d{3}|any other) \| (.*) \|$", text, flags=re.M)
    }
    statuses = REASON_STATUS | {reason: status for status, reason in DEFAULT_REASONS.items()}
    for reason, status in statuses.items():
        assert f"`{reason}`" in rows.get(str(status), ""), f"README: `{reason}` is not in the row of {status}"
    assert f"`{FALLBACK_REASON}`" in rows.get("any other", "")
