"""A player's profile at /p/<name> (their matches, a page at a time) and a finished match's replay at
/m/<id>/replay, stepped by buttons and arrow keys."""

from __future__ import annotations

import secrets

import pytest

from tests.web.conftest import PHONE, SCREENSHOTS, PageFactory
from tests.web.support import TWO_SEAT_DEAL, account, call
from tests.web.test_table_pages import _contrast
from tests.web.test_table_play import _play_out

pytestmark = pytest.mark.xdist_group("browser-b")


def test_a_profile_lists_the_players_matches_newest_first_a_page_at_a_time(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: /p/<name> (any case) shows the player's kind, games and wins and their matches as GET .../matches
    answers them, newest first; "More" (by keyboard) brings the next page after the first and takes the focus to its
    first match, and is gone at the end; a bot's seat is no link; an unknown player is said so; a phone's width."""
    name, token = account(account_server, "Ivy")
    for _ in range(3):
        created = call(
            account_server,
            "POST",
            "/v1/matches",
            {"seats": [{"name": name}, {"name": "Bot", "bot": "easy"}], "rules": {"hands": 1}},
            token,
        )
        _play_out(account_server, created["match_id"], {0: token})
    kept = call(account_server, "GET", f"/v1/players/{name}/matches")["matches"]
    assert len(kept) == 3
    wins = sum(1 for match in kept if match["seats"][0]["place"] == 1)
    page = account_pages(viewport=PHONE)
    # pages of two (the page asks for the server's default size): the second page comes by "More"
    page.route(
        "**/v1/players/*/matches*",
        lambda route: route.continue_(url=route.request.url + ("&" if "?" in route.request.url else "?") + "limit=2"),
    )
    page.goto(f"{account_server}/p/{name.upper()}")
    page.wait_for_selector("#history li.kept")
    assert page.inner_text("#profile-h") == name
    assert page.locator("#profile-facts dd").all_inner_texts()[2:] == ["3", str(wins), "0"]  # matches, wins, followers
    assert page.locator("#history li.kept").evaluate_all("ls => ls.map(l => l.dataset.match)") == [
        m["match_id"] for m in kept[:2]
    ]
    assert page.locator("#history .kept-seats a").count() == 2  # the player's own seats link; the bot's do not
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert _contrast(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "profile-phone.png"), full_page=True)
    page.focus("#more")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#history li.kept').length === 3")
    assert page.evaluate("document.activeElement.closest('li.kept')?.dataset.match") == kept[2]["match_id"]
    assert page.locator("#more").is_hidden()
    page.goto(f"{account_server}/p/nobody_{secrets.token_hex(4)}")
    page.wait_for_function("document.querySelector('#error')?.textContent === 'No such player.'")


def test_a_replay_steps_through_the_match_by_buttons_and_arrow_keys(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: /m/<id>/replay shows a finished match from its deal (every seat's 13 cards face up), one move per Next
    or → (back with Previous or ←), each move in words; its last move shows the winner and the scores, Next is then
    disabled and the focus moves to Previous; at 375 px nothing scrolls sideways."""
    created = call(
        account_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"hands": 1}, "deal": TWO_SEAT_DEAL},
    )
    match_id = created["match_id"]
    _play_out(account_server, match_id, {0: created["tokens"][0]["token"], 1: created["tokens"][1]["token"]})
    replay = call(account_server, "GET", f"/v1/matches/{match_id}/replay")
    actions = replay["hands"][0]["actions"]
    page = account_pages(viewport=PHONE)
    page.goto(f"{account_server}/m/{match_id}/replay")
    page.wait_for_selector("#replay-seats li")
    assert page.evaluate("document.activeElement.id") == "next"
    assert page.inner_text("#replay-move") == "Hand 1 starts"
    # each step is announced whole: where the replay is and the move made there
    assert page.get_attribute("#replay-now", "aria-live") == "polite"
    assert page.locator("#replay-now #replay-position, #replay-now #replay-move").count() == 2
    assert [page.locator(f"#replay-seats li[data-seat='{s}'] .face").count() for s in (0, 1)] == [13, 13]
    assert page.is_disabled("#prev")
    page.click("#next")
    first = actions[0]
    assert (first["seat"], first["type"]) == (0, "play") and "3S" in first["cards"]  # Ann holds 3S: she leads
    assert page.inner_text("#replay-move").startswith("Ann played ")
    assert page.inner_text("#replay-table").startswith("Last play, by Ann:")
    assert page.locator("#replay-seats li[data-seat='0'] .face").count() == 13 - len(first["cards"])
    assert page.get_attribute("#replay-seats li[data-seat='0']", "aria-current") == "true"
    page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-position") == f"Hand 1 of 1, move 2 of {len(actions)}"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-position") == f"Hand 1 of 1, move 0 of {len(actions)}"
    assert page.locator("#replay-winner").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for _ in actions:
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-position") == f"Hand 1 of 1, move {len(actions)} of {len(actions)}"
    winner = replay["seats"][replay["result"]["winner"]]["name"]
    assert page.inner_text("#replay-winner") == f"Winner of the match: {winner}!"
    assert page.is_disabled("#next") and page.evaluate("document.activeElement.id") == "prev"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "replay-phone.png"), full_page=True)
    assert _contrast(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
