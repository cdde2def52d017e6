"""Accounts and room codes at the browser table, on a server that asks for an account to host open seats: sign up,
sign in and out, hosting that needs an account, the room code at a waiting table (large, with Copy), joining with
a code or a link, and a match played to its end by two browsers shown on both players' profiles."""

from __future__ import annotations

import re
import urllib.error
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, SCREENSHOTS, PageFactory
from tests.web.support import MY_TURN, PASSWORD, account, call, more_options, new_name
from tests.web.test_table_pages import _contrast

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.xdist_group("browser-b")

SIGNED_IN = "JSON.parse(localStorage.getItem('tienlen.account') ?? 'null')"


def _sign_up(page: Page, name: str) -> None:
    """Fill and send the sign-up form shown on the page."""
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")


def _says(page: Page, selector: str, text: str) -> None:
    """Wait until the element of ``selector`` says ``text``."""
    page.wait_for_function("([s, t]) => document.querySelector(s)?.textContent === t", arg=[selector, text])


def _play_to_the_end(players: list[Page]) -> int:
    """Each page on turn asks for a hint and plays (or passes) it, and a page reviewing a hand just over chooses
    Next hand, until every page shows the match's winner; answers the number of moves made."""
    moves = 0
    for _ in range(1200):
        if all(page.locator("#winner").count() for page in players):
            return moves
        for page in players:
            if page.locator("#next-hand:visible").count():
                page.click("#next-hand")
        mover = next((page for page in players if page.evaluate(MY_TURN)), None)
        if mover is None:
            players[0].wait_for_timeout(50)
            continue
        mover.click("#hint")
        mover.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
        mover.click("#play" if mover.locator("#play:not([disabled])").count() else "#pass")
        moves += 1
    raise AssertionError("the match did not end")


