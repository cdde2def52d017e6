"""The browser table's pages (Debian's Chromium through Playwright): the lobby's options and lists, resuming after
a reload, two browsers at one match through its link, /docs offline, both languages, colour contrast."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import MY_TURN, TWO_SEAT_DEAL, call, held, seat_at

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.xdist_group("browser")


def test_lobby_creates_with_its_options_lists_open_matches_joins_by_link(pages: PageFactory, live_server: str) -> None:
    """Players, an open seat, preset, hands, scoring, clock and listing reach the created match; another browser
    sees it among the open matches and reaches its join form by pasting the link."""
    ann = pages()
    ann.goto(live_server + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "3")
    assert ann.locator("#seat-3").is_hidden()  # only the seats of 3 players
    ann.select_option("#seat-1", "open")
    ann.select_option("#seat-2", "hard")
    ann.select_option("#preset", "classic")
    ann.fill("#hands", "2")
    ann.select_option("#scoring", "wins")
    ann.fill("#turn-seconds", "45")
    ann.fill("#timeouts", "3")
    ann.check("#listed")
    ann.click("#create")
    link = ann.wait_for_selector("#join-link").get_attribute("href")  # type: ignore[union-attr]
    match_id, _, _ = held(ann)
    match = call(live_server, "GET", f"/v1/matches/{match_id}")
    assert (match["rules"]["preset"], match["rules"]["hands"], match["rules"]["scoring"]) == ("classic", 2, "wins")
    assert match["clock"] == {"turn_seconds": 45, "timeouts_before_takeover": 3}
    assert match["listed"] is True
    assert [(s["name"], s["bot"], s["open"]) for s in match["seats"]] == [
        ("Ann", None, False),
        (None, None, True),
        ("Bot 2", "hard", False),
    ]
    bo = pages()
    bo.goto(live_server + "/")
    bo.wait_for_selector(f"#open-matches a[href='/m/{match_id}']")
    bo.fill("#join-by-link", str(link))
    bo.click("#open-link")
    bo.wait_for_selector("#join-name")
    assert bo.url == link


def test_lobby_shows_the_servers_refusal(pages: PageFactory, live_server: str) -> None:
    """A match the server refuses (no scoring over two hands) shows the server's message."""
    page = pages()
    page.goto(live_server + "/")
    page.fill("#hands", "2")
    page.select_option("#scoring", "none")
    with page.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as caught:
        page.click("#create")
    assert caught.value.status == 422
    page.wait_for_function(
        "m => document.querySelector('#error').textContent === m", arg=caught.value.json()["message"]
    )


def test_reload_mid_hand_resumes_the_same_seat(pages: PageFactory, live_server: str) -> None:
    """The token kept in localStorage brings the page back to the same seat, cards and events; the lobby lists it."""
    page = pages()
    page.goto(live_server + "/")
    page.click("#create")
    page.wait_for_function(MY_TURN)
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")
    page.wait_for_function(f"document.querySelector('#winner') !== null || {MY_TURN}")
    before = page.locator("#hand button").all_inner_texts()
    log = page.locator("#log li").all_inner_texts()
    url = page.url
    page.reload()
    page.wait_for_selector("#hand button")
    assert page.url == url
    assert page.locator("#hand button").all_inner_texts() == before
    assert page.locator("#log li").all_inner_texts() == log  # the hand's events so far, in words
    match_id, _, seat = held(page)
    assert "(you)" in page.inner_text(f".seat[data-seat='{seat}']")
    page.goto(live_server + "/")
    page.click(f"#my-matches a[href='/m/{match_id}']")
    page.wait_for_selector("#hand button")
    assert page.locator("#hand button").all_inner_texts() == before


def _on_turn(first: Page, second: Page) -> tuple[Page, Page]:
    """(the page whose seat is on turn, the other), once one of them may act."""
    for _ in range(300):
        for mover, other in ((first, second), (second, first)):
            if mover.evaluate(MY_TURN):
                return mover, other
        first.wait_for_timeout(100)
    raise AssertionError("neither page came on turn")


