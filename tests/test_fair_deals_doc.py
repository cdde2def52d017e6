"""docs/fair-deals.md's test vector holds: the independent script docs/fair-deals/verify_deal.py (standard library
only, no import of the project) prints exactly the vector the page lists, the Python client's protocol gives the
same keys and hands, and the script verifies a replay whose deal holds and refuses one whose deal does not."""

from __future__ import annotations

import ast
import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "clients" / "python"))

from tienlen_client.fair_deal import commitment, hand_deal, hand_key

from tests.support.fair_deals import fair_replay

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "fair-deals.md"
SCRIPT = ROOT / "docs" / "fair-deals" / "verify_deal.py"


class VectorHand(NamedTuple):
    """One deal of the vector: its hand number, each seat's entropy, the hand key (hex) and each seat's cards."""

    number: int
    entropy: list[str]
    key: str
    seats: list[list[str]]


class Vector(NamedTuple):
    """The page's test vector: its inputs, the lines it lists, and those lines read."""

    secret: bytes
    match_id: str
    lines: str
    commitment: str
    hands: list[VectorHand]


def _vector() -> Vector:
    """The vector of the page's "Test vector" section: the secret and match id it names, and its text block."""
    section = DOC.read_text(encoding="utf-8").split("\n## Test vector\n", 1)[1]
    secret = re.search(r"^- secret: .*`([0-9a-f]{64})`", section, re.MULTILINE)
    match_id = re.search(r"^- match id: `([^`]+)`", section, re.MULTILINE)
    block = re.search(r"^```text\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    assert secret and match_id and block, "the section names the secret, the match id and lists the vector"
    lines = block.group(1)
    first, *rest = lines.splitlines()
    hands: list[VectorHand] = []
    for line in rest:
        if heading := re.fullmatch(r"hand (\d+) entropy (\[.*\]) key ([0-9a-f]{64})", line):
            entropy = ast.literal_eval(heading.group(2))
            hands.append(VectorHand(int(heading.group(1)), entropy, heading.group(3), []))
        else:
            seat = re.fullmatch(r"  seat (\d) ((?:\S+ ){12}\S+)", line)
            assert seat and int(seat.group(1)) == len(hands[-1].seats), line
            hands[-1].seats.append(seat.group(2).split())
    assert first.startswith("commitment ") and len(hands) == 3
    return Vector(bytes.fromhex(secret.group(1)), match_id.group(1), lines, first.split()[1], hands)


def _script(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The script run as the page says, by a Python isolated from the project (-I: no PYTHONPATH, no site dir)."""
    command = [sys.executable, "-I", str(SCRIPT), *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60, cwd=ROOT / "docs")


def test_the_script_prints_exactly_the_vector_the_page_lists() -> None:
    """Rule: `verify_deal.py --vector` prints the page's test vector line for line."""
    printed = _script("--vector")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout == _vector().lines


def test_the_python_client_gives_the_vectors_commitment_keys_and_hands() -> None:
    """Rule: the client's commitment, hand_key and hand_deal give the vector's, from the inputs the page names."""
    vector = _vector()
    assert vector.secret == bytes(range(32))
    assert commitment(vector.secret) == vector.commitment
    for hand in vector.hands:
        assert hand_key(vector.secret, vector.match_id, hand.number, hand.entropy).hex() == hand.key
        assert hand_deal(vector.secret, vector.match_id, hand.number, hand.entropy) == hand.seats


def test_the_script_needs_nothing_but_the_standard_library() -> None:
    """Rule: the script imports only standard modules (never tienlen or tienlen_client), so anyone can run it."""
    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported and imported <= set(sys.stdlib_module_names) | {"__future__"}


def _replay() -> dict[str, Any]:
    """A two-hand replay of the vector's three-seat match, dealt by the client's protocol."""
    vector = _vector()
    return {"match_id": vector.match_id} | fair_replay(vector.secret, vector.match_id, ["x", "y", ""], 2)


def test_the_script_verifies_a_replay_whose_deal_holds(tmp_path: Path) -> None:
    """Rule: `verify_deal.py replay.json` (or "-" for standard input) says "deal verified" and exits 0."""
    (tmp_path / "replay.json").write_text(json.dumps(_replay()))
    checked = _script(str(tmp_path / "replay.json"))
    assert (checked.returncode, checked.stdout) == (0, "deal verified: commitment and 2 hands\n"), checked.stderr
    piped = _script("-", stdin=json.dumps(_replay()))
    assert (piped.returncode, piped.stdout) == (0, "deal verified: commitment and 2 hands\n")


def _swap(replay: dict[str, Any]) -> None:
    deal = replay["hands"][1]["deal"]
    deal[0][3], deal[1][3] = deal[1][3], deal[0][3]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda r: r.pop("fair_deal"), "no fair_deal in the replay"),
        (lambda r: r["fair_deal"].update(secret="00" * 32), "SHA-256 of the secret is not the commitment"),
        (lambda r: r["fair_deal"].update(entropy=["x", "y", "z"]), "hand 1: the deal is not the protocol's"),
        (lambda r: r["fair_deal"].update(match_id="another"), "fair_deal.match_id is not the replay's match"),
        (_swap, "hand 2: the deal is not the protocol's"),
        (lambda r: r["hands"][1].update(hand_number=3), "hand 3: the deal is not the protocol's"),
        (lambda r: r["fair_deal"].update(entropy=["x"]), "fair_deal needs a 64-hex secret"),
        (
            lambda r: r["fair_deal"].update(entropy=["x", "y", "\ud800"]),
            "fair_deal's entropy cannot be written",
        ),
        (lambda r: r.update(hands=7), "the replay's hands are not a list"),
    ],
)
def test_the_script_refuses_a_replay_whose_deal_does_not_hold(change: Any, problem: str) -> None:
    """Rule: a missing fair_deal, a secret that is not the commitment's, other entropy, another match, a card moved
    between seats or another hand number: "deal NOT verified: <the first problem>", exit 1."""
    replay = copy.deepcopy(_replay())
    change(replay)
    checked = _script("-", stdin=json.dumps(replay))
    assert checked.returncode == 1 and checked.stdout.startswith(f"deal NOT verified: {problem}"), checked.stdout


def test_the_page_is_linked_where_replays_and_the_deal_are_described() -> None:
    """Rule: docs/api.md's Replay section and docs/rules.md's section on the deal link to docs/fair-deals.md."""
    replay_section = (
        (ROOT / "docs" / "api.md").read_text(encoding="utf-8").split("\n## Replay\n", 1)[1].split("\n## ")[0]
    )
    assert "(fair-deals.md)" in replay_section
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "(fair-deals.md)" in rules.split("### Seats and the deal", 1)[1].split("\n### ")[0]
