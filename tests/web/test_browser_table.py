"""The browser table in Debian's Chromium (Playwright): a whole hand against three bots, by clicking.

Skips through ``require_tool`` when Chromium or Playwright is missing; CI
(``TIENLEN_REQUIRE_TOOLS=1``) installs Chromium and fails instead.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.support.tools import require_tool

CHROMIUM = os.environ.get("TIENLEN_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

try:
    from playwright.sync_api import Browser, Page, sync_playwright
except ImportError:  # pragma: no cover - [dev] brings it
    sync_playwright = None  # type: ignore[assignment]

pytestmark = pytest.mark.xdist_group("browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    found = Path(CHROMIUM).exists() or shutil.which("chromium") is not None
    require_tool("chromium", found, "apt-get install chromium")
    require_tool("playwright", sync_playwright is not None, "pip install -e '.[dev]'")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def _foreign_requests(page: Page, base: str) -> list[str]:
    """Every request of the page to another host, collected as it goes."""
    host = urlparse(base).netloc
    foreign: list[str] = []
    page.on("request", lambda r: foreign.append(r.url) if urlparse(r.url).netloc not in (host, "") else None)
    return foreign


def _play_until_finished(page: Page) -> int:
    """Click through the hand: Hint on our turn, then Play when allowed, else Pass. Answers our turns."""
    turns = 0
    for _ in range(400):
        if page.locator("#winner").count():
            return turns
        if page.locator("#hint:not([disabled])").count():
            page.click("#hint")
            page.wait_for_function("document.querySelector('#hint-text').textContent !== ''", timeout=10_000)
            if page.locator("#play:not([disabled])").count():
                page.click("#play")
            else:
                page.click("#pass")
            turns += 1
        page.wait_for_timeout(100)
    raise AssertionError("the hand did not end")


def test_whole_hand_against_three_bots_by_clicking(browser: Browser, live_server: str) -> None:
    """Create a match in the lobby and play a whole hand by clicking; no request leaves this server."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    foreign = _foreign_requests(page, live_server)
    page.goto(live_server + "/")
    page.fill("#name", "Ann")
    page.click("#create")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand button")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "table-desktop.png"))
    assert _play_until_finished(page) > 0
    assert page.locator("#results p").count() >= 1
    assert page.locator("#rematch").is_visible()
    assert foreign == []
    page.close()


