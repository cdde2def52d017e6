"""A seat that has gone out of its hand watches the rest of it: the other seats' plays come quicker than the table's
pace, and Skip (keyboard reachable, announced) shows them at once, in order, then the hand's review with the same
scores as the server's."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE
from tests.web.support import MY_TURN, call, pick, seat_at
from tests.web.test_axe_phone import AXE, PHONE_SMALL, _tab_to, axe_checked

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-b")

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
# Seat 0 holds a run of twelve spades, 3 to ace: it leads it (it holds the 3 of spades), nothing beats it, and it is
# out at once. The three bots share the other suits' 39 cards (the 2 of spades is dealt to no one).
OUT_AT_ONCE = [[f"{rank}S" for rank in RANKS[:12]]] + [
    [card for i, card in enumerate(f"{rank}{suit}" for suit in "CDH" for rank in RANKS) if i % 3 == seat]
    for seat in range(3)
]
# A pace no test waits out: a play shown at it would keep the review away for minutes.
SLOW_MS = 600_000
REVIEWING = "(r => r !== null && !r.hidden)(document.querySelector('#review'))"


def _seated_against_bots(page: Page, base: str) -> str:
    """Seat the page at a two-hand match of seat 0 (OUT_AT_ONCE) against three bots; its id."""
    created = call(
        base,
        "POST",
        "/v1/matches",
        {
            "seats": [{"name": "Ann"}] + [{"name": f"Bot {n}", "bot": "medium"} for n in (1, 2, 3)],
            "rules": {"hands": 2},
            "deal": OUT_AT_ONCE,
        },
    )
    match_id: str = created["match_id"]
    seat_at(page, base, match_id, 0, created["tokens"][0]["token"], "Ann")
    return match_id


def _go_out(page: Page) -> None:
    """The page's seat plays its run of twelve: out of the hand."""
    page.wait_for_function(MY_TURN)
    pick(page, OUT_AT_ONCE[0])
    page.click("#play")
    page.wait_for_selector("#log li[data-type=went_out][data-seat='0']")


def _check_review_is_the_servers(page: Page, base: str, match_id: str) -> None:
    """The review of hand 1 holds the server's scores, and the log every event of the hand, in order."""
    match = call(base, "GET", f"/v1/matches/{match_id}")
    first = match["hands"][0]
    assert page.inner_text("#review-title") == "Hand 1 is over"
    assert page.locator("#review-scores tr.total td").all_inner_texts() == [str(p) for p in first["points"]]
    events = call(base, "GET", f"/v1/matches/{match_id}/events?after=0")["events"]
    ended = next(e["seq"] for e in events if e["type"] == "hand_ended")
    shown = [int(s) for s in page.locator("#log li").evaluate_all("lis => lis.map((li) => li.dataset.seq)")]
    hand = [e["seq"] for e in events if e["seq"] <= ended and e["type"] != "seat_joined"]
    assert sorted(s for s in shown if s <= ended) == hand
    assert shown[::-1][: len(hand)] == hand  # newest first: read backwards, in order
    assert page.locator("#out-watch").is_hidden()


def test_skip_by_keyboard_shows_the_rest_of_the_hand_at_once_then_its_review(
    pages: PageFactory, live_server: str
) -> None:
    """Rule: once its seat is out, the page offers Skip (announced, reached by Tab, pressed by Enter), which shows the
    rest of the hand at once and its review, with the server's scores; axe finds nothing serious at 375 px. Here
    the rest of the hand comes at a pace of minutes, so only Skip brings the review."""
    require_axe = AXE.exists()
    page = pages(viewport=PHONE_SMALL, pace=SLOW_MS)
    page.context.add_init_script(f"localStorage.setItem('tienlen.pace.out', '{SLOW_MS}')")
    match_id = _seated_against_bots(page, live_server)
    _go_out(page)
    page.wait_for_selector("#skip:visible")
    assert page.inner_text("#out-line") == "You are out: the other seats' plays come quicker."
    assert page.get_attribute("#out-line", "role") == "status"
    assert page.inner_text("#skip") == "Skip to the hand's end"
    assert not page.evaluate(REVIEWING)
    if require_axe:
        axe_checked(page, "a seat out of its hand")
    page.evaluate("document.activeElement?.blur()")
    _tab_to(page, "skip")
    page.keyboard.press("Enter")
    page.wait_for_function(REVIEWING)
    _check_review_is_the_servers(page, live_server, match_id)
    assert page.evaluate("document.activeElement.id") == "next-hand"


def test_a_seat_out_sees_the_rest_quicker_than_the_tables_pace(pages: PageFactory, live_server: str) -> None:
    """Rule: once its seat is out, the other seats' plays come at a quarter of the page's pace, at most 200 ms: at a
    pace of minutes between plays the review still comes (without Skip), with the server's scores."""
    page = pages(viewport=PHONE, pace=SLOW_MS)
    match_id = _seated_against_bots(page, live_server)
    _go_out(page)
    page.wait_for_selector("#out-watch:visible")
    page.wait_for_function(REVIEWING)
    _check_review_is_the_servers(page, live_server, match_id)


def test_skip_is_in_both_languages(pages: PageFactory, live_server: str) -> None:
    """Rule: Skip and its line are in the page's language (Vietnamese here)."""
    page = pages(pace=SLOW_MS)
    page.context.add_init_script(
        f"localStorage.setItem('tienlen.pace.out', '{SLOW_MS}'); localStorage.setItem('tienlen.lang', 'vi')"
    )
    _seated_against_bots(page, live_server)
    _go_out(page)
    page.wait_for_selector("#skip:visible")
    assert page.inner_text("#skip") == "Bỏ qua đến cuối ván"
    assert page.inner_text("#out-line") == "Bạn đã hết bài: các lượt đánh còn lại sẽ nhanh hơn."
