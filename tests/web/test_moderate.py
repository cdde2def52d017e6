"""The moderators' page (/moderate): the moderator token pasted (kept in the tab's sessionStorage only, a wrong one
refused in words), the open reports with Remove message and Dismiss, muting an account, closing one after a
confirm step, featuring a match, the audit list of those acts; Forget; in Vietnamese on a phone with axe."""

from __future__ import annotations

import urllib.error
from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import MODERATOR_TOKEN
from tests.web.support import account, call
from tests.web.test_axe_phone import PHONE_SMALL, axe_checked

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-c")


def _reported(base: str, texts: list[str]) -> tuple[str, str, list[dict[str, Any]]]:
    """A match of an account against a bot where a spectator said `texts`, each reported by its own account: the
    match's id, the spectator's name, and the messages said."""
    _, host_token = account(base, "host")
    speaker, speaker_token = account(base, "said")
    seats = [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}]
    match_id = str(call(base, "POST", "/v1/matches", {"seats": seats}, host_token)["match_id"])
    said = []
    for text in texts:
        message = call(
            base, "POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "text": text}, speaker_token
        )
        _, reporter_token = account(base, "rep")
        call(base, "POST", f"/v1/matches/{match_id}/chat/{message['seq']}/report", {"why": "rude"}, reporter_token)
        said.append(message)
    return match_id, speaker, said


def _use_token(page: Page, token: str) -> None:
    """Paste the token in the page's form and send it with Enter."""
    page.fill("#mod-token", token)
    page.press("#mod-token", "Enter")


def _said(page: Page, words: str) -> None:
    """Wait until the page's status line says `words`."""
    page.wait_for_function("w => document.querySelector('#mod-status')?.textContent.startsWith(w)", arg=words)


def _audit_starts_with(page: Page, acts: list[str]) -> None:
    """Wait until the audit list's newest acts are `acts` (it is read again after each act)."""
    page.wait_for_function(
        "a => [...document.querySelectorAll('#mod-audit li[data-act]')].slice(0, a.length)"
        ".map((i) => i.dataset.act).join() === a.join()",
        arg=acts,
    )