def test_refused_selection_cannot_be_sent(browser: Browser, live_server: str) -> None:
    """A selection that is no legal play leaves Play disabled and says why."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(live_server + "/")
    page.click("#create")
    page.wait_for_selector("#hand button")
    page.wait_for_selector("#hint:not([disabled])", timeout=15_000)
    cards = page.locator("#hand button")
    cards.nth(0).click()
    cards.nth(cards.count() - 1).click()  # the lowest and the highest card: never a combination
    assert page.locator("#play").is_disabled()
    assert page.inner_text("#selection") != ""
    page.screenshot(path=str(SCREENSHOTS / "table-phone.png"))
    page.close()


def test_docs_load_nothing_from_other_hosts(browser: Browser, live_server: str) -> None:
    """/docs renders the API with Swagger UI from this server's own files."""
    page = browser.new_page()
    foreign = _foreign_requests(page, live_server)
    page.goto(live_server + "/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
    assert "Authorization: Bearer <token>" in page.inner_text("body")
    assert foreign == []
    page.close()


def _create(base: str, body: dict[str, object]) -> dict[str, object]:
    """POST /v1/matches over HTTP; the answer."""
    import json
    import urllib.request

    request = urllib.request.Request(
        base + "/v1/matches", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        created: dict[str, object] = json.loads(answer.read())
    return created


# Seat 0 holds 3S (it leads, and the lead must include 3S); seat 1 holds the 4s, 9s of clubs and hearts.
TWO_SEAT_DEAL = [
    ["3S", "3C", "5S", "6C", "8S", "9S", "9D", "JS", "QS", "KS", "AS", "2S", "7D"],
    ["3D", "4S", "4C", "4D", "5C", "6S", "7S", "8C", "9C", "10S", "JC", "QC", "KC"],
]


def test_reload_mid_hand_resumes_the_same_seat(browser: Browser, live_server: str) -> None:
    """The token kept in localStorage brings the page back to the same seat and cards."""
    page = browser.new_page()
    page.goto(live_server + "/")
    page.click("#create")
    page.wait_for_selector("#hand button")
    before = page.locator("#hand button").all_inner_texts()
    url = page.url
    page.reload()
    page.wait_for_selector("#hand button")
    assert page.url == url
    assert page.locator("#hand button").all_inner_texts() == before
    page.close()


def test_two_browsers_play_through_the_join_link_and_see_each_other(browser: Browser, live_server: str) -> None:
    """Ann creates a two-player match with an open seat; Bo opens the link, joins; each sees the other's play."""
    ann_context, bo_context = browser.new_context(), browser.new_context()
    ann, bo = ann_context.new_page(), bo_context.new_page()
    ann.goto(live_server + "/")
    ann.select_option("#players", "2")
    ann.select_option("#seat-1", "open")
    ann.click("#create")
    link = ann.wait_for_selector("#join-link")
    assert link is not None
    bo.goto(str(link.get_attribute("href")))
    bo.fill("#join-name", "Bo")
    bo.click("#join")
    for page in (ann, bo):
        page.wait_for_selector("#hand button")
    ann.wait_for_function("document.querySelectorAll('#hand button').length === 13")
    # whoever is on turn follows its hint (play, or pass when it says so); the other sees it in its log, live
    for _ in range(3):
        mover, other = _on_turn(ann, bo)
        seen = other.locator("#log li[data-type=played], #log li[data-type=passed]").count()
        mover.click("#hint")
        mover.wait_for_function("document.querySelector('#hint-text').textContent !== ''", timeout=10_000)
        mover.click("#play" if mover.locator("#play:not([disabled])").count() else "#pass")
        other.wait_for_function(
            "n => document.querySelectorAll('#log li[data-type=played], #log li[data-type=passed]').length > n",
            arg=seen,
            timeout=15_000,
        )
    ann_context.close()
    bo_context.close()


def _on_turn(first: Page, second: Page) -> tuple[Page, Page]:
    """(the page whose seat is on turn, the other), once one of them may act."""
    for _ in range(200):
        for mover, other in ((first, second), (second, first)):
            if mover.locator("#hint:not([disabled])").count():
                return mover, other
        first.wait_for_timeout(100)
    raise AssertionError("neither page came on turn")


def test_clock_runs_out_in_the_page_and_the_seat_passes(browser: Browser, live_server: str) -> None:
    """With a 2-second clock the page counts down, and the sweeper passes for the seat."""
    deal = [
        ["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S", "4C"],
        ["3S", "3C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2C"],
    ]
    created = _create(
        live_server,
        {
            "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}],
            "rules": {"hands": 1},
            "deal": deal,
            "clock": {"turn_seconds": 2, "timeouts_before_takeover": 5},
        },
    )
    tokens = created["tokens"]
    assert isinstance(tokens, list)
    seat = {"seat": 0, "token": tokens[0]["token"], "name": "Ann"}
    page = browser.new_page()
    page.goto(live_server + "/")
    page.evaluate(
        "([id, seat]) => localStorage.setItem('tienlen.seats', JSON.stringify({[id]: seat}))",
        [created["match_id"], seat],
    )
    page.goto(f"{live_server}/m/{created['match_id']}")
    page.wait_for_selector("#hint:not([disabled])", timeout=10_000)
    assert "⏱" in page.inner_text("#clock")  # at once, not on a later tick
    page.wait_for_selector("#log li[data-type=timed_out]", timeout=15_000)
    page.close()


def test_phone_width_keyboard_only_turn(browser: Browser, live_server: str) -> None:
    """At 375 px the hand fits and one turn is played with the keyboard alone (Tab, Space, Enter)."""
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(live_server + "/")
    page.click("#create")
    page.wait_for_selector("#hint:not([disabled])", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.focus("#hint")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    if page.locator("#play:not([disabled])").count():
        page.focus("#hint")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")  # Pass is before Hint, Play before Pass
    else:
        page.focus("#hint")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
    page.wait_for_selector("#log li[data-seat], #log li", timeout=10_000)
    assert page.locator("#log li").count() > 0
    page.close()


def test_refused_action_shows_the_servers_message(browser: Browser, live_server: str) -> None:
    """The page's seat acts elsewhere while the page hears nothing; its Play is refused and it shows why.

    The page's stream and long polls are cut before it loads, so it still believes it leads; the same
    seat's lead is sent over HTTP; the page's Play then answers 409 and #error must read exactly the
    ``message`` of that answer.
    """
    import json
    import urllib.request

    created = _create(
        live_server,
        {"seats": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"hands": 1}, "deal": TWO_SEAT_DEAL},
    )
    tokens = created["tokens"]
    assert isinstance(tokens, list)
    token = tokens[0]["token"]
    page = browser.new_page()
    page.route("**/stream*", lambda route: route.abort())
    page.route("**/events*", lambda route: route.abort())
    page.goto(live_server + "/")
    page.evaluate(
        "([id, seat]) => localStorage.setItem('tienlen.seats', JSON.stringify({[id]: seat}))",
        [created["match_id"], {"seat": 0, "token": token, "name": "Ann"}],
    )
    page.goto(f"{live_server}/m/{created['match_id']}")
    page.click("#hand button[data-card='3S']")
    page.wait_for_selector("#play:not([disabled])", timeout=10_000)
    act = urllib.request.Request(
        f"{live_server}/v1/matches/{created['match_id']}/actions",
        json.dumps({"type": "play", "cards": ["3S"]}).encode(),
        {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    urllib.request.urlopen(act, timeout=10).close()
    with page.expect_response(lambda r: r.url.endswith("/actions") and r.request.method == "POST") as caught:
        page.click("#play")
    refusal = caught.value
    assert refusal.status == 409
    message = refusal.json()["message"]
    assert message
    page.wait_for_function(
        "m => document.querySelector('#error').textContent === m", arg=message, timeout=10_000
    )
    page.close()


def test_vietnamese_texts_switch_in_place(browser: Browser, live_server: str) -> None:
    """Choosing Tiếng Việt shows the lobby's texts in Vietnamese, and the choice is kept."""
    page = browser.new_page()
    page.goto(live_server + "/")
    page.select_option("#lang", "vi")
    page.wait_for_selector("text=Ván mới")
    page.reload()
    assert page.inner_text("#create") == "Tạo"
    assert page.evaluate("document.documentElement.lang") == "vi"
    page.close()
