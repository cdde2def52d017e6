"""The live table on the first screen: the match to watch now, its players, and a Watch button to its table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import MODERATOR_TOKEN, PHONE
from tests.web.support import call
from tests.web.test_axe_phone import axe_checked

if TYPE_CHECKING:
    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-c")


def test_the_first_screen_shows_the_featured_live_match_and_watch_opens_its_table(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: the first screen shows the live table (GET /v1/live): the featured match, marked, with its players and
    how many watch; Watch opens its watched table; on a phone it fits, and axe finds nothing."""
    seats = [{"name": "Lan"}, {"name": "Bot", "bot": "easy"}]
    created = call(social_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 3}})
    match_id = created["match_id"]
    call(social_server, "PUT", "/v1/live/featured", {"match_id": match_id}, token=MODERATOR_TOKEN)
    page = social_pages(viewport=PHONE)
    page.goto(social_server + "/")
    page.wait_for_selector("#live-watch")
    assert "Live now" in page.inner_text("#live-h") and "Featured" in page.inner_text("#live-h")
    assert page.locator("#live-players li").all_inner_texts() == ["Lan", "Bot (bot: easy)"]
    assert page.inner_text("#live-facts").startswith("hand 1 · ")
    axe_checked(page, "the first screen with a live table")
    page.click("#live-watch")
    page.wait_for_url(f"**/m/{match_id}/watch")
    page.wait_for_selector("#seats .seat[data-seat='1']")
    assert page.inner_text("#watch-title") == "Watching: Lan, Bot"
    call(social_server, "DELETE", "/v1/live/featured", token=MODERATOR_TOKEN)