def test_a_moderator_dismisses_a_report_removes_a_message_mutes_and_reads_the_audit(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: a wrong token is refused in words; the moderator token is kept in sessionStorage alone. With the
    keyboard the moderator dismisses one report (its message stays) and removes another's message; mutes the
    speaker (its next message is refused); closes an account after a confirm step (Escape cancels it first); the
    audit list shows each act, newest first; Forget asks for the token again."""
    match_id, speaker, (kept, removed) = _reported(social_server, ["borderline words", "insulting words"])
    page = social_pages()
    page.goto(f"{social_server}/moderate")
    _use_token(page, "not-the-moderator-token-0123456789abcdef")
    page.wait_for_function("document.querySelector('#error').textContent === 'This token is not the moderator token.'")
    _use_token(page, MODERATOR_TOKEN)
    page.wait_for_selector("#mod-forget")
    assert page.evaluate("sessionStorage.getItem('tienlen.moderator')") == MODERATOR_TOKEN
    assert MODERATOR_TOKEN not in page.evaluate("JSON.stringify(localStorage)")

    item = f"li.mod-report[data-match='{match_id}'][data-seq='{{seq}}']"
    page.wait_for_selector(item.format(seq=kept["seq"]))
    first = page.locator(item.format(seq=kept["seq"]))
    assert "borderline words" in first.inner_text() and "Reported by rep_" in first.inner_text()
    assert first.locator("a").get_attribute("href") == f"/m/{match_id}/watch"
    first.locator("button.mod-dismiss").focus()
    page.keyboard.press("Enter")
    _said(page, "The report is dismissed; the message stays.")
    page.locator(item.format(seq=removed["seq"])).locator("button.mod-remove").click()
    _said(page, "The message is removed")
    page.wait_for_selector(f"li.mod-report[data-match='{match_id}']", state="detached")
    chat = call(social_server, "GET", f"/v1/matches/{match_id}/chat")["messages"]
    assert [m["text"] for m in chat] == ["borderline words", ""]

    page.fill("#mod-mute-name", speaker)
    page.fill("#mod-minutes", "30")
    page.press("#mod-mute-name", "Enter")
    _said(page, f"{speaker} cannot chat until ")
    _audit_starts_with(page, ["chat_muted", "message_removed", "report_dismissed"])

    closing, closing_token = account(social_server, "gone")
    page.fill("#mod-close-name", closing)
    page.press("#mod-close-name", "Enter")
    page.wait_for_selector("#mod-close-no:focus")
    assert closing in page.inner_text("#mod-close-ask")
    page.keyboard.press("Escape")
    page.wait_for_selector("#mod-close-confirm", state="hidden")
    assert call(social_server, "GET", "/v1/me", token=closing_token)["name"] == closing
    page.click("#mod-close")
    page.click("#mod-close-yes")
    _said(page, f"The account {closing} is closed.")
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(social_server, "GET", "/v1/me", token=closing_token)
    assert refused.value.code == 401
    _audit_starts_with(page, ["account_closed", "chat_muted"])
    dismissed = page.locator("#mod-audit li[data-act='report_dismissed']").first.inner_text()
    assert f"report dismissed · {match_id}/{kept['seq']} · reported by rep_" in dismissed, dismissed

    page.click("#mod-forget")
    page.wait_for_selector("#mod-token")
    assert page.evaluate("sessionStorage.getItem('tienlen.moderator')") is None


def test_the_page_in_vietnamese_on_a_phone_features_a_match_and_passes_axe(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: in Vietnamese at 375 px the page asks for the token, lists a report of a long message without a
    sideways scroll (0 serious axe findings, also with the close step open), features a match pasted as its link
    and features none again, each said in Vietnamese."""
    match_id, _, _ = _reported(social_server, ["W" * 200])
    page = social_pages(viewport=PHONE_SMALL)
    page.goto(f"{social_server}/moderate")
    page.select_option("#lang", "vi")
    page.wait_for_function("document.querySelector('#mod-h')?.textContent === 'Kiểm duyệt'")
    axe_checked(page, "moderate: the token")
    _use_token(page, "not-the-moderator-token-0123456789abcdef")
    page.wait_for_function("document.querySelector('#error').textContent === 'Mã này không phải mã kiểm duyệt.'")
    _use_token(page, MODERATOR_TOKEN)
    page.wait_for_selector(f"li.mod-report[data-match='{match_id}']")
    page.wait_for_selector("#mod-audit li")
    axe_checked(page, "moderate: the reports")
    page.fill("#mod-feature-id", f"{social_server}/m/{match_id}/watch")
    page.click("#mod-feature")
    _said(page, f"Trận {match_id} đang được giới thiệu.")
    assert call(social_server, "GET", "/v1/live")["match"]["match_id"] == match_id
    page.click("#mod-unfeature")
    _said(page, "Bàn đang diễn ra lại hiện trận hay nhất.")
    page.fill("#mod-close-name", "somebody")
    page.click("#mod-close")
    page.wait_for_selector("#mod-close-no:focus")
    axe_checked(page, "moderate: closing asks first")
    page.click("#mod-close-no")
    page.wait_for_selector("#mod-close:focus")


def test_the_moderators_words_are_in_every_language(social_pages: PageFactory, social_server: str) -> None:
    """Rule: every text of the moderators' page (moderate/words.js) is in English and in Vietnamese, loaded into the
    page's languages only when the page is shown."""
    page = social_pages()
    page.goto(social_server + "/")
    page.wait_for_selector("#app > *")
    assert page.evaluate("import('/web/js/i18n.js').then(({TEXTS}) => 'mod_title' in TEXTS.en)") is False
    keys = page.evaluate(
        """import('/web/js/moderate/words.js').then(({MODERATE_TEXTS: s}) =>
        import('/web/js/i18n.js').then(({TEXTS}) => [Object.keys(s.en).sort(), Object.keys(s.vi).sort(),
          Object.keys(s.en).every((k) => TEXTS.vi[k] === s.vi[k])]))"""
    )
    assert keys[0] == keys[1] and keys[0] and keys[2]
