"""The browser table as a card table: the felt with the seats round it (initials, card backs, the clock ring), the
your-turn cue, the hand fanned and sorted by rank or grouped by combination, plays that fly to the middle (not under
prefers-reduced-motion), sounds off until turned on, and "A legal selection can play automatically when it cannot be
extended into a larger legal combination." as a setting the player can turn off. Also the screenshots of docs/."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import MY_TURN, TWO_SEAT_DEAL, call, pick, seat_at, selection

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.xdist_group("browser-a")

# Counts the cards set flying (Element.animate) and the tones played (oscillators), before the page's own scripts.
WATCH = """
window.__flown = 0; window.__tones = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) { window.__flown++; return animate.apply(this, args); };
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones++; return oscillator.call(this); };
"""
# A third seat with a few cards (a deal may hold fewer than 13 a seat), none that beats Ann's pair of 9s.
CY = ["5D", "6D", "7C"]
HAND = "[...document.querySelectorAll('#hand button')].map((b) => b.dataset.card)"


def _posts(page: Page) -> list[str]:
    """The actions the page sends from now on (a list that fills as they go)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None)
    return sent


def test_the_felt_the_fanned_hand_auto_play_on_and_off_motion_and_sounds(pages: PageFactory, live_server: str) -> None:
    """Ann (this page) against Bo and Cy (over the API) on TWO_SEAT_DEAL and CY. The seats sit on the felt with
    initials and the others' cards as backs; it is Ann's turn: the cue shows. Grouping the hand puts pairs and runs
    together (kept). With auto-play on (the default) a single 3 that a pair could hold waits, the pair of 3s plays
    by itself and flies in. Cy, pass-locked, is greyed. Turned off, a pair of 9s waits for Play. Sounds are off
    until turned on; then Ann's next turn beeps. Under prefers-reduced-motion nothing flies."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {
            "seats": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}],
            "rules": {"hands": 1},
            "deal": [*TWO_SEAT_DEAL, CY],
        },
    )
    match_id, bo, cy = created["match_id"], created["tokens"][1]["token"], created["tokens"][2]["token"]
    page = pages(autoplay=True, motion=True)
    page.context.add_init_script(WATCH)
    seat_at(page, live_server, match_id, 0, created["tokens"][0]["token"], "Ann")
    page.wait_for_function(MY_TURN)
    # the felt and its seats
    assert page.locator("#board.felt #seats .seat").count() == 3
    assert page.inner_text(".seat[data-seat='1'] .initials") == "BO"
    assert page.inner_text(".seat[data-seat='0'] .initials") == "AN"
    assert page.locator(".seat[data-seat='1'] .backs .back").count() == 13
    assert page.locator(".seat[data-seat='0'] .backs").count() == 0  # your own cards are face up below
    assert page.locator(".seat.on-turn[data-seat='0'] .ring-left").count() == 1
    # the your-turn cue
    assert page.locator("#turn-cue").is_visible() and page.inner_text("#turn-cue") == "Your turn"
    assert page.locator("#mine.my-turn").count() == 1
    # sorted by rank, or grouped by combination (the choice kept)
    by_rank = page.evaluate(HAND)
    assert by_rank[:3] == ["3S", "3C", "5S"]
    page.click("#sort")
    assert page.get_attribute("#sort", "aria-pressed") == "true"
    starts = page.locator("#hand .card.group-start").evaluate_all("(bs) => bs.map((b) => b.dataset.card)")
    assert starts == ["3S", "5S", "9S", "JS", "2S"]  # 3 3 | 5 6 7 8 | 9 9 | J Q K A | 2
    assert page.evaluate("localStorage.getItem('tienlen.sort')") == "group"
    page.click("#sort")
    assert page.evaluate(HAND) == by_rank
    # auto-play on: a selection a larger play holds waits; one that none holds plays by itself
    page.click("summary:has-text('Table settings')")
    assert page.is_checked("#autoplay") and not page.is_checked("#sounds")
    sent = _posts(page)
    flown = page.evaluate("window.__flown")
    pick(page, ["3S"])
    page.wait_for_timeout(600)
    assert sent == [] and page.get_attribute("#hand button[data-card='3S']", "aria-pressed") == "true"
    page.click("#hand button[data-card='3C']")  # the pair of 3s: nothing larger holds it
    page.wait_for_selector("#log li[data-type=played][data-seat='0']")
    assert page.inner_text("#log li[data-type=played][data-seat='0']") == "You played pair of 3s"
    assert len(sent) == 1
    assert page.evaluate("window.__flown") >= flown + 2  # both cards flew to the middle
    assert page.locator("#turn-cue").is_hidden()
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    page.wait_for_selector(".seat.on-turn[data-seat='2']")
    assert "Bo played pair of 4s" in page.inner_text("#table-play")
    assert page.locator(".seat[data-seat='1'] .backs .back").count() == 11
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "pass"}, cy)
    page.wait_for_function(MY_TURN)
    # Cy is pass-locked: its seat greyed (and it says so in words)
    assert page.locator(".seat.passed").evaluate_all("(ss) => ss.map((s) => s.dataset.seat)") == ["2"]
    grey = page.eval_on_selector(".seat[data-seat='2']", "s => getComputedStyle(s).backgroundColor")
    assert grey == "rgb(220, 220, 220)"
    assert "passed" in page.inner_text(".seat[data-seat='2'] .seat-facts")
    # auto-play off (kept): the pair of 9s waits for Play; sounds on
    page.uncheck("#autoplay")
    page.check("#sounds")
    assert page.evaluate("[localStorage.getItem('tienlen.autoplay'), localStorage.getItem('tienlen.sound')]") == [
        "off",
        "on",
    ]
    assert page.evaluate("window.__tones") == 0  # no sound until turned on
    pick(page, ["9S", "9D"])
    page.wait_for_timeout(600)
    assert len(sent) == 1 and selection(page) == "pair of 9s, beats the table"
    page.click("#play")
    page.wait_for_function("document.querySelectorAll('#log li[data-type=played][data-seat=\"0\"]').length === 2")
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "pass"}, bo)
    page.wait_for_function(MY_TURN)  # both others pass-locked: Ann leads again
    assert page.locator(".seat.passed").count() == 0
    page.wait_for_function("window.__tones > 0")  # your turn, with sounds on
    # reduced motion: the next play lands without flying
    page.emulate_media(reduced_motion="reduce")
    flown = page.evaluate("window.__flown")
    pick(page, ["5S"])
    page.click("#play")
    page.wait_for_function("document.querySelectorAll('#log li[data-type=played][data-seat=\"0\"]').length === 3")
    page.wait_for_function("document.querySelector('#table-play [data-card=\"5S\"]') !== null")
    assert page.evaluate("window.__flown") == flown


# The screenshots of docs/screenshots/ (shown in the README): written only with TIENLEN_DOC_SHOTS=1, so a test run
# does not rewrite committed files; without it the test checks the committed ones are there.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SHOTS = [
    f"{screen}-{lang}-{device}.png"
    for screen in ("first-screen", "table", "score-card")
    for lang in ("en", "vi")
    for device in ("desktop", "phone")
]


# A two-hand match of Ann against one bot of each level (the screenshots' matches)
ANN_AGAINST_THREE_BOTS = {
    "seats": [
        {"name": "Ann"},
        {"name": "Bot 1", "bot": "easy"},
        {"name": "Bot 2", "bot": "medium"},
        {"name": "Bot 3", "bot": "hard"},
    ],
    "rules": {"hands": 2},
}


def _finished_match(base: str) -> tuple[str, str]:
    """A two-hand match of Ann against three bots, played over the API by hints to its end: (its id, Ann's token)."""
    created = call(base, "POST", "/v1/matches", ANN_AGAINST_THREE_BOTS)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    for _ in range(300):
        view = call(base, "GET", f"/v1/matches/{match_id}/view", token=token)
        if view["status"] == "finished":
            return match_id, token
        if view["turn"] != view["seat"]:
            call(base, "GET", f"/v1/matches/{match_id}/events?after={view['last_seq']}&wait=1")
            continue
        action = call(base, "GET", f"/v1/matches/{match_id}/hint", token=token)["action"]
        call(base, "POST", f"/v1/matches/{match_id}/actions", action | {"version": view["version"]}, token)
    raise AssertionError("the match did not end")


def _write_the_screenshots(pages: PageFactory, live_server: str) -> None:
    """The first screen, a table mid-hand (a hint shown) and the final score card, in English and Vietnamese, on a
    desktop and a 375 x 667 phone."""
    DOCS.mkdir(parents=True, exist_ok=True)
    mid = call(live_server, "POST", "/v1/matches", ANN_AGAINST_THREE_BOTS | {"clock": {"turn_seconds": 600}})
    mid_id, mid_token = mid["match_id"], mid["tokens"][0]["token"]
    done_id, done_token = _finished_match(live_server)
    phone = {"width": PHONE["width"], "height": 667}
    for lang in ("en", "vi"):
        for device, viewport in (("desktop", None), ("phone", phone)):
            page = pages(viewport=viewport, motion=True)
            page.goto(live_server + "/")
            page.evaluate("lang => localStorage.setItem('tienlen.lang', lang)", lang)
            page.reload()
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(DOCS / f"first-screen-{lang}-{device}.png"))
            seat_at(page, live_server, mid_id, 0, mid_token, "Ann")
            page.wait_for_function(MY_TURN)
            page.click("#hint")
            page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
            page.evaluate("document.querySelector('#board').scrollIntoView({block: 'start'})")
            page.screenshot(path=str(DOCS / f"table-{lang}-{device}.png"))
            seat_at(page, live_server, done_id, 0, done_token, "Ann")
            page.wait_for_selector("#standings")
            # the card with as much of the felt above it as fits
            page.evaluate(
                "b => document.querySelector('#results').scrollIntoView({block: b})", "start" if viewport else "end"
            )
            page.screenshot(path=str(DOCS / f"score-card-{lang}-{device}.png"))


def test_the_screenshots_of_the_docs_are_committed(pages: PageFactory, live_server: str) -> None:
    """Each screenshot the README shows is in docs/screenshots/ and nothing else is; with TIENLEN_DOC_SHOTS=1 they
    are made first (the lead runs that after a change to the pages; CI only checks)."""
    if os.environ.get("TIENLEN_DOC_SHOTS") == "1":
        _write_the_screenshots(pages, live_server)
    assert sorted(p.name for p in DOCS.glob("*.png")) == sorted(SHOTS), (
        "run TIENLEN_DOC_SHOTS=1 pytest tests/web/test_table_felt.py to make them"
    )
