"""Every screen on a 375 x 667 phone: axe-core finds no serious or critical violation and nothing scrolls sideways;
a Quick game is started and a card played with the keyboard alone; the JS and CSS a screen loads are weighed and
the first screen's time to interactive is printed (a figure, not asserted as a time)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.tools import require_tool
from tests.web.support import MY_TURN, TWO_SEAT_DEAL, account, call, seat_at
from tests.web.test_table_play import _play_out

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-a")

AXE = Path(__file__).resolve().parents[2] / "clients" / "web" / "node_modules" / "axe-core" / "axe.min.js"
PHONE_SMALL = {"width": 375, "height": 667}
# The page's own JS and CSS that one screen loads, uncompressed: the budget.
BUDGET_BYTES = 150_000
# Records (performance.now(), from the navigation's start) the moment the first screen's Play is in the page.
READY = """new MutationObserver((_, watch) => {
  if (document.getElementById("quick-game")) { window.playReady = performance.now(); watch.disconnect(); }
}).observe(document, {childList: true, subtree: true});"""
LONG_NAME = "W" * 20  # the longest name an account may take, in a wide letter
LONG_NAMES_BOARD = {
    "entries": [
        {
            "rank": r,
            "name": name,
            "kind": "human",
            "rating": 3000 - r,
            "games": 12345,
            "provisional": r > 3,
            "watch": f"m{r:011d}" if r % 2 else None,  # a Watch link on every other line
        }
        for r, name in enumerate([LONG_NAME[:19] + "1", LONG_NAME[:19] + "2", LONG_NAME[:19] + "3", LONG_NAME], 1)
    ],
    "next_cursor": "x",
}
SERIOUS = """async () => {
  const found = await axe.run(document, {resultTypes: ["violations"]});
  return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}"""


def axe_checked(page: Page, screen: str) -> None:
    """axe on the page as it is now: no serious or critical violation; and no sideways scroll at the phone's width."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    assert page.evaluate(SERIOUS) == [], screen
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE_SMALL["width"], f"{screen}: {wide} px wide"


def _own_bytes(responses: list[Response], base: str) -> int:
    """The bytes of the page's own .js and .css among `responses` (uncompressed bodies)."""
    own = [
        r
        for r in responses
        if r.url.startswith(base + "/web/") and r.url.split("?")[0].endswith((".js", ".css")) and r.status == 200
    ]
    assert own, [(r.url, r.status) for r in responses]
    return sum(len(r.body()) for r in own)


