"""Challenges between people at the browser table: a signed-in page listens to its account's inbox (so the account
is online and can be challenged); a challenge received shows a notice with Accept and Decline; accepted, both pages
open the same table seated; declined, the sender's profile page says so; the sender can withdraw a pending one."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import account, call
from tests.web.test_accounts_rooms import _signed_in

pytestmark = pytest.mark.xdist_group("browser-b")


def _listening(page: Page, base: str, name: str, token: str, path: str = "/") -> None:
    """Sign the page in as ``name`` and open ``path``; return once it asked its inbox (the account is online)."""
    _signed_in(page, base, name, token)
    with page.expect_response(lambda r: "/v1/me/events" in r.url and r.ok):
        page.goto(base + path)


def _challenge(factory: PageFactory, base: str) -> tuple[Page, Page, str, str, str, str]:
    """A on B's profile sends B a casual 2-player challenge; B's page (a phone) listens. (pages, names, tokens)."""
    a_name, a_token = account(base, "Ann")
    b_name, b_token = account(base, "Bao")
    a, b = factory(), factory(viewport=PHONE)
    _listening(b, base, b_name, b_token)
    _listening(a, base, a_name, a_token, f"/p/{b_name}")
    a.select_option("#challenge-players", "2")
    a.uncheck("#challenge-rated")
    a.click("#challenge")
    expect(a.locator("#error")).to_have_text("Challenge sent: waiting for an answer.")
    return a, b, a_name, b_name, a_token, b_token


def test_an_accepted_challenge_seats_both_accounts_at_the_same_table(
    account_pages: PageFactory, account_server: str
) -> None:
    """Rule: the challenged page shows "A challenges you to a 2-player match" with Accept and Decline; accepting
    opens the table for both pages, each account seated (challenger at seat 0), its own token acting for the seat."""
    a, b, a_name, b_name, a_token, b_token = _challenge(account_pages, account_server)
    notice = b.locator(".challenge-notice[role=alert]")
    expect(notice).to_contain_text(f"{a_name} challenges you to a 2-player match")
    expect(notice).to_contain_text("s left")
    assert b.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # B is on a 375 px phone
    notice.locator("button.challenge-accept").click()
    a.wait_for_url("**/m/*")
    b.wait_for_url("**/m/*")
    assert a.url == b.url
    match_id = a.url.rstrip("/").rsplit("/", 1)[1]
    match = call(account_server, "GET", f"/v1/matches/{match_id}")
    assert [s["name"] for s in match["seats"]] == [a_name, b_name] and not match["rated"]
    for page, seat, name, token in ((a, 0, a_name, a_token), (b, 1, b_name, b_token)):
        expect(page.locator(f".seat[data-seat='{seat}']")).to_contain_text(f"{name} (you)")
        kept = page.evaluate(f"JSON.parse(localStorage.getItem('tienlen.seats'))['{match_id}']")
        assert kept == {"seat": seat, "token": token, "name": name}


def test_a_declined_challenge_is_said_to_the_sender(account_pages: PageFactory, account_server: str) -> None:
    """Rule: declining removes the notice; the sender's profile page says the challenge was declined."""
    a, b, *_ = _challenge(account_pages, account_server)
    notice = b.locator(".challenge-notice[role=alert]")
    notice.locator("button.challenge-decline").click()
    expect(notice).to_have_count(0)
    expect(a.locator("#error")).to_have_text("The challenge was declined.")
    expect(a.locator("#challenge-withdraw")).to_be_hidden()


def test_a_withdrawn_challenge_leaves_the_notice_saying_so(account_pages: PageFactory, account_server: str) -> None:
    """Rule: Withdraw (DELETE /v1/challenges/{id}) says so on the sender's page; the challenged page's notice
    turns into "The challenge was withdrawn." without Accept."""
    a, b, *_ = _challenge(account_pages, account_server)
    expect(b.locator(".challenge-notice[role=alert]")).to_have_count(1)
    a.click("#challenge-withdraw")
    expect(a.locator("#error")).to_have_text("The challenge was withdrawn.")
    expect(b.locator(".challenge-notice")).to_have_text("The challenge was withdrawn.")
    expect(b.locator("button.challenge-accept")).to_have_count(0)


def test_an_offline_account_is_said_plainly(account_pages: PageFactory, account_server: str) -> None:
    """Rule: challenging an account that is not listening (409 player_offline) says "X is not online."."""
    a_name, a_token = account(account_server, "Ann")
    b_name, _ = account(account_server, "Bao")
    a = account_pages()
    _listening(a, account_server, a_name, a_token, f"/p/{b_name}")
    a.uncheck("#challenge-rated")
    a.click("#challenge")
    expect(a.locator("#error")).to_have_text(f"{b_name} is not online.")
