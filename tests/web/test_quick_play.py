"""Quick play and ratings at the browser table: Play now seats a signed-in account at a rated table of 4 (house bots
in the seats nobody took within the fill time), its account's token acting for the seat, over a reload too; a search
lives as long as the lobby and can be cancelled, and one held elsewhere (409 already_queued) is said and can be
cancelled from here; at the end of a rated match the table shows each rated seat's rating change."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE, QUEUE_FILL_S, SCREENSHOTS, PageFactory
from tests.web.support import MY_TURN, PASSWORD, account, call, more_options, new_name
from tests.web.test_accounts_rooms import _play_to_the_end, _signed_in
from tests.web.test_table_pages import _contrast

pytestmark = pytest.mark.xdist_group("browser-b")

# A table is found within the fill time and a few seconds more (the sweeper's round, the long poll's answer).
FOUND_WITHIN_MS = (QUEUE_FILL_S + 8) * 1000


def _texts(page: Page, lang: str) -> dict[str, str]:
    """The page's texts in ``lang``, by key."""
    return dict(page.evaluate("l => import('/web/js/i18n.js').then(({TEXTS}) => TEXTS[l])", lang))


def _focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement?.id ?? ''"))


def _session_token(page: Page) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('tienlen.account')).token"))


def test_play_now_seats_the_account_at_a_table_with_three_bots_within_the_fill_time(
    queue_pages: PageFactory, queue_server: str
) -> None:
    """Rule: signed up in the page (on a phone), the lobby offers Play now first; pressing it says "Finding a
    table…" with Cancel focused, and within the fill time (and a few seconds) the table of a rated 4-seat match
    opens with the account at one seat and house bots at the 3 others; the account's own token acts for the seat
    (no seat token is given): the table keeps working over a reload, and on the seat's turn Hint and Play work."""
    name = new_name("quick")
    page = queue_pages(viewport=PHONE)
    page.goto(queue_server + "/account")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    page.wait_for_url(queue_server + "/")
    play = page.locator("#play-now")
    expect(play).to_have_text("Play now")
    shown = page.locator("main > section:visible").evaluate_all("ss => ss.map(s => s.id)")
    assert shown[:2] == ["start-panel", "play-now-panel"], shown  # next to Play, at the top of the first screen
    assert play.bounding_box()["y"] + 40 < page.viewport_size["height"]  # type: ignore[index]  # above the fold
    wide = "document.documentElement.scrollWidth"
    assert page.evaluate(wide) <= PHONE["width"]
    assert _contrast(page) == []
    play.click()
    expect(page.locator("#queue-status")).to_have_text("Finding a table…")
    assert _focused(page) == "queue-cancel"
    assert page.evaluate(wide) <= PHONE["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lobby-phone-finding-a-table.png"), full_page=True)
    page.wait_for_url("**/m/*", timeout=FOUND_WITHIN_MS)
    page.wait_for_selector(".seat[data-seat='3']")
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    match = call(queue_server, "GET", f"/v1/matches/{match_id}")
    assert match["rated"] and match["rules"]["players"] == 4
    mine = [s["seat"] for s in match["seats"] if s["name"] == name]
    assert len(mine) == 1 and [s["bot"] is not None for s in match["seats"]].count(True) == 3
    seat = mine[0]
    for box in range(4):
        shown = page.inner_text(f".seat[data-seat='{box}']")
        assert (f"{name} (you)" in shown) == (box == seat), shown
        assert (re.search(r"bot: (easy|medium|hard|expert)", shown) is not None) == (box != seat), shown
    token = _session_token(page)
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('tienlen.seats'))['{match_id}']")
    assert kept == {"seat": seat, "token": token, "name": name}

    page.reload()
    page.wait_for_selector(f".seat[data-seat='{seat}']")
    assert f"{name} (you)" in page.inner_text(f".seat[data-seat='{seat}']")
    page.wait_for_function(MY_TURN)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    moves = page.locator(f"#log li[data-seat='{seat}']:is([data-type='played'], [data-type='passed'])")
    before = moves.count()
    page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")
    expect(moves).to_have_count(before + 1)
    page.click("#leave")
    page.click("#leave-yes")
    page.wait_for_url(queue_server + "/")


