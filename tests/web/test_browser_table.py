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
