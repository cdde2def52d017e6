"""The first screen: one large Play (a Quick game of one hand against three bots at the level chosen), Match
(several hands), "Join with a code", and the full options behind "More options"; the last choices are kept, so a
returning player starts in one click; on a 375 x 667 phone nothing scrolls sideways."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.web.support import call, held, more_options

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-a")

PHONE_SMALL = {"width": 375, "height": 667}
WIDE = "document.documentElement.scrollWidth"


def _started(page: Page, base: str) -> dict[str, Any]:
    """The match the page was just taken to (its table open): its public state."""
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand button")
    match_id, _, seat = held(page)
    assert seat == 0
    found: dict[str, Any] = call(base, "GET", f"/v1/matches/{match_id}")
    return found


def test_first_screen_plays_in_one_click_keeps_the_choices_and_hides_the_form(
    pages: PageFactory, live_server: str
) -> None:
    """Rule: on a 375 x 667 phone the first screen shows Play (large, above the fold), the level, Match and "Join
    with a code", no form of a new match until "More options" opens it, and no sideways scroll (More options open
    too); Play starts a one-hand game against three bots at the chosen level; Match starts a match of the hands
    chosen; back on the first screen the choices are kept, and Play alone starts the next game; the choices of the
    full form under More options are kept too."""
    page = pages(viewport=PHONE_SMALL)
    page.goto(live_server + "/")
    play = page.wait_for_selector("#quick-game")
    assert play is not None
    box = play.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE_SMALL["height"], box  # above the fold
    assert box["height"] >= 48  # large: the screen's main button
    for shown in ("#level-easy", "#level-medium", "#level-hard", "#match-game", "#room-code-input"):
        assert page.is_visible(shown), shown
    assert page.is_checked("#level-medium")  # the first visit: Medium
    assert page.is_hidden("#create") and page.is_hidden("#players")  # the full form waits behind More options
    assert page.evaluate(WIDE) <= PHONE_SMALL["width"]
    page.click("#more-options > summary")
    page.wait_for_selector("#create:not([disabled])")
    assert page.is_visible("#players") and page.is_visible("#turn-seconds")
    assert page.evaluate(WIDE) <= PHONE_SMALL["width"]

    page.check("#level-hard")
    page.click("#quick-game")
    quick = _started(page, live_server)
    assert quick["rules"]["hands"] == 1
    assert [s.get("bot") for s in quick["seats"]] == [None, "hard", "hard", "hard"]
    assert page.evaluate(WIDE) <= PHONE_SMALL["width"]

    page.goto(live_server + "/")
    page.wait_for_selector("#quick-game")
    assert page.is_checked("#level-hard")  # kept
    page.check("#level-easy")
    page.select_option("#match-hands", "2")
    page.click("#match-game")
    match = _started(page, live_server)
    assert match["rules"]["hands"] == 2
    assert [s.get("bot") for s in match["seats"]] == [None, "easy", "easy", "easy"]

    page.goto(live_server + "/")  # a returning player: one click
    page.click("#quick-game")
    again = _started(page, live_server)
    assert again["rules"]["hands"] == 1 and again["seats"][1]["bot"] == "easy"
    page.goto(live_server + "/")
    assert page.input_value("#match-hands") == "2"
    assert page.is_visible("#mine-panel")  # the games started: to resume

    more_options(page)  # the full form's choices are kept too
    page.select_option("#players", "3")
    page.select_option("#seat-1", "hard")
    page.fill("#hands", "2")
    page.fill("#turn-seconds", "30")
    page.click("#create")
    made = _started(page, live_server)
    assert made["rules"]["hands"] == 2 and [s.get("bot") for s in made["seats"]] == [None, "hard", "medium"]
    page.goto(live_server + "/")
    more_options(page)
    kept = [page.input_value(f"#{field}") for field in ("players", "seat-1", "seat-2", "hands", "turn-seconds")]
    assert kept == ["3", "hard", "medium", "2", "30"]


def test_first_screen_in_vietnamese(pages: PageFactory, live_server: str) -> None:
    """Rule: every text of the first screen is in Vietnamese when Tiếng Việt is chosen."""
    page = pages(viewport=PHONE_SMALL)
    page.goto(live_server + "/")
    page.select_option("#lang", "vi")
    page.wait_for_function("document.querySelector('#quick-game')?.textContent === 'Chơi'")
    assert page.inner_text("#match-game") == "Trận đấu"
    assert page.inner_text("#more-options > summary") == "Thêm tùy chọn"
    assert "Khó" in page.inner_text("#level")
    assert page.evaluate(WIDE) <= PHONE_SMALL["width"]
