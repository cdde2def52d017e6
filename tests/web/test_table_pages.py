"""The browser table's pages (Debian's Chromium through Playwright): the lobby's options and lists, resuming after
a reload, two browsers at one match through its link, /docs offline, both languages, colour contrast."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, SCREENSHOTS, PageFactory
from tests.web.support import MY_TURN, TWO_SEAT_DEAL, call, held, more_options, pick, seat_at

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

pytestmark = pytest.mark.xdist_group("browser-a")


def test_lobby_creates_with_its_options_lists_open_matches_joins_by_link(pages: PageFactory, live_server: str) -> None:
    """Players, an open seat, preset, hands, scoring, clock and listing reach the created match; another browser
    sees it among the open matches and reaches its join form by pasting the link."""
    ann = pages()
    ann.goto(live_server + "/")
    more_options(ann)
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
    more_options(bo)
    bo.wait_for_selector(f"#open-matches a[href='/m/{match_id}']")
    bo.fill("#join-by-link", str(link))
    bo.click("#open-link")
    bo.wait_for_selector("#join-name")
    assert bo.url == link


def test_lobby_reads_the_rules_from_the_contract_and_its_more_rules_reach_the_match(
    pages: PageFactory, live_server: str
) -> None:
    """The lobby's presets, choices and their values come from GET /v1/rules (a preset fills the form with its
    values); the "more rules" part (bombs, tie-break, start card, end on first out, re-entry) and the takeover
    bot's level reach the created match: its rules are the preset's with the changes, and when Ann leaves, a Hard
    bot takes her seat."""
    catalog = call(live_server, "GET", "/v1/rules")
    page = pages()
    page.goto(live_server + "/")
    more_options(page)
    assert page.locator("#preset option").evaluate_all("os => os.map(o => o.value)") == list(catalog["presets"])
    assert (
        page.locator("#bombs option").evaluate_all("os => os.map(o => o.value)")
        == catalog["parameters"]["bombs"]["enum"]
    )
    assert page.locator("#bombs").is_hidden()  # under "More rules", closed at first
    page.fill("#name", "Ann")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "open")
    page.select_option("#preset", "classic")
    classic = catalog["presets"]["classic"]
    assert page.input_value("#hands") == str(classic["hands"])
    assert page.input_value("#bombs") == classic["bombs"] and page.input_value("#tiebreak") == classic["tiebreak"]
    assert page.is_checked("#start-card-rule") is classic["start_card_rule"]
    page.click("#more-rules summary")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lobby-desktop.png"), full_page=True)
    assert (
        page.inner_text("#bombs-about")
        == "four of a kind or 3 pairs in a row beat a single 2; 4 pairs beat a single 2 or two 2s"
    )
    page.select_option("#bombs", "off")
    page.select_option("#tiebreak", "best_finish")
    page.uncheck("#start-card-rule")
    page.check("#end-on-first-out")
    page.check("#pass-reentry-with-bomb")
    page.fill("#hands", "3")
    page.select_option("#takeover", "hard")
    page.click("#create")
    page.wait_for_selector("#join-link")
    match_id, ann, _ = held(page)
    match = call(live_server, "GET", f"/v1/matches/{match_id}")
    changed = {"bombs": "off", "tiebreak": "best_finish", "start_card_rule": False, "end_on_first_out": True}
    assert match["rules"] == classic | changed | {"pass_reentry_with_bomb": True, "hands": 3, "players": 2}
    call(live_server, "POST", f"/v1/matches/{match_id}/join", {"name": "Bo"})
    call(live_server, "POST", f"/v1/matches/{match_id}/leave", token=ann)
    seat = call(live_server, "GET", f"/v1/matches/{match_id}")["seats"][0]
    assert (seat["left"], seat["taken_over"], seat["bot"]) == (True, True, "hard")


def test_lobby_at_phone_width_scrolls_no_sideways_and_creates(pages: PageFactory, live_server: str) -> None:
    """At 375 px the lobby (with "More rules" open, an open match of a 40-letter name listed) and the table it
    opens fit the width, and Create works."""
    call(live_server, "POST", "/v1/matches", {"seats": [{"name": "W" * 40}, {"open": True}], "listed": True})
    page = pages(viewport=PHONE)
    page.goto(live_server + "/")
    more_options(page)
    page.click("#more-rules summary")
    page.wait_for_selector("#bombs")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lobby-phone.png"), full_page=True)
    page.select_option("#players", "4")
    page.click("#create")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand button")
    assert page.locator(".seat").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # four seats on a phone: each fact on a line of its own, no line starting with the separator
    for text in page.locator(".seat .seat-facts").all_inner_texts():
        assert not any(line.strip().startswith("·") for line in text.splitlines()), text
    page.wait_for_function(MY_TURN)
    page.locator("#hand button").first.click()  # a picked card and the line about it, in the screenshot
    page.screenshot(path=str(SCREENSHOTS / "table-phone-four.png"), full_page=True)


def test_lobby_shows_the_servers_refusal(pages: PageFactory, live_server: str) -> None:
    """A match the server refuses (no scoring over two hands) shows the server's message."""
    page = pages()
    page.goto(live_server + "/")
    more_options(page)
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
    more_options(page)
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
    # the history is read after the view, so the log fills a moment after the hand shows
    page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=len(log))
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
    more_options(ann)
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
    more_options(page)
    missing = page.evaluate("""() => import('/web/js/i18n.js').then(({TEXTS}) => {
        const keys = Object.fromEntries(Object.entries(TEXTS).map(([lang, texts]) => [lang, Object.keys(texts)]));
        return {vi: keys.en.filter(k => !keys.vi.includes(k)), en: keys.vi.filter(k => !keys.en.includes(k))};
    })""")
    assert missing == {"vi": [], "en": []}
    page.select_option("#lang", "vi")
    page.click("#more-options > summary:has-text('Thêm tùy chọn')")  # the lobby drawn again, in Vietnamese
    page.wait_for_selector("text=Ván mới")
    page.reload()
    more_options(page)
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
    more_options(page)
    page.click("#more-rules summary")  # the rules' descriptions too
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


