"""The tournaments' pages: the first screen links them; /tournaments lists upcoming, running and finished ones with
Join / Withdraw and creates one (a refusal in words); /t/<id> joins and withdraws, says "Your table is ready" with
a link that opens the account's seat, shows each round's tables and the standings as they change, to the final
ones; in Vietnamese; on a phone with no serious axe violation."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE
from tests.web.support import account, call
from tests.web.test_axe_phone import axe_checked
from tests.web.test_table_play import _play_out

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-c")

LATER = "2100-01-01T00:00:00Z"


def _signed_in(page: Page, base: str, name: str, token: str, lang: str = "en") -> None:
    """Keep the account's session (as signing in does) and the page's language in the page's localStorage."""
    page.goto(base + "/")
    page.evaluate(
        "([session, lang]) => { localStorage.setItem('tienlen.account', JSON.stringify(session));"
        " localStorage.setItem('tienlen.lang', lang); }",
        [{"name": name, "token": token}, lang],
    )


def _tournament(base: str, token: str, **terms: object) -> str:
    """A Swiss of one round at tables of 2 made over the API (changed by ``terms``); its id."""
    body = {"name": "Cup", "format": "swiss", "players": 2, "rounds": 1, "hands": 1, "min_entrants": 2}
    made = call(base, "POST", "/v1/tournaments", body | {"max_entrants": 2} | terms, token)
    return str(made["tournament_id"])


def test_the_list_creates_joins_and_withdraws(pages: PageFactory, live_server: str) -> None:
    """Rule: the first screen links /tournaments; a signed-in account creates a tournament with the form (its page
    opens), joins and withdraws there; the upcoming list shows it with its facts and Join, which joins (then
    Withdraw); terms the server refuses are shown in words (`bad_terms`), nothing created."""
    name, token = account(live_server, "tour")
    page = pages()
    _signed_in(page, live_server, name, token)
    page.goto(live_server + "/")
    page.click("#tournaments-link")
    page.wait_for_selector("#t-open")
    page.fill("#t-name", "Evening Swiss")
    page.select_option("#t-players", "2")
    page.fill("#t-min", "4")
    page.fill("#t-max", "2")  # fewer than the fewest: refused
    page.click("#t-create")
    page.wait_for_selector("#t-create-error:not(:empty)")
    assert page.inner_text("#t-create-error").startswith("These terms do not hold")
    page.fill("#t-max", "6")
    page.select_option("#t-start", "at")
    page.fill("#t-start-at", "2099-12-31T20:00")
    page.click("#t-create")
    page.wait_for_url("**/t/*")
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#t-name")
    assert page.inner_text("#t-name") == "Evening Swiss"
    assert "Swiss · tables of 2 · 0/6 entrants · starts" in page.inner_text("#t-facts")
    page.click("#t-join")
    page.wait_for_selector(f"#t-entrants li[data-name='{name}']")
    page.click("#t-withdraw")
    page.wait_for_selector("#t-join")
    assert "(withdrew)" in page.inner_text(f"#t-entrants li[data-name='{name}']")
    page.click("#t-back")
    item = page.locator(f"#t-open li[data-tournament='{tid}']")
    item.locator("button[data-action=join]").click()
    item.locator("button[data-action=withdraw]").wait_for()
    assert "1/6 entrants" in item.inner_text() and "bots allowed" in item.inner_text()
    entrants = call(live_server, "GET", f"/v1/tournaments/{tid}")["entrants"]
    assert [(e["name"], e["withdrawn"]) for e in entrants] == [(name, False)]


