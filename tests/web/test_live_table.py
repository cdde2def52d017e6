"""Where to watch from: the live table on the first screen, and a profile (Follow, and its player's live matches)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import MODERATOR_TOKEN, PHONE
from tests.web.support import account, call
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


def test_a_profile_offers_follow_and_watch_links_to_the_matches_its_player_plays(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: a signed-in visitor of another player's profile follows it (Follow, then Unfollow; the followers' count
    follows), and each watchable match the player plays now has a Watch link to its watched table."""
    player, player_token = account(social_server, "played")
    visitor, visitor_token = account(social_server, "visitor")
    seats = [{"name": player}, {"name": "Bot", "bot": "easy"}]
    created = call(social_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 3}}, token=player_token)
    page = social_pages()
    page.goto(social_server + "/")
    page.evaluate(
        "s => localStorage.setItem('tienlen.account', JSON.stringify(s))", {"name": visitor, "token": visitor_token}
    )
    page.goto(f"{social_server}/p/{player}")
    page.wait_for_selector("#follow:enabled")
    assert page.inner_text("#follow") == "Follow" and page.inner_text("#followers") == "0"
    page.click("#follow")
    page.wait_for_selector("#follow[aria-pressed='true']")
    assert page.inner_text("#follow") == "Unfollow" and page.inner_text("#followers") == "1"
    following = call(social_server, "GET", "/v1/me/following", token=visitor_token)["following"]
    assert [f["name"] for f in following] == [player]
    page.click(f"#playing li[data-match='{created['match_id']}'] a.watch-link")
    page.wait_for_url(f"**/m/{created['match_id']}/watch")
    page.wait_for_selector("#seats .seat[data-seat='1']")
    page.go_back()
    page.wait_for_selector("#follow:enabled")
    page.click("#follow")
    page.wait_for_selector("#follow[aria-pressed='false']")
    assert page.inner_text("#followers") == "0"
    assert call(social_server, "GET", "/v1/me/following", token=visitor_token)["following"] == []


def test_the_friends_page_lists_whom_one_follows_playing_first_with_watch_and_the_setting(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: /friends (linked from the account bar) lists the accounts followed, one playing first with a Watch link
    to its match, one away after it; Unfollow takes one off; the friends inbox setting is read and changed there,
    and once on, the page's inbox says when a followed account starts a match (friend_started), with Watch."""
    me, my_token = account(social_server, "fan")
    player, player_token = account(social_server, "star")
    quiet, _ = account(social_server, "quiet")
    for name in (player, quiet):
        call(social_server, "PUT", f"/v1/me/following/{name}", token=my_token)
    seats = [{"name": player}, {"name": "Bot", "bot": "easy"}]
    created = call(social_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 3}}, token=player_token)
    page = social_pages()
    page.goto(social_server + "/")
    page.evaluate("s => localStorage.setItem('tienlen.account', JSON.stringify(s))", {"name": me, "token": my_token})
    page.goto(social_server + "/")
    page.click("#friends-link")
    page.wait_for_url("**/friends")
    page.wait_for_selector("#friends-list li.friend")
    assert page.locator("#friends-list li.friend").evaluate_all("items => items.map(i => i.dataset.name)") == [
        player,
        quiet,
    ]
    assert "playing" in page.inner_text(f"#friends-list li[data-name='{player}']")
    assert "away" in page.inner_text(f"#friends-list li[data-name='{quiet}']")
    page.wait_for_selector("#friends-setting:enabled")
    assert not page.is_checked("#friends-setting")
    page.check("#friends-setting")
    page.wait_for_selector("#friends-setting:enabled")
    assert call(social_server, "GET", "/v1/me/settings", token=my_token)["friends"] is True
    # the setting on, the inbox tells when a followed account starts a match, with a Watch link
    again = call(social_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 3}}, token=player_token)
    notice = page.wait_for_selector(f"#inbox .challenge-notice:has-text('{player} started a match.') a.watch-link")
    assert notice is not None and notice.get_attribute("href") == f"/m/{again['match_id']}/watch"
    page.click(f"#friends-list li[data-name='{quiet}'] button")
    page.wait_for_function(f"!document.querySelector(\"#friends-list li[data-name='{quiet}']\")")
    assert [f["name"] for f in call(social_server, "GET", "/v1/me/following", token=my_token)["following"]] == [player]
    page.click(f"#friends-list li[data-name='{player}'] a.watch-link")
    page.wait_for_url(f"**/m/{created['match_id']}/watch")