def test_sign_up_host_copy_the_code_a_second_browser_joins_with_it_both_play_to_the_end_both_profiles_show_it(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: hosting open seats without an account is refused and the page offers to sign up; once signed up the
    account hosts; the waiting table shows the room code large and Copy puts it on the clipboard; a second browser,
    signed up too, joins with that code from the lobby's first box (typed in lower case); both play the match to its
    end, each seat held by its account; the match is then on both profiles (with the other player, the place and the
    counts) and its entry opens its replay."""
    ann_name, bo_name = new_name("ann"), new_name("bo")
    ann = account_pages()
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=account_server)
    ann.goto(account_server + "/")
    more_options(ann)
    assert ann.locator("#sign-in-link").is_visible()
    ann.select_option("#players", "2")
    ann.select_option("#seat-1", "open")
    ann.fill("#hands", "1")
    with ann.expect_response(lambda r: r.url.endswith("/v1/matches") and r.request.method == "POST") as refused:
        ann.click("#create")
    assert refused.value.status == 401 and refused.value.json()["reason"] == "account_required"
    ann.wait_for_selector("#signup-name")
    assert ann.inner_text("#error").startswith("Hosting a match with open seats needs an account")
    assert ann.evaluate("document.activeElement.id") == "signin-name"  # the offer has the focus
    _sign_up(ann, ann_name)
    ann.wait_for_function("document.activeElement?.id === 'create'")  # signed up: Create hosts now
    assert ann.locator("#signup-name").count() == 0 and ann.inner_text("#error") == ""
    assert ann.inner_text("#host-as") == f"You host as {ann_name}."
    assert ann.inner_text("#profile-link") == ann_name
    assert ann.evaluate(SIGNED_IN)["name"] == ann_name
    ann.click("#create")
    ann.wait_for_url("**/m/*")
    code = ann.inner_text("#room-code")
    match_id = ann.url.rsplit("/", 1)[1]
    match = call(account_server, "GET", f"/v1/matches/{match_id}")
    assert code == match["room_code"] and len(code) == 6
    assert (match["seats"][0]["name"], match["seats"][0]["account"]) == (ann_name, True)
    assert float(ann.eval_on_selector("#room-code", "e => parseFloat(getComputedStyle(e).fontSize)")) >= 32  # large
    ann.focus("#copy-code")
    ann.keyboard.press("Enter")  # Copy by keyboard
    ann.wait_for_function("document.querySelector('#copy-status').textContent === 'Copied.'")
    copied = ann.evaluate("navigator.clipboard.readText()")
    assert copied == code
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ann.screenshot(path=str(SCREENSHOTS / "table-waiting-room-code.png"))

    bo = account_pages(viewport=PHONE)
    bo.goto(account_server + "/")
    bo.click("#sign-in-link")
    bo.wait_for_url("**/account?next=%2F")  # the way back, once signed in
    _sign_up(bo, bo_name)
    bo.wait_for_url(account_server + "/")  # back to the lobby, signed up
    bo.wait_for_selector("#code-as")
    assert bo.locator("#code-name").count() == 0  # joining as the account: no name to type
    bo.fill("#room-code-input", copied.lower())
    bo.screenshot(path=str(SCREENSHOTS / "lobby-phone-join-with-code.png"))
    bo.press("#room-code-input", "Enter")
    bo.wait_for_url(f"**/m/{match_id}")
    for page in (ann, bo):
        page.wait_for_function("document.querySelectorAll('#hand button').length === 13")
    dealt = call(account_server, "GET", f"/v1/matches/{match_id}")
    seats = dealt["seats"]
    assert [(s["name"], s["account"]) for s in seats] == [(ann_name, True), (bo_name, True)]
    # each page added its seat's own entropy to the fair deal (docs/fair-deals.md), fresh for each seat
    entropy = dealt["fair_deal"]["entropy"]
    assert all(re.fullmatch("[0-9a-f]{32}", e) for e in entropy) and entropy[0] != entropy[1], entropy
    assert ann.locator("#room-code").count() == 0  # no longer waiting: no code
    assert _play_to_the_end([ann, bo]) >= 2
    finished = call(account_server, "GET", f"/v1/matches/{match_id}")
    assert finished["status"] == "finished" and finished["winner"] in (0, 1)
    names = [(("you", bo_name), ann), (("you", ann_name), bo)]  # each page names its own seat "you"
    for seat, ((own, other), page) in enumerate(names):
        assert page.inner_text("#winner") == f"Winner of the match: {own if finished['winner'] == seat else other}!"
    # the match on both profiles, each entry opening its replay
    for seat, (page, own, other) in enumerate(((ann, ann_name, bo_name), (bo, bo_name, ann_name))):
        page.click("#profile-link")
        page.wait_for_url(f"**/p/{own}")
        entry = page.locator(f"#history li.kept[data-match='{match_id}']")
        entry.wait_for()
        assert page.inner_text("#profile-h") == own
        facts = page.locator("#profile-facts dd").all_inner_texts()
        assert (facts[0], facts[2], facts[3]) == ("person", "1", "1" if finished["winner"] == seat else "0")
        assert entry.locator(f".kept-seats a[href='/p/{other}']").inner_text() == other
        assert f"place {1 if finished['winner'] == seat else 2} of 2" in entry.locator(".kept-facts").inner_text()
        assert entry.locator("a.replay-link").get_attribute("href") == f"/m/{match_id}/replay"
    bo.click(f"#history li.kept[data-match='{match_id}'] a.replay-link")
    bo.wait_for_url(f"**/m/{match_id}/replay")
    bo.wait_for_selector("#replay-seats li")
    assert bo.inner_text("#replay-h") == f"Replay: {ann_name}, {bo_name}"
    bo.keyboard.press("ArrowRight")
    assert bo.inner_text("#replay-position").startswith("Hand 1 of 1, move 1 of ")


def test_sign_in_and_sign_out_revokes_the_session_and_forgets_it(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: signing in keeps the session in localStorage under the account's own spelling of its name; Sign out
    revokes the token (GET /v1/me answers 401 with it) and forgets it, and the bar offers Sign in again (focused)."""
    name, _ = account(account_server, "Cy")
    page = account_pages()
    page.goto(account_server + "/account")
    page.fill("#signin-name", name.lower())
    page.fill("#signin-password", PASSWORD)
    page.press("#signin-password", "Enter")
    page.wait_for_url(account_server + "/")
    page.wait_for_selector("#profile-link")
    kept = page.evaluate(SIGNED_IN)
    assert kept["name"] == name and page.inner_text("#profile-link") == name
    assert page.get_attribute("#profile-link", "href") == f"/p/{name}"
    assert call(account_server, "GET", "/v1/me", token=kept["token"])["name"] == name
    page.click("#sign-out")
    page.wait_for_selector("#sign-in-link")
    page.wait_for_function("document.activeElement?.id === 'sign-in-link'")
    assert page.evaluate("localStorage.getItem('tienlen.account')") is None
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(account_server, "GET", "/v1/me", token=kept["token"])
    assert refused.value.code == 401


def test_a_session_revoked_elsewhere_is_forgotten_when_the_page_opens(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: a kept session the server no longer knows is forgotten on load: the page shows Sign in, never a name."""
    name, token = account(account_server, "Di")
    page = account_pages()
    page.goto(account_server + "/")
    page.evaluate(
        "s => localStorage.setItem('tienlen.account', JSON.stringify(s))",
        {"name": name, "token": token, "expires_at": "2999-01-01T00:00:00Z"},
    )
    call(account_server, "DELETE", "/v1/sessions/current", token=token)
    page.reload()
    page.wait_for_selector("#sign-in-link")
    assert page.locator("#profile-link").count() == 0
    assert page.evaluate("localStorage.getItem('tienlen.account')") is None


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_forms_say_what_is_wrong_in_the_pages_words(
    account_pages: PageFactory, account_server: str, lang: str
) -> None:
    """Rule: a name or password the server would refuse is caught before sending (the field marked and focused);
    the server's refusals (a wrong password, a taken name, an unknown room code) are said in the page's language."""
    taken, _ = account(account_server, "Ed")
    page = account_pages()
    page.goto(account_server + "/")
    page.select_option("#lang", lang)
    page.wait_for_selector("#join-code")
    texts = page.evaluate("l => import('/web/js/i18n.js').then(({TEXTS}) => TEXTS[l])", lang)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/v1/" in r.url else None)
    page.fill("#room-code-input", "AB1")
    page.click("#join-code")
    assert page.inner_text("#code-error") == texts["code_rule"]
    page.fill("#room-code-input", "zz zz zz")  # spaces dropped, upper case: a well-formed code nobody has
    page.click("#join-code")
    _says(page, "#code-error", texts["reason_room_not_found"])
    assert [url for url in sent if "/rooms/" in url] == [f"{account_server}/v1/rooms/ZZZZZZ/join"]
    page.goto(account_server + "/account")
    page.fill("#signup-name", "x!")
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    assert page.inner_text("#signup-error") == texts["account_name_rule"]
    assert page.get_attribute("#signup-name", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "signup-name"
    page.fill("#signup-name", new_name("Fay"))
    page.fill("#signup-password", "short")
    page.click("#signup")
    assert page.inner_text("#signup-error") == texts["password_rule"]
    assert not [url for url in sent if url.endswith("/v1/accounts")]  # nothing sent for either
    page.fill("#signup-name", taken.upper())
    page.fill("#signup-password", PASSWORD)
    page.click("#signup")
    _says(page, "#signup-error", texts["reason_name_taken"])
    page.fill("#signin-name", taken)
    page.fill("#signin-password", "not the password")
    page.click("#signin")
    _says(page, "#signin-error", texts["reason_invalid_credentials"])
    assert page.input_value("#signin-password") == ""
    assert page.evaluate("localStorage.getItem('tienlen.account')") is None
    assert _contrast(page) == []  # the forms, their hints and errors


def test_signed_out_join_with_a_code_takes_a_name_and_everything_fits_a_phone(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: signed out, the code box asks for a name and seats it; at 375 px the lobby (code box, account forms
    offered), the account page and the waiting table with its code and Copy scroll no sideways."""
    _, token = account(account_server, "Gus")
    created = call(
        account_server, "POST", "/v1/matches", {"seats": [{"name": "host"}, {"open": True}, {"open": True}]}, token
    )
    code = created["match"]["room_code"]
    page = account_pages(viewport=PHONE)
    page.goto(account_server + "/")
    more_options(page)
    page.select_option("#seat-1", "open")
    page.click("#create")
    page.wait_for_selector("#signup-name")
    wide = "document.documentElement.scrollWidth"
    assert page.evaluate(wide) <= PHONE["width"]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "lobby-phone-hosting-needs-an-account.png"), full_page=True)
    page.goto(account_server + "/account")
    page.wait_for_selector("#signup-name")
    assert page.evaluate(wide) <= PHONE["width"]
    page.goto(account_server + "/")
    page.fill("#room-code-input", code)
    page.fill("#code-name", "Hal")
    page.click("#join-code")
    page.wait_for_url(f"**/m/{created['match_id']}")
    page.wait_for_selector("#copy-code")
    assert page.inner_text("#room-code") == code  # one seat is still open: the code is still shown
    assert page.evaluate(wide) <= PHONE["width"]
    assert _contrast(page) == []
    for selector in ("#room-code", "#copy-code", "#join-link"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (selector, box)
    seats = call(account_server, "GET", f"/v1/matches/{created['match_id']}")["seats"]
    assert (seats[1]["name"], seats[1]["account"]) == ("Hal", False)


def _signed_in(page: Page, base: str, name: str, token: str) -> None:
    """Give the page the session of ``name`` (as signing in keeps it)."""
    page.goto(base + "/account")
    page.evaluate(
        "s => localStorage.setItem('tienlen.account', JSON.stringify(s))",
        {"name": name, "token": token, "expires_at": "2999-01-01T00:00:00Z"},
    )


def test_signed_in_the_link_joins_as_the_account_and_the_code_brings_back_a_seat_it_holds(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: signed in, a match's link joins as the account (no name asked; the seat is the account's); the code of
    a match where the account already sits (409 already_seated, from another browser, say) opens that seat, the
    account's token acting for it; the account page says who is signed in and links the profile."""
    host, host_token = account(account_server, "Jo")
    guest, guest_token = account(account_server, "Kim")
    seats = [{"name": "x"}, {"open": True}, {"open": True}]  # one seat stays open: the code still answers
    created = call(account_server, "POST", "/v1/matches", {"seats": seats}, host_token)
    match_id, code = created["match_id"], created["match"]["room_code"]
    page = account_pages()
    _signed_in(page, account_server, guest, guest_token)
    page.goto(f"{account_server}/m/{match_id}")
    assert page.inner_text("#join-as") == f"You join as {guest}."
    assert page.locator("#join-name").count() == 0
    page.click("#join")
    page.wait_for_selector(".seat[data-seat='1']")
    assert page.inner_text(".seat[data-seat='1'] .seat-name") == f"{guest} (you)"
    seats = call(account_server, "GET", f"/v1/matches/{match_id}")["seats"]
    assert [(s["name"], s["account"]) for s in seats[:2]] == [(host, True), (guest, True)]

    other = account_pages()  # the host, in a browser that holds no seat
    _signed_in(other, account_server, host, host_token)
    other.goto(account_server + "/account")
    other.wait_for_selector("#signed-in-as")
    assert other.inner_text("#signed-in-as") == f"Signed in as {host}."
    assert other.get_attribute("#my-profile", "href") == f"/p/{host}"
    other.goto(account_server + "/")
    other.fill("#room-code-input", code)
    with other.expect_response(lambda r: r.url.endswith("/join")) as refused:
        other.click("#join-code")
    assert refused.value.status == 409 and refused.value.json()["reason"] == "already_seated"
    other.wait_for_url(f"**/m/{match_id}")
    other.wait_for_selector(".seat[data-seat='0']")
    assert other.inner_text(".seat[data-seat='0'] .seat-name") == f"{host} (you)"
    assert other.inner_text("#room-code") == code
    kept = other.evaluate(f"JSON.parse(localStorage.getItem('tienlen.seats'))['{match_id}']")
    assert (kept["seat"], kept["token"]) == (0, host_token)