def test_every_screen_passes_axe_and_fits_a_phone(pages: PageFactory, live_server: str) -> None:
    """Rule: the first screen, More options, the waiting table, a table mid-hand, the score card, a match watched
    (mid-hand and at its end), a profile, the leaderboard, a replay and the account forms: 0 serious or critical axe
    violations, no sideways scroll at 375 px.
    The JS and CSS the first screen and the table load stay under 150 KB each (uncompressed)."""
    require_tool("axe-core", AXE.exists(), "cd clients/web && npm ci")
    page = pages(viewport=PHONE_SMALL)
    page.context.add_init_script(READY)
    loaded: list[Response] = []
    page.on("response", lambda response: loaded.append(response))
    page.goto(live_server + "/")
    page.wait_for_function("window.playReady !== undefined")
    first_bytes = _own_bytes(loaded, live_server)
    cold_ms = page.evaluate("window.playReady")
    page.reload()  # the browser's cache warm
    page.wait_for_function("window.playReady !== undefined")
    warm_ms = page.evaluate("window.playReady")
    axe_checked(page, "first screen")
    page.click("#more-options > summary")
    page.wait_for_selector("#create:not([disabled])")
    axe_checked(page, "more options")

    # a table opened straight from its link in a browser with nothing cached: what the table's screen loads
    waiting = call(live_server, "POST", "/v1/matches", {"seats": [{"name": "Ann"}, {"open": True}]})
    page = pages(viewport=PHONE_SMALL)
    seat = {waiting["match_id"]: {"seat": 0, "token": waiting["tokens"][0]["token"], "name": "Ann"}}
    page.context.add_init_script(
        f"localStorage.getItem('tienlen.seats') || localStorage.setItem('tienlen.seats', '{json.dumps(seat)}')"
    )
    loaded.clear()
    page.on("response", lambda response: loaded.append(response))
    page.goto(f"{live_server}/m/{waiting['match_id']}")
    page.wait_for_selector("#join-link")
    table_bytes = _own_bytes(loaded, live_server)
    axe_checked(page, "waiting table")

    name, token = account(live_server, "axe")
    made = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": name}, {"name": "Bo"}], "rules": {"hands": 1}, "deal": TWO_SEAT_DEAL},
        token,
    )
    match_id, ann, bo = made["match_id"], made["tokens"][0]["token"], made["tokens"][1]["token"]
    seat_at(page, live_server, match_id, 0, ann, name)
    page.wait_for_function(MY_TURN)
    page.click("#hand button[data-card='3S']")
    page.click("#hand button[data-card='3C']")
    page.click("#play")
    page.wait_for_selector("#log li[data-type=played]")
    axe_checked(page, "table mid-hand")
    watcher = pages(viewport=PHONE_SMALL)
    watcher.goto(f"{live_server}/m/{match_id}/watch")
    watcher.wait_for_selector("#table-play[data-seat]")
    axe_checked(watcher, "a match watched mid-hand")
    _play_out(live_server, match_id, {0: ann, 1: bo})
    page.wait_for_selector("#winner")
    page.wait_for_function("document.querySelector('#showing').textContent === ''")
    axe_checked(page, "score card")
    watcher.wait_for_selector("#final-title")
    axe_checked(watcher, "a match watched to its end")

    page.goto(f"{live_server}/p/{name}")
    page.wait_for_selector(f"a[href='/m/{match_id}/replay']")
    axe_checked(page, "profile")
    page.goto(f"{live_server}/m/{match_id}/replay")
    page.wait_for_selector("#replay-position")
    axe_checked(page, "replay")
    # the leaderboard as it looks with the longest names (20 letters, no space): whatever other tests left in it
    page.route("**/v1/leaderboard?*", lambda route: route.fulfill(json=LONG_NAMES_BOARD))
    page.goto(f"{live_server}/leaderboard")
    page.wait_for_selector(f'#leaders li[data-name="{LONG_NAME}"]')
    axe_checked(page, "leaderboard")
    page.unroute("**/v1/leaderboard?*")
    page.goto(f"{live_server}/account")
    page.wait_for_selector("#signup-name")
    axe_checked(page, "account")

    print(
        f"\nown JS+CSS loaded: first screen {first_bytes} B, table {table_bytes} B (budget {BUDGET_BYTES} B); "
        f"first screen's Play on screen {cold_ms:.0f} ms after navigation start ({warm_ms:.0f} ms cached)"
    )
    assert first_bytes < BUDGET_BYTES and table_bytes < BUDGET_BYTES, (first_bytes, table_bytes)


def _tab_to(page: Page, element_id: str, limit: int = 60) -> None:
    """Press Tab until `element_id` has the focus, which must be visible (an outline or a box shadow)."""
    for _ in range(limit):
        if page.evaluate("document.activeElement?.id") == element_id:
            ring = page.evaluate(
                "(s => s.outlineStyle !== 'none' && s.outlineWidth !== '0px' || s.boxShadow !== 'none')"
                "(getComputedStyle(document.activeElement))"
            )
            assert ring, f"#{element_id} has the focus unseen"
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def test_keyboard_alone_starts_a_quick_game_and_plays_a_card(pages: PageFactory, live_server: str) -> None:
    """Rule: with keys only, a player chooses a level, starts a Quick game and plays cards (Hint picks them, Play
    sends them; a pass when the hint says so), the focus visible at each step."""
    page = pages(viewport=PHONE_SMALL)
    page.goto(live_server + "/")
    page.wait_for_selector("#quick-game")
    _tab_to(page, "level-medium")
    page.keyboard.press("ArrowRight")  # the radio group: Hard
    assert page.is_checked("#level-hard")
    _tab_to(page, "quick-game")
    page.keyboard.press("Enter")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand button")
    cards = page.locator("#hand button").count()
    for _ in range(8):
        page.wait_for_function(MY_TURN)
        _tab_to(page, "hint")
        page.keyboard.press("Enter")
        page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
        page.wait_for_function(MY_TURN)
        assert page.evaluate("document.activeElement.id") == "hint"
        to = "play" if page.locator("#play:not([disabled])").count() else "pass"
        for _ in range(2):  # back from Hint past Pass (skipped when disabled) to Play
            if page.evaluate("document.activeElement.id") != to:
                page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == to
        page.keyboard.press("Enter")
        if to == "play":
            page.wait_for_function(f"document.querySelectorAll('#hand button').length < {cards}")
            return
        page.wait_for_function("document.querySelector('#hint-text').textContent === ''")
    raise AssertionError("no play in 8 turns")