# Every sentence a hint can have: each template with each reason the server may join to it.
SPEC = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
TEMPLATES = SPEC["components"]["schemas"]["ExplanationTemplate"]["enum"]
REASONS = SPEC["components"]["schemas"]["ExplanationReason"]["enum"]
# English words of the server's explanations; none may be left in a Vietnamese hint (nor a card code like 9S).
ENGLISH = re.compile(
    r"\b(Leads|Beats|Bombs|Plays|Passes|Nothing|hold|keeps?|your|the|with|nearly|out|lead|later|seat|pair|run|single)\b"
)
CARD_CODE = re.compile(r"\b(?:10|[2-9JQKA])[SCDH]\b")


def test_vietnamese_table_and_hint_have_no_english(pages: PageFactory, live_server: str) -> None:
    """On the Vietnamese page the whole table reads in Vietnamese: seats, felt, turn, live line, log; the Hint's
    reason is written by the page from explanation_code with card faces, and no sentence it can write (every
    template with every reason) has an English word or a card code in it."""
    page = pages()
    page.goto(live_server + "/")
    page.select_option("#lang", "vi")
    match_id, ann, _ = _seat_ann_with_a_table(live_server)
    seat_at(page, live_server, match_id, 0, ann, "An")
    page.wait_for_function(MY_TURN)
    assert page.inner_text("#turn-text") == "Lượt của bạn"
    assert page.inner_text("#table-play").startswith("Bo đã đánh đôi 4:")
    assert "còn 11 lá" in page.inner_text(".seat[data-seat='1']")
    assert page.locator("#log li").all_inner_texts()[:2] == ["Bo đánh đôi 4", "Bạn đánh đôi 3"]
    pick(page, ["9S", "9D"])
    assert page.inner_text("#selection") == "đôi 9, đè được bài trên bàn"
    with page.expect_response(lambda r: r.url.endswith("/hint")) as caught:
        page.click("#hint")
    english = caught.value.json()["explanation"]
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    hint = page.inner_text("#hint-text")
    assert hint.startswith("Gợi ý: "), hint
    assert not ENGLISH.search(hint) and not CARD_CODE.search(hint), (hint, english)
    assert page.locator("#hint-text .face[aria-label]").count() >= 2  # the cards face up, with spoken names
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "table-vietnamese.png"))
    sentences = page.evaluate(
        """([templates, reasons]) => Promise.all([import('/web/js/words.js'), import('/web/js/i18n.js')])
        .then(([{hintWords}, {setLanguage}]) => {
            setLanguage('vi');
            const combo = (cards, kind) => ({cards, kind});
            const out = [];
            for (const template of templates) for (const reason of reasons) {
                const code = {template, reason, play: combo(['9S', '9D'], 'pair'), table: combo(['4S', '4C'], 'pair'),
                    kept: combo(['5S', '6C', '7D'], 'straight'), nearly_out: {seat: 1, cards_left: 2}};
                const advice = {action: {type: 'play', cards: ['9S', '9D']}, explanation: 'English',
                    explanation_code: code};
                const nodes = hintWords(advice, (seat) => seat === 1 ? 'Bo' : 'bạn');
                const p = document.createElement('p');
                p.append(...nodes);
                out.push(p.textContent);
            }
            return out;
        })""",
        [TEMPLATES, REASONS],
    )
    assert len(sentences) == len(TEMPLATES) * len(REASONS)
    for sentence in sentences:
        assert sentence != "English" and not ENGLISH.search(sentence) and not CARD_CODE.search(sentence), sentence


