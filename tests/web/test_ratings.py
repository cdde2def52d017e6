"""Ratings at the browser table: a rated challenge sent from a house bot's profile and played to its end moves the
player's rating, which the profile shows per table size (with the provisional mark) and, in the match list, as the
match's change; the leaderboard lists the player."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import PageFactory
from tests.web.support import account, call
from tests.web.test_accounts_rooms import _play_to_the_end, _signed_in

pytestmark = pytest.mark.xdist_group("browser-b")


def test_a_rated_challenge_played_out_shows_the_rating_and_the_change_on_the_profile(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: signed in, a house bot's profile offers Challenge (Rated on by default), which opens the new match's
    table at the account's seat; after the rated match the profile lists the rating of its table size with its rated
    games and the provisional mark, and the match's entry says the rating before and after with the difference; the
    leaderboard (the header's link) lists the player at that table size and the house bots under Bots, each name a
    link to its profile."""
    name, token = account(account_server, "rated")
    page = account_pages()
    page.goto(f"{account_server}/p/{name}")
    page.wait_for_selector("#ratings")
    assert page.inner_text("#ratings") == "No rated matches yet."
    _signed_in(page, account_server, name, token)
    page.goto(f"{account_server}/p/easy")
    page.wait_for_selector("#challenge")
    assert page.is_checked("#challenge-rated")
    page.select_option("#challenge-players", "2")
    page.click("#challenge")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#board")
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    seated = call(account_server, "GET", f"/v1/matches/{match_id}")
    assert seated["rated"] and seated["seats"][0]["name"] == name
    _play_to_the_end([page])
    # the match is kept just after its end: the table's rating change, read from the kept match, says it is
    page.locator("#rating-list li[data-seat='0']").wait_for()  # the challenger's seat
    kept = call(account_server, "GET", f"/v1/players/{name}/matches")["matches"][0]
    mine = next(s for s in kept["seats"] if s["seat"] == kept["seat"])
    before, after = mine["rating_before"], mine["rating_after"]
    assert kept["rated"] and before == 1500 and isinstance(after, int)
    page.goto(f"{account_server}/p/{name}")
    page.wait_for_selector("#history .kept")
    line = page.locator('#ratings li[data-players="2"]').inner_text()
    assert re.fullmatch(rf"2 players: {after} \(1 rated matches\) provisional", line), line
    diff = after - before
    sign = "+" if diff >= 0 else "−"
    change = page.locator(f'#history .kept[data-match="{match_id}"] .rating-change').inner_text()
    assert change == f"Rating: {before} → {after} ({sign}{abs(diff)})"
    page.click("#board-link")
    row = page.locator(f'#leaders li[data-name="{name}"]')
    row.wait_for()
    assert row.inner_text().endswith(f"{name}: {after} (1 rated matches) provisional"), row.inner_text()
    page.select_option("#board-kind", "bot")
    page.locator('#leaders li[data-name="easy"]').wait_for()
    page.select_option("#board-kind", "human")
    row.locator("a").click()
    page.wait_for_url(f"**/p/{name}")
    page.wait_for_selector('#ratings li[data-players="2"]')