def test_a_tournament_page_seats_its_table_and_follows_the_standings(pages: PageFactory, live_server: str) -> None:
    """Rule: on a phone, the entry that fills the tournament (Join on its page) starts it: "Your table is ready"
    links the account's own table, which opens as its seat; once the round's match is played (over the API) the
    page, following the events, shows the table ended with its replay, the final standings and the status
    finished; the bot entrant is marked; the player's profile then lists the tournament with its place; axe finds
    nothing serious on the page open, seated and finished, nor on the profile."""
    _, creator_token = account(live_server, "host")
    name, token = account(live_server, "seat")
    bot = call(live_server, "POST", "/v1/accounts", {"name": f"b{name}", "password": "a long password!", "kind": "bot"})
    tid = _tournament(live_server, creator_token, bots=True)
    call(live_server, "PUT", f"/v1/tournaments/{tid}/entry", None, bot["token"])
    page = pages(viewport=PHONE)
    _signed_in(page, live_server, name, token)
    page.goto(f"{live_server}/t/{tid}")
    page.wait_for_selector("#t-join")
    assert page.inner_text(f"#t-entrants li[data-name='b{name}']").endswith("bot")
    axe_checked(page, "a tournament open")
    page.click("#t-join")
    page.wait_for_selector("#t-ready #t-go-table")
    assert page.get_attribute("#t-status", "data-status") == "running"
    seated = call(live_server, "GET", f"/v1/tournaments/{tid}", token=token)
    you = seated["you"]
    (table,) = seated["rounds"][0]["tables"]
    assert page.locator(f"li[data-match='{table['match_id']}']").inner_text().startswith("Table 1:")
    axe_checked(page, "a tournament seated")
    page.click("#t-go-table")
    page.wait_for_url(f"**/m/{you['match_id']}")
    page.wait_for_selector("#hand")
    page.goto(f"{live_server}/t/{tid}")
    page.wait_for_selector("#t-standings")
    tokens = {you["seat"]: token, 1 - you["seat"]: bot["token"]}
    _play_out(live_server, you["match_id"], tokens)
    page.wait_for_selector("#t-status[data-status=finished]")
    page.wait_for_selector(f"li[data-match='{table['match_id']}'] a[href$='/replay']")
    assert page.inner_text("#t-standings caption") == "Final standings"
    rows = page.locator("#t-standings tbody tr")
    assert rows.count() == 2 and {rows.nth(i).get_attribute("data-name") for i in range(2)} == {name, f"b{name}"}
    assert page.locator("#t-ready").count() == 0
    axe_checked(page, "a tournament finished")
    # the player's profile lists the tournament, its place of 2, linked to its page
    rank = next(i + 1 for i in range(2) if rows.nth(i).get_attribute("data-name") == name)
    page.goto(f"{live_server}/p/{name}")
    page.wait_for_selector(f"#placings li[data-tournament='{tid}']")
    line = page.locator(f"#placings li[data-tournament='{tid}']")
    assert f"place {rank} of 2" in line.inner_text() and "Swiss" in line.inner_text()
    assert line.locator("a").get_attribute("href") == f"/t/{tid}"
    axe_checked(page, "a profile with tournaments")


def test_the_tournaments_in_vietnamese_on_a_phone(pages: PageFactory, live_server: str) -> None:
    """Rule: in Vietnamese the lists, the facts and the form read Vietnamese; at 375 px nothing scrolls sideways and
    axe finds nothing serious (the lists and the form)."""
    name, token = account(live_server, "viet")
    tid = _tournament(live_server, token, starts_at=LATER, max_entrants=4, rated=True)
    page = pages(viewport={"width": 375, "height": 667})
    _signed_in(page, live_server, name, token, "vi")
    page.goto(f"{live_server}/tournaments")
    page.wait_for_selector(f"#t-open li[data-tournament='{tid}']")
    assert page.inner_text("#t-h") == "Giải đấu" and page.inner_text("#t-open-h") == "Sắp diễn ra"
    facts = page.inner_text(f"#t-open li[data-tournament='{tid}'] .t-facts")
    assert "Hệ Thuỵ Sĩ · bàn 2 người · 0/4 người dự" in facts and "tính điểm xếp hạng" in facts
    assert page.inner_text("#t-create-h") == "Tạo giải đấu"
    axe_checked(page, "the tournaments in Vietnamese")


def test_the_inbox_says_your_table_is_ready_on_any_page_and_opens_it(pages: PageFactory, live_server: str) -> None:
    """Rule: a signed-in account whose tournament table is dealt hears it on whatever page it is (here the
    leaderboard): "Your table is ready: round 1, table 1." with a link that opens the table as its seat."""
    _, creator_token = account(live_server, "host")
    name, token = account(live_server, "away")
    _, other_token = account(live_server, "other")
    tid = _tournament(live_server, creator_token)
    page = pages()
    _signed_in(page, live_server, name, token)
    page.goto(f"{live_server}/leaderboard")
    page.wait_for_selector("#leaders", state="attached")
    page.wait_for_timeout(500)  # the inbox listens from its last event on
    call(live_server, "PUT", f"/v1/tournaments/{tid}/entry", None, token)
    call(live_server, "PUT", f"/v1/tournaments/{tid}/entry", None, other_token)  # full: it starts
    you = call(live_server, "GET", f"/v1/tournaments/{tid}", token=token)["you"]
    notice = page.locator(f"#inbox [data-challenge='table-{you['match_id']}']")
    notice.wait_for()
    assert notice.inner_text().startswith("Your table is ready: round 1, table 1.")
    notice.locator("a.table-link").click()
    page.wait_for_url(f"**/m/{you['match_id']}")
    page.wait_for_selector("#hand button")
    assert page.locator(f"#inbox [data-challenge='table-{you['match_id']}']").count() == 0
