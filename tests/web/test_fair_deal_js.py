"""The browser table's deal check (clients/web/public/js/fairdeal.js, Web Crypto's SHA-256) run by node: it gives
docs/fair-deals.md's test vector line for line, verifies a replay whose deal holds, and names the first problem of
one whose deal does not (nothing at all for a replay without fair_deal)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))


from tests.support.fair_deals import fair_replay
from tests.support.tools import require_tool
from tests.test_fair_deals_doc import _vector

MODULE = Path(__file__).resolve().parents[2] / "clients" / "web" / "public" / "js" / "fairdeal.js"

# Reads {vector: {secret, match_id, hands: [[n, entropy], ...]}, replays: [[replay, match id], ...]} on stdin and
# writes {lines: the vector as docs/fair-deals.md prints it, checks: verifyReplay's answer for each replay}.
SCRIPT = """
import { commitment, handDeal, handKey, hex, verifyReplay } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { vector, replays } = JSON.parse(input);
const secret = Uint8Array.from(vector.secret.match(/../g), (pair) => parseInt(pair, 16));
const lines = [`commitment ${await commitment(secret)}`];
for (const [hand, entropy] of vector.hands) {
  const shown = "[" + entropy.map((e) => `'${e}'`).join(", ") + "]";
  lines.push(`hand ${hand} entropy ${shown} key ${hex(await handKey(secret, vector.match_id, hand, entropy))}`);
  const seats = await handDeal(secret, vector.match_id, hand, entropy);
  seats.forEach((cards, seat) => lines.push(`  seat ${seat} ${cards.join(" ")}`));
}
const checks = [];
for (const [replay, matchId] of replays) checks.push(await verifyReplay(replay, matchId));
console.log(JSON.stringify({ lines: lines.join("\\n") + "\\n", checks }));
"""


def _run(tmp_path: Path, replays: list[tuple[dict[str, Any], str]]) -> dict[str, Any]:
    """fairdeal.js under node: the vector's lines and the checks of ``replays``."""
    require_tool("node", shutil.which("node") is not None, "install Node.js 20+ (apt-get install nodejs)")
    vector = _vector()
    script = tmp_path / "fairdeal_check.mjs"
    script.write_text(SCRIPT % json.dumps(MODULE.as_uri()))
    job = {
        "vector": {
            "secret": vector.secret.hex(),
            "match_id": vector.match_id,
            "hands": [[hand.number, hand.entropy] for hand in vector.hands],
        },
        "replays": replays,
    }
    ran = subprocess.run(["node", str(script)], input=json.dumps(job), capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    answer: dict[str, Any] = json.loads(ran.stdout)
    return answer


def _replay() -> dict[str, Any]:
    """A three-hand replay of the vector's four-seat match, dealt by the Python client's protocol."""
    vector = _vector()
    return fair_replay(vector.secret, vector.match_id, ["ann-7f3a", "", "bo", "cy"], 3)


def test_the_web_check_gives_the_documents_test_vector(tmp_path: Path) -> None:
    """Rule: fairdeal.js's commitment, hand keys and hands are docs/fair-deals.md's vector, line for line."""
    assert _run(tmp_path, [])["lines"] == _vector().lines


def _moved_card(replay: dict[str, Any]) -> None:
    deal = replay["hands"][2]["deal"]
    deal[1][5], deal[3][5] = deal[3][5], deal[1][5]


@pytest.mark.parametrize(
    ("change", "match_id", "check"),
    [
        (lambda r: None, None, {"verified": True, "hands": 3, "problem": None}),
        (lambda r: r["hands"][0]["deal"][0].reverse(), None, {"verified": True, "hands": 3, "problem": None}),
        (lambda r: r.pop("fair_deal"), None, None),
        (
            lambda r: r["fair_deal"].update(secret="00" * 32),
            None,
            {"verified": False, "hands": 0, "problem": "commitment"},
        ),
        (lambda r: r["fair_deal"].update(secret="zz"), None, {"verified": False, "hands": 0, "problem": "fields"}),
        (lambda r: r["fair_deal"].update(protocol="x"), None, {"verified": False, "hands": 0, "problem": "fields"}),
        (lambda r: None, "another", {"verified": False, "hands": 0, "problem": "match"}),
        (
            lambda r: r["fair_deal"].update(entropy=["ann-7f3a", "", "bo", "cz"]),
            None,
            {"verified": False, "hands": 0, "problem": "hand", "hand": 1},
        ),
        (_moved_card, None, {"verified": False, "hands": 2, "problem": "hand", "hand": 3}),
        (
            lambda r: r["hands"][1].update(hand_number=5),
            None,
            {"verified": False, "hands": 1, "problem": "hand", "hand": 5},
        ),
    ],
)
def test_the_web_check_verifies_a_deal_that_holds_and_names_the_first_problem(
    tmp_path: Path, change: Any, match_id: str | None, check: dict[str, Any] | None
) -> None:
    """Rule: verifyReplay answers verified for a deal that holds (cards in any order), null without fair_deal, and
    else the first problem: malformed fields, a secret that is not the commitment's, another match, a hand not
    dealt by the protocol (other entropy, a card moved between seats, another hand number)."""
    replay = copy.deepcopy(_replay())
    change(replay)
    assert _run(tmp_path, [(replay, match_id or _vector().match_id)])["checks"] == [check]
