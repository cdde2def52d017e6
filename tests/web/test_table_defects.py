"""Defects of the browser table found in use, each with the rule it broke: the waiting table fits a phone, a seat
left is asked about no more, "wait for your turn" ends with the match, Hint leaves the focus where it was, Leave
asks first, and every log line begins with a capital letter (in English and Vietnamese)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import MY_TURN, TWO_SEAT_DEAL, call, pick, seat_at
from tests.web.test_table_play import _play_out

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request

pytestmark = pytest.mark.xdist_group("browser-b")

LANGUAGES = ["en", "vi"]
WAIT_FOR_YOUR_TURN = {"en": "wait for your turn", "vi": "chờ đến lượt bạn"}
LEAVE_QUESTION = {"en": "Leave the match?", "vi": "Rời trận đấu?"}
YOU_PLAYED_THE_3S = {"en": "You played pair of 3s", "vi": "Bạn đánh đôi 3"}
A_BOT_PLAYS_FOR_BO = {"en": "A bot (bot: medium) plays for Bo", "vi": "Máy (máy: vừa) chơi thay Bo"}


def _two_remote_seats(base: str, hands: int = 1) -> tuple[str, str, str]:
    """A two-player match of remote seats Ann (0) and Bo (1) on TWO_SEAT_DEAL: (match id, Ann's, Bo's token)."""
    created = call(
        base,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"hands": hands}, "deal": TWO_SEAT_DEAL},
    )
    return created["match_id"], created["tokens"][0]["token"], created["tokens"][1]["token"]


def _in_language(page: Page, base: str, lang: str) -> None:
    """Choose the page's language in the menu (kept in localStorage for the pages that follow)."""
    page.goto(base + "/")
    page.select_option("#lang", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_waiting_table_with_its_share_link_fits_a_phone(pages: PageFactory, live_server: str, lang: str) -> None:
    """Rule: at 375 px the table of a match with an open seat (the share link shown) scrolls no sideways; the link
    wraps inside the width and still reads (and copies) whole."""
    created = call(live_server, "POST", "/v1/matches", {"seats": [{"name": "Ann"}, {"open": True}]})
    match_id = created["match_id"]
    page = pages(viewport=PHONE)
    _in_language(page, live_server, lang)
    seat_at(page, live_server, match_id, 0, created["tokens"][0]["token"], "Ann")
    link = page.wait_for_selector("#join-link")
    assert link is not None
    href = link.get_attribute("href")
    assert href is not None and href.endswith(f"/m/{match_id}")
    assert link.inner_text().replace("\n", "") == href  # the whole link, to read and copy
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = link.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


def test_after_leave_nothing_is_asked_with_the_revoked_token(pages: PageFactory, live_server: str) -> None:
    """Rule: once the leave is answered the page makes no request with the seat's token (it is revoked: each such
    request would be a 401), though Leave comes while a bot's play is still being shown at the page's pace (the
    showing used to end in a read of the view)."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {
            "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}],
            "rules": {"hands": 1},
            "deal": TWO_SEAT_DEAL,
            "seed": 1,  # the bot's choice follows the seed: with this one it answers the pair of 3s
        },
    )
    match_id, ann = created["match_id"], created["tokens"][0]["token"]
    page = pages(pace=2_500)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    sent: list[str] = []  # the page's requests carrying the token, and the moment the leave was answered

    def record(request: Request) -> None:
        if request.headers.get("authorization") == f"Bearer {ann}":
            sent.append(f"{request.method} {request.url}")

    page.on("request", record)
    page.on("response", lambda response: sent.append("answered") if response.url.endswith("/leave") else None)
    pick(page, ["3S", "3C"])
    page.click("#play")
    page.wait_for_selector("#log li[data-type=played][data-seat='1']")  # the bot's answer, shown for 2.5 s
    assert page.inner_text("#showing") != "", "the bot's play is still being shown"
    page.click("#leave")
    page.click("#leave-yes")
    page.wait_for_url(live_server + "/")
    page.wait_for_selector("#quick-game")
    page.wait_for_timeout(3_500)  # the showing of the bot's play is over meanwhile
    assert "answered" in sent, sent
    assert sent[sent.index("answered") + 1 :] == [], sent
    assert call(live_server, "GET", f"/v1/matches/{match_id}")["seats"][0]["left"] is True


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wait_for_your_turn_is_gone_once_the_match_is_over(pages: PageFactory, live_server: str, lang: str) -> None:
    """Rule: after the match's end no "wait for your turn" remains on the page, with no card picked or with one."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages()
    _in_language(page, live_server, lang)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    _play_out(live_server, match_id, {0: ann, 1: bo})
    page.wait_for_selector("#winner")
    page.wait_for_function("document.querySelector('#showing').textContent === ''")  # every event shown
    assert WAIT_FOR_YOUR_TURN[lang] not in page.inner_text("body").lower()
    if page.locator("#hand button").count():
        page.locator("#hand button").first.click()
        assert WAIT_FOR_YOUR_TURN[lang] not in page.inner_text("body").lower()


@pytest.mark.parametrize("by", ["keyboard", "click"])
def test_hint_explains_a_suggested_action_and_may_select_cards(pages: PageFactory, live_server: str, by: str) -> None:
    """Rule (the reference game's words): "Hint explains a suggested action and may select cards." Hint (Enter on
    it, or a click) says the action and why, picks exactly the advised cards in the hand, and leaves the focus on
    Hint, not on a card."""
    match_id, ann, _ = _two_remote_seats(live_server)
    page = pages()
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    with page.expect_response(lambda r: r.url.endswith("/hint")) as caught:
        if by == "keyboard":
            page.focus("#hint")
            page.keyboard.press("Enter")
        else:
            page.click("#hint")
    advice = caught.value.json()
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.wait_for_function(MY_TURN)
    assert advice["action"]["type"] == "play"  # the lead, with 3♠
    picked = page.locator("#hand button[aria-pressed=true]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert sorted(picked) == sorted(advice["action"]["cards"])
    said = page.inner_text("#hint-text")
    what, _, why = said.partition(". ")
    assert what.startswith("Hint: ") and len(what) > len("Hint: ") and why.strip(), said  # the action, and why
    assert page.is_enabled("#play")  # the picked cards can be played at once
    assert page.evaluate("document.activeElement.id") == "hint"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_leave_asks_first_no_keeps_the_seat_yes_leaves(pages: PageFactory, live_server: str, lang: str) -> None:
    """Rule: Leave asks "Leave the match?" inline (the focus on No); No (or Escape) keeps the seat, asking nothing
    of the server and putting the focus back on Leave; Yes, reached by the keyboard, leaves."""
    match_id, ann, _ = _two_remote_seats(live_server)
    page = pages()
    _in_language(page, live_server, lang)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    leaves: list[str] = []
    page.on("request", lambda request: leaves.append(request.url) if request.url.endswith("/leave") else None)
    assert page.is_hidden("#leave-confirm")
    page.click("#leave")
    assert page.is_visible("#leave-confirm") and page.is_hidden("#leave")
    assert page.inner_text("#leave-question") == LEAVE_QUESTION[lang]
    assert page.get_attribute("#leave-confirm", "role") == "group"
    assert page.evaluate("document.activeElement.id") == "leave-no"
    page.keyboard.press("Enter")  # No
    assert page.is_hidden("#leave-confirm") and page.evaluate("document.activeElement.id") == "leave"
    page.keyboard.press("Enter")  # Leave again, then Escape
    assert page.evaluate("document.activeElement.id") == "leave-no"
    page.keyboard.press("Escape")
    assert page.is_hidden("#leave-confirm") and page.evaluate("document.activeElement.id") == "leave"
    page.wait_for_timeout(500)
    assert leaves == []
    assert match_id in page.evaluate("localStorage.getItem('tienlen.seats')")
    assert call(live_server, "GET", f"/v1/matches/{match_id}")["seats"][0]["left"] is False
    page.keyboard.press("Enter")  # Leave, then Shift+Tab to Yes and Enter
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "leave-yes"
    page.keyboard.press("Enter")
    page.wait_for_url(live_server + "/")
    assert call(live_server, "GET", f"/v1/matches/{match_id}")["seats"][0]["left"] is True
    assert match_id not in (page.evaluate("localStorage.getItem('tienlen.seats')") or "")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_log_line_begins_with_a_capital_letter(pages: PageFactory, live_server: str, lang: str) -> None:
    """Rule: each line of the log begins with a capital letter, the ones that begin with "you" or "a bot" too."""
    match_id, ann, bo = _two_remote_seats(live_server, hands=2)
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["3S", "3C"]}, ann)
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    call(live_server, "POST", f"/v1/matches/{match_id}/leave", token=bo)  # a bot takes Bo's seat
    page = pages()
    _in_language(page, live_server, lang)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_selector("#log li[data-type=seat_taken_over]")
    lines = page.locator("#log li").all_inner_texts()
    assert YOU_PLAYED_THE_3S[lang] in lines and A_BOT_PLAYS_FOR_BO[lang] in lines, lines
    assert [line for line in lines if not line[:1].isupper() and not line[:1].isdigit()] == [], lines


def test_the_turn_highlight_moves_with_each_play_shown(pages: PageFactory, live_server: str) -> None:
    """Rule: while another seat's play is being shown (at the page's pace) the seat highlighted as on turn is the one
    whose turn that play made it, not the one of the view read before it (it used to catch up only after the pause)."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages(pace=3_000)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    pick(page, ["3S", "3C"])
    page.click("#play")
    page.wait_for_selector("#seats .on-turn[data-seat='1']")  # Bo's turn
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    page.wait_for_selector("#log li[data-type=played][data-seat='1']")  # Bo's pair, shown for 3 s
    assert page.inner_text("#showing") != "", "Bo's play is still being shown"
    assert page.locator("#seats .on-turn").evaluate_all("ss => ss.map(s => s.dataset.seat)") == ["0"]
