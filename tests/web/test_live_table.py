"""Where to watch from: the live table on the first screen (and more live tables below it), a profile (Follow, and its
player's live matches), the friends page and the leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import MODERATOR_TOKEN, PHONE
from tests.web.support import account, call
from tests.web.test_axe_phone import axe_checked
from tests.web.test_table_play import _play_out

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


def test_the_first_screen_lists_more_live_tables_each_with_a_watch_link(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: below the live table, "More live tables" lists the live table's ``others`` (never its match): each
    one's players, table size, hand and spectators, and a Watch link named after its players that opens its watched
    table; on a phone it fits, and axe finds nothing."""
    seats = [{"name": "Lan"}, {"name": "Bot", "bot": "easy"}]
    made = [
        call(social_server, "POST", "/v1/matches", {"seats": [{"name": name}, seats[1]], "rules": {"hands": 3}})
        for name in ("Mai", "Hoa", "Tuan")
    ]
    featured = made[0]["match_id"]
    mine = [m["match_id"] for m in made[1:]]
    call(social_server, "PUT", "/v1/live/featured", {"match_id": featured}, token=MODERATOR_TOKEN)
    try:
        page = social_pages(viewport=PHONE)
        page.goto(social_server + "/")
        page.wait_for_selector("#live-others li")
        assert page.inner_text("#live-more-h") == "More live tables"
        listed = page.locator("#live-others li").evaluate_all("items => items.map(i => i.dataset.match)")
        assert featured not in listed and [m for m in listed if m in mine] == mine[::-1]  # the newest first
        line = page.locator(f"#live-others li[data-match='{mine[1]}']")
        assert line.inner_text() == "Tuan, Bot · 2 players · hand 1 · 0 watching Watch"
        link = line.locator("a.watch-link")
        assert link.get_attribute("aria-label") == "Watch the match of Tuan, Bot"
        assert link.get_attribute("href") == f"/m/{mine[1]}/watch"
        axe_checked(page, "the first screen with more live tables")
        link.click()
        page.wait_for_url(f"**/m/{mine[1]}/watch")
        page.wait_for_selector("#seats .seat[data-seat='1']")
        assert page.inner_text("#watch-title") == "Watching: Tuan, Bot"
    finally:
        call(social_server, "DELETE", "/v1/live/featured", token=MODERATOR_TOKEN)
        for created in made:  # their tables end: the other tests' live table is theirs again
            call(social_server, "POST", f"/v1/matches/{created['match_id']}/leave", token=created["tokens"][0]["token"])


def test_the_leaderboard_links_watch_to_the_match_a_leader_plays(social_pages: PageFactory, social_server: str) -> None:
    """Rule: on the leaderboard, a player who plays a watchable match now has a Watch link (named after the player)
    that opens its watched table; a house bot on the Bots board has none; in Vietnamese it reads "Xem"; on a phone
    it fits, and axe finds nothing."""
    name, token = account(social_server, "leader")
    rated = {"to": ["easy"], "players": 2, "preset": "ladder", "rated": True}
    started = call(social_server, "POST", "/v1/challenges", rated, token)
    _play_out(social_server, started["match_id"], {0: token})
    seats = [{"name": name}, {"name": "Bot", "bot": "easy"}]
    playing = call(social_server, "POST", "/v1/matches", {"seats": seats, "rules": {"hands": 3}}, token)["match_id"]
    try:
        page = social_pages(viewport=PHONE)
        page.goto(f"{social_server}/leaderboard")
        link = page.locator(f'#leaders li[data-name="{name}"] a.watch-link')
        link.wait_for()
        assert link.inner_text() == "Watch" and link.get_attribute("aria-label") == f"Watch {name}'s match"
        assert link.get_attribute("href") == f"/m/{playing}/watch"
        axe_checked(page, "the leaderboard with a Watch link")
        page.select_option("#board-kind", "bot")
        page.locator('#leaders li[data-name="easy"]').wait_for()
        assert page.locator("#leaders a.watch-link").count() == 0
        page.select_option("#board-kind", "human")
        link.wait_for()
        page.select_option("#lang", "vi")
        vietnamese = page.locator(f'#leaders li[data-name="{name}"] a.watch-link')
        vietnamese.wait_for()
        assert vietnamese.inner_text() == "Xem" and vietnamese.get_attribute("aria-label") == f"Xem ván của {name}"
        page.select_option("#lang", "en")
        link.wait_for()
        link.click()
        page.wait_for_url(f"**/m/{playing}/watch")
        page.wait_for_selector("#seats .seat[data-seat='1']")
    finally:
        call(social_server, "POST", f"/v1/matches/{playing}/leave", token=token)
