"""The review of a finished match on its replay page: asked for by a button, loaded only then (review.js)."""

from __future__ import annotations

import pytest

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import TWO_SEAT_DEAL, call
from tests.web.test_axe_phone import axe_checked
from tests.web.test_table_play import _play_out

pytestmark = pytest.mark.xdist_group("browser-b")


def test_the_replay_shows_each_moves_grade_once_the_review_is_asked_for(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: review.js is not loaded with the replay; "Review the moves" loads it, queues the review (202) and asks
    again until the server's sweeper has computed it; then each move shows its grade, and a move graded below
    good its better move on the cards; a line of each seat's first-place chance over the hand, written out too."""
    created = call(
        account_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"hands": 1}, "deal": TWO_SEAT_DEAL},
    )
    match_id = created["match_id"]
    _play_out(account_server, match_id, {0: created["tokens"][0]["token"], 1: created["tokens"][1]["token"]})
    page = account_pages(viewport=PHONE)
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto(f"{account_server}/m/{match_id}/replay")
    page.wait_for_selector("#replay-seats li")
    assert not any(url.endswith("/review.js") for url in loaded), "the review's code waits for the button"
    page.click("#review-load")
    page.wait_for_selector("#review-button[hidden]", state="attached", timeout=60_000)
    assert any(url.endswith("/review.js") for url in loaded)
    page.click("#next")
    page.wait_for_selector("#replay-review .review-grade")
    grades = []
    for _ in range(len(call(account_server, "GET", f"/v1/matches/{match_id}/replay")["hands"][0]["actions"]) - 1):
        grades.append(page.inner_text("#replay-review .review-grade"))
        if page.locator("#replay-review .review-better").count():
            assert page.locator("#replay-review .review-better .face").count() or "pass" in page.inner_text(
                "#replay-review .review-better"
            )
        page.click("#next")
    assert set(grades) <= {"Good move", "Inaccuracy", "Mistake", "Blunder", "Only move"}
    assert grades
    # each seat's first-place chance over the hand: a line a seat, the figures written out in the legend
    chart = page.locator("#review-chance")
    assert chart.locator("figcaption").inner_text().startswith("First-place chance over hand 1")
    assert chart.locator("polyline.chance").count() == 2
    for seat, who in enumerate(("Ann", "Bo")):
        points = chart.locator(f"polyline[data-seat='{seat}']").get_attribute("points") or ""
        ys = [float(p.split(",")[1]) for p in points.split()]
        assert len(ys) >= 2 and all(-0.5 <= value <= 120.5 for value in ys)  # chances 0..1 drawn on 120 units
        assert chart.locator(f".chance-legend li[data-seat='{seat}']").inner_text().startswith(f"{who}: ")
    axe_checked(page, "a replay with its review")