def test_two_browsers_play_through_the_join_link_and_see_each_other(pages: PageFactory, live_server: str) -> None:
    """Ann creates a two-player match with an open seat; Bo opens the link and joins; each sees the other's
    plays live (the stream) and the seat on turn changes hands."""
    ann, bo = pages(), pages(viewport=PHONE)
    ann.goto(live_server + "/")
    ann.fill("#name", "Ann")
    ann.select_option("#players", "2")
    ann.select_option("#seat-1", "open")
    ann.click("#create")
    link = ann.wait_for_selector("#join-link").get_attribute("href")  # type: ignore[union-attr]
    bo.goto(str(link))
    bo.fill("#join-name", "Bo")
    bo.click("#join")
    for page in (ann, bo):
        page.wait_for_function("document.querySelectorAll('#hand button').length === 13")
    ann.wait_for_selector("#log li[data-type=seat_joined]")
    names = {id(ann): "Ann", id(bo): "Bo"}
    for _ in range(3):
        mover, other = _on_turn(ann, bo)
        seen = other.locator("#log li[data-type=played], #log li[data-type=passed]").count()
        mover.click("#hint")
        mover.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
        mover.click("#play" if mover.locator("#play:not([disabled])").count() else "#pass")
        other.wait_for_function(
            "n => document.querySelectorAll('#log li[data-type=played], #log li[data-type=passed]').length > n",
            arg=seen,
        )
        newest = other.locator("#log li[data-type=played], #log li[data-type=passed]").first.inner_text()
        assert newest.startswith(names[id(mover)]), newest


def test_docs_load_nothing_from_other_hosts(pages: PageFactory, live_server: str) -> None:
    """/docs renders the API with Swagger UI from this server's own files, the seats tag showing <token>."""
    page = pages()
    page.goto(live_server + "/docs")
    page.wait_for_selector(".swagger-ui .opblock")
    assert "Authorization: Bearer <token>" in page.inner_text("body")


def test_vietnamese_texts_switch_in_place_and_both_tables_have_every_text(pages: PageFactory, live_server: str) -> None:
    """Choosing Tiếng Việt shows the page in Vietnamese (cards spoken too) and the choice is kept; the two
    languages' tables have the same keys."""
    page = pages()
    page.goto(live_server + "/")
    missing = page.evaluate("""() => import('/web/js/i18n.js').then(({TEXTS}) => {
        const keys = Object.fromEntries(Object.entries(TEXTS).map(([lang, texts]) => [lang, Object.keys(texts)]));
        return {vi: keys.en.filter(k => !keys.vi.includes(k)), en: keys.vi.filter(k => !keys.en.includes(k))};
    })""")
    assert missing == {"vi": [], "en": []}
    page.select_option("#lang", "vi")
    page.wait_for_selector("text=Ván mới")
    page.reload()
    assert page.inner_text("#create") == "Tạo"
    assert page.evaluate("document.documentElement.lang") == "vi"
    created = call(
        live_server, "POST", "/v1/matches", {"seats": [{"name": "An"}, {"name": "Bo"}], "deal": TWO_SEAT_DEAL}
    )
    seat_at(page, live_server, created["match_id"], 0, created["tokens"][0]["token"], "An")
    page.wait_for_function(MY_TURN)
    assert page.get_attribute("#hand button[data-card='3S']", "aria-label") == "3 bích"
    assert page.inner_text("#play") == "Đánh"
    page.click("#hand button[data-card='3S']")
    page.click("#hand button[data-card='3C']")
    assert page.inner_text("#selection") == "đôi 3, được đánh ra"


CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


def _contrast(page: Page) -> list[str]:
    found = page.evaluate(CONTRAST)
    assert found["checked"] > 10
    return list(found["bad"])


def test_colours_pass_wcag_aa_contrast(pages: PageFactory, live_server: str) -> None:
    """Every text of the lobby and of the table (picked cards, disabled buttons, red suits, the felt, errors,
    results) has at least 4.5:1 contrast with what is behind it (3:1 when large); the check itself catches grey
    on white."""
    page = pages()
    page.goto(live_server + "/")
    page.wait_for_selector("#create")
    assert _contrast(page) == []
    page.evaluate("document.querySelector('main').insertAdjacentHTML('beforeend', '<p style=\"color:#999\">grey</p>')")
    assert len(_contrast(page)) == 1  # the checker sees a bad colour
    match_id, ann, _ = _seat_ann_with_a_table(live_server)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    page.click("#hand button[data-card='9D']")  # a picked red card; Play disabled
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.evaluate("document.querySelector('#error').textContent = 'a refusal'")
    assert _contrast(page) == []
    page.set_viewport_size(PHONE)
    assert _contrast(page) == []


def _seat_ann_with_a_table(base: str) -> tuple[str, str, str]:
    """TWO_SEAT_DEAL after Ann's pair of 3s and Bo's pair of 4s: Ann on turn with a play on the table."""
    created = call(base, "POST", "/v1/matches", {"seats": [{"name": "Ann"}, {"name": "Bo"}], "deal": TWO_SEAT_DEAL})
    match_id, ann, bo = created["match_id"], created["tokens"][0]["token"], created["tokens"][1]["token"]
    call(base, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["3S", "3C"]}, ann)
    call(base, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    return match_id, ann, bo