GLYPHS = (Path(__file__).parent / "glyphs.js").read_text()


def test_every_character_the_page_uses_has_a_glyph(pages: PageFactory, live_server: str) -> None:
    """Each character beyond ASCII in the page's texts (both languages), its suits and what a table shows is drawn
    by some installed font, not as the missing-glyph box; the check itself sees that the emoji clock has none."""
    match_id, ann, _ = _seat_ann_with_a_table(live_server)
    page = pages()
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    shown = page.evaluate("document.body.innerText")
    texts = page.evaluate(
        "import('/web/js/i18n.js').then(({TEXTS}) => Object.values(TEXTS).flatMap(Object.values).join(''))"
    )
    chars = sorted({c for c in shown + texts + "♠♣♦♥" if ord(c) > 127})
    assert {"♠", "♣", "♦", "♥", "ế", "…"} <= set(chars)
    found = page.evaluate(GLYPHS, [*chars, "⏱"])
    assert found["boxIsDrawn"]
    assert found["missing"] == ["⏱"]


def test_turn_and_log_are_polite_live_regions_that_redraws_leave_alone(pages: PageFactory, live_server: str) -> None:
    """The turn line and the event log are announced politely: picking cards (a redraw each) changes neither;
    a new event adds one log entry and the turn line changes once to the new seat on turn."""
    match_id, ann, bo = _two_seats(live_server)
    page = pages()
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    assert page.get_attribute("#turn-text", "aria-live") == "polite"
    assert page.get_attribute("#log", "aria-live") == "polite"
    assert page.locator("#turn [aria-live]").count() == 1  # the clock (a timer) is not in it
    page.evaluate("""() => {
        window.changes = {turn: [], log: []};
        new MutationObserver(() => window.changes.turn.push(document.querySelector('#turn-text').textContent))
            .observe(document.querySelector('#turn-text'), {childList: true, characterData: true, subtree: true});
        new MutationObserver((records) => window.changes.log.push(...records.flatMap((r) => [...r.addedNodes])
            .map((n) => n.textContent))).observe(document.querySelector('#log'), {childList: true});
    }""")
    pick(page, ["5S", "6C"])
    pick(page, ["3S", "3C"])
    assert page.evaluate("window.changes") == {"turn": [], "log": []}
    page.click("#play")
    page.wait_for_function('window.changes.turn.includes("Bo\'s turn")')
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    page.wait_for_function(MY_TURN)
    page.wait_for_function("window.changes.turn.at(-1) === 'Your turn'")
    changes = page.evaluate("window.changes")
    assert changes["log"] == ["You played pair of 3s", "Bo played pair of 4s"]
    assert [text for text in changes["turn"] if text] == ["Bo's turn", "Your turn"], changes


def _two_seats(base: str) -> tuple[str, str, str]:
    """Remote seats Ann (0) and Bo (1) on TWO_SEAT_DEAL, Ann on turn to lead."""
    created = call(base, "POST", "/v1/matches", {"seats": [{"name": "Ann"}, {"name": "Bo"}], "deal": TWO_SEAT_DEAL})
    return created["match_id"], created["tokens"][0]["token"], created["tokens"][1]["token"]


def test_the_table_is_drawn_before_its_slow_requests_answer(pages: PageFactory, live_server: str) -> None:
    """The table draws the view at once: while the seat's legal plays are still on their way the turn line says
    whose turn it is and the buttons wait for them (they used to stand enabled over an empty table until then)."""
    page = pages()
    match_id, ann, _ = _seat_ann_with_a_table(live_server)
    held_back: list[Route] = []
    page.route("**/legal", lambda route: held_back.append(route))  # the legal plays wait until released
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function("document.querySelector('#turn-text').textContent !== ''", timeout=5000)
    assert page.inner_text("#turn-text") == "Your turn"
    for name in ("#play", "#pass", "#hint", "#leave"):
        assert page.is_disabled(name), f"{name} waits until the table is ready"
    for _ in range(250):  # the route's handler runs as Playwright gets to it: give it up to 5 s
        if held_back:
            break
        page.wait_for_timeout(20)
    assert held_back, "the legal plays were asked for and are still held"
    assert page.is_disabled("#play") and page.is_disabled("#pass"), "still waiting for them"
    for route in held_back:
        route.continue_()
    page.unroute("**/legal")
    page.wait_for_function(MY_TURN)
    assert page.is_enabled("#pass") and page.is_enabled("#leave"), "the legal plays are in: Bo's pair may be passed"