def test_a_search_is_cancelled_and_one_held_elsewhere_is_said_and_cancelled_from_here(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: one ticket an account: with one queued elsewhere (over the API: another browser), Play now says so
    (409 already_queued) and offers to cancel that search, which leaves the queue; a search lives as long as the
    lobby: it goes on over a language switch (the same ticket), Cancel ends it (the focus back on Play now), and a
    reload or signing out ends it too. This server fills its tables after 15 s: each search here ends well before."""
    name, token = account(account_server, "held")
    elsewhere = call(account_server, "POST", "/v1/queue", {"players": 4}, token)
    page = account_pages()
    _signed_in(page, account_server, name, token)
    page.goto(account_server + "/")
    en = _texts(page, "en")
    page.click("#play-now")
    expect(page.locator("#queue-error")).to_have_text(en["queue_held"])
    assert _focused(page) == "queue-wait-held"
    assert page.locator("#play-now").is_hidden()
    page.click("#queue-cancel-held")
    expect(page.locator("#queue-status")).to_have_text(en["queue_cancelled"])
    assert _focused(page) == "play-now"
    assert _status(account_server, elsewhere["ticket"], token) == "left"

    ticket = _play_now(page)
    page.select_option("#lang", "vi")
    vi = _texts(page, "vi")
    expect(page.locator("#queue-status")).to_have_text(vi["finding_table"])
    expect(page.locator("#queue-cancel")).to_have_text(vi["cancel_search"])
    assert _status(account_server, ticket, token) == "waiting"  # the same search, waited for again
    page.focus("#queue-cancel")
    page.keyboard.press("Enter")
    expect(page.locator("#queue-status")).to_have_text(vi["queue_cancelled"])
    expect(page.locator("#play-now")).to_have_text(vi["play_now"])
    assert _focused(page) == "play-now"
    assert _status(account_server, ticket, token) == "left"

    ticket = _play_now(page)
    page.reload()
    expect(page.locator("#play-now")).to_be_visible()
    expect(page.locator("#queue-status")).to_have_text("")
    for _ in range(50):  # the page going away sent DELETE (keepalive): it is answered soon after
        if _status(account_server, ticket, token) == "left":
            break
        page.wait_for_timeout(100)
    assert _status(account_server, ticket, token) == "left"

    ticket = _play_now(page)
    page.click("#sign-out")  # revokes the page's session (the token of this test)
    page.wait_for_selector("#sign-in-link")
    assert page.locator("#play-now-panel").is_hidden()
    again = call(account_server, "POST", "/v1/sessions", {"name": name, "password": PASSWORD})["token"]
    assert _status(account_server, ticket, again) == "left"


def _status(base: str, ticket: str, token: str) -> str:
    """The ticket's status, over the API."""
    return str(call(base, "GET", f"/v1/queue/{ticket}", token=token)["status"])


def _play_now(page: Page) -> str:
    """Press Play now; once the page says it is finding a table, the ticket it waits for."""
    with page.expect_response(lambda r: r.url.endswith("/v1/queue") and r.request.method == "POST") as queued:
        page.click("#play-now")
    assert queued.value.status == 202
    lang = page.evaluate("document.documentElement.lang")
    expect(page.locator("#queue-status")).to_have_text(_texts(page, lang)["finding_table"])
    assert _focused(page) == "queue-cancel"
    return str(queued.value.json()["ticket"])


def test_play_now_is_offered_only_signed_in(account_pages: PageFactory, account_server: str) -> None:
    """Rule: signed out, the lobby has no Play now (quick play takes an account)."""
    page = account_pages()
    page.goto(account_server + "/")
    more_options(page)
    assert page.locator("#play-now").is_hidden()


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_end_of_a_rated_match_shows_each_rated_seats_rating_change(
    account_pages: PageFactory, account_server: str, lang: str
) -> None:
    """Rule: a rated match (a 2-seat ladder challenge to the house bot easy, one hand) played to its end at the
    table shows, under its winner, each rated seat's rating before and after with the difference, as the player's
    kept match has them; the account's token acts for its seat (the table opened from the link, no seat kept)."""
    name, token = account(account_server, "rc")
    rated = {"to": ["easy"], "players": 2, "preset": "ladder", "rated": True}
    match_id = call(account_server, "POST", "/v1/challenges", rated, token)["match_id"]
    page = account_pages()
    _signed_in(page, account_server, name, token)
    page.goto(account_server + "/")
    page.select_option("#lang", lang)
    texts = _texts(page, lang)
    page.goto(f"{account_server}/m/{match_id}")
    page.wait_for_selector("#board")
    _play_to_the_end([page])
    rows = page.locator("#rating-list li")
    expect(rows).to_have_count(2)
    expect(page.locator("#rating-changes-h")).to_have_text(texts["rating_changes"])
    kept = call(account_server, "GET", f"/v1/players/{name}/matches")["matches"][0]
    assert kept["match_id"] == match_id
    assert kept["rated"]
    for seat in kept["seats"]:
        before, after = seat["rating_before"], seat["rating_after"]
        diff = after - before
        who = f"{seat['name']} ({texts['you']})" if seat["seat"] == kept["seat"] else seat["name"]
        line = page.locator(f"#rating-list li[data-seat='{seat['seat']}']").inner_text()
        assert line == f"{who}: {before} → {after} ({'+' if diff >= 0 else '−'}{abs(diff)})", line
    assert _contrast(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#results").screenshot(path=str(SCREENSHOTS / f"table-rating-change-{lang}.png"))


def test_a_finished_unrated_match_shows_no_rating_change(account_pages: PageFactory, account_server: str) -> None:
    """Rule: only a rated match shows rating changes at its end."""
    name, token = account(account_server, "casual")
    made = call(account_server, "POST", "/v1/challenges", {"to": ["easy"], "players": 2, "preset": "ladder"}, token)
    page = account_pages()
    _signed_in(page, account_server, name, token)
    page.goto(f"{account_server}/m/{made['match_id']}")
    page.wait_for_selector("#board")
    _play_to_the_end([page])
    assert page.locator("#rating-changes").count() == 0
