"""A replay page checks a fairly dealt match's deal in the browser (docs/fair-deals.md): "Deal verified" when the
revealed secret is the commitment's and every hand is the protocol's, "Deal NOT verified: <why>" otherwise, in the
page's language, and nothing for a match its creator dealt from a seed."""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))


from tests.support.fair_deals import fair_replay
from tests.web.conftest import PHONE, PageFactory
from tests.web.support import account, call
from tests.web.test_table_pages import _contrast
from tests.web.test_table_play import _play_out

pytestmark = pytest.mark.xdist_group("browser-b")

DEAL_TEXT = "document.querySelector('#replay-deal')?.textContent ?? ''"


def _deal_said(page: Any) -> str:
    """What the replay page says of the deal, once its check is done (the line is empty while it runs)."""
    page.wait_for_function(f"({DEAL_TEXT}) !== ''")
    return str(page.evaluate(DEAL_TEXT))


def test_a_finished_matchs_replay_page_says_its_deal_is_verified(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: a match nobody fixed the deal of publishes a commitment at once and reveals its secret when finished;
    its replay page recomputes every hand and says "Deal verified"; a match dealt from its creator's seed says
    nothing about its deal. (Needs the server's fair_deal: the deals branch.)"""
    name, token = account(account_server, "Fay")
    seats = [{"name": name, "entropy": "fay's dice"}, {"name": "Bot", "bot": "easy"}]
    created = call(account_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 2}}, token)
    match_id = created["match_id"]
    fair = created["match"]["fair_deal"]
    assert re.fullmatch("[0-9a-f]{64}", fair["commitment"]) and fair["secret"] is None
    assert fair["entropy"] == ["fay's dice", ""]
    _play_out(account_server, match_id, {0: token})
    replay = call(account_server, "GET", f"/v1/matches/{match_id}/replay")
    assert replay["fair_deal"]["match_id"] == match_id and replay["fair_deal"]["commitment"] == fair["commitment"]
    page = account_pages(viewport=PHONE)
    page.goto(f"{account_server}/m/{match_id}/replay")
    page.wait_for_selector("#replay-seats li")
    assert _deal_said(page) == "Deal verified"
    assert "error" not in (page.get_attribute("#replay-deal", "class") or "")
    assert page.get_attribute("#replay-deal", "role") == "status"
    assert _contrast(page) == []
    seeded = call(
        account_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": name}, seats[1]], "rules": {"hands": 1}, "seed": 9},
        token,
    )
    assert seeded["match"]["fair_deal"] is None
    _play_out(account_server, seeded["match_id"], {0: token})
    page.goto(f"{account_server}/m/{seeded['match_id']}/replay")
    page.wait_for_selector("#replay-seats li")
    assert page.locator("#replay-deal").count() == 0


SECRET = bytes(range(32))
MATCH_ID = "5f0e3c9a2b7d4e18c6a1"
ENTROPY = ["ann-7f3a", "", "bo", "cy"]


def _replay(rules: dict[str, Any]) -> dict[str, Any]:
    """A two-hand replay of four seats dealt by the protocol (the Python client's), no move played."""
    seats = [{"name": name, "bot": None} for name in ("Ann", "Bo", "Cy", "Di")]
    result = {"scores": [0, 0, 0, 0], "winner": None, "abandoned": True}
    return {"rules": rules, "seed": 0, "seats": seats, "result": result} | fair_replay(SECRET, MATCH_ID, ENTROPY, 2)


def _moved_card(replay: dict[str, Any]) -> None:
    deal = replay["hands"][1]["deal"]
    deal[0][0], deal[2][0] = deal[2][0], deal[0][0]


@pytest.mark.parametrize(
    ("language", "change", "said"),
    [
        ("en", lambda r: None, "Deal verified"),
        ("vi", lambda r: None, "Đã kiểm chứng việc chia bài"),
        (
            "en",
            lambda r: r["fair_deal"].update(secret="00" * 32),
            "Deal NOT verified: the revealed secret does not match the commitment",
        ),
        ("en", _moved_card, "Deal NOT verified: hand 2 was not dealt by the protocol"),
        ("vi", _moved_card, "Việc chia bài KHÔNG được kiểm chứng: ván 2 không được chia theo giao thức"),
        (
            "en",
            lambda r: r["fair_deal"].update(match_id="another"),
            "Deal NOT verified: its fair_deal is another match's",
        ),
        (
            "en",
            lambda r: r["fair_deal"].pop("secret"),
            "Deal NOT verified: the replay's fair_deal is incomplete or malformed",
        ),
    ],
)
def test_the_replay_page_says_whether_the_deal_it_was_given_holds(
    account_pages: PageFactory, account_server: str, language: str, change: Any, said: str
) -> None:
    """Rule: the page checks the replay it is given (here served by the test): the deal holds, or the first
    problem (a secret that is not the commitment's, a card moved between seats, another match's fair_deal, a field
    missing) is said, in the page's language, marked as an error."""
    replay = copy.deepcopy(_replay(call(account_server, "GET", "/v1/rules")["presets"]["standard"]))
    change(replay)
    page = account_pages()
    page.goto(account_server + "/")
    page.evaluate("(lang) => localStorage.setItem('tienlen.lang', lang)", language)
    page.route(f"**/v1/matches/{MATCH_ID}/replay", lambda route: route.fulfill(json=replay))
    page.goto(f"{account_server}/m/{MATCH_ID}/replay")
    page.wait_for_selector("#replay-seats li")
    assert _deal_said(page) == said
    failed = "error" in (page.get_attribute("#replay-deal", "class") or "")
    assert failed == (said not in ("Deal verified", "Đã kiểm chứng việc chia bài"))
