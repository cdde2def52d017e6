"""The chat at the table and on the watch page: a seat reads both rooms, a spectator only its own; a quick phrase shows
in each reader's language; mute hides a player's messages; a report reaches the moderators once; a signed-out
watcher only reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import MODERATOR_TOKEN, PHONE
from tests.web.support import account, call

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-c")


def _signed_in(page: Page, base: str, name: str, token: str, lang: str = "en") -> None:
    """Keep the account's session (as signing in does) and the page's language in the page's localStorage."""
    page.goto(base + "/")
    page.evaluate(
        "([session, lang]) => { localStorage.setItem('tienlen.account', JSON.stringify(session));"
        " localStorage.setItem('tienlen.lang', lang); }",
        [{"name": name, "token": token}, lang],
    )


def _open_chat(page: Page) -> None:
    """Unfold the chat (folded on a phone, and at the table until opened) once the page has it; wait for its list."""
    page.wait_for_selector("#chat")
    if not page.evaluate("document.querySelector('#chat').open"):
        page.click("#chat > summary")
    page.wait_for_selector("#chat-messages", state="attached")


def _lines(page: Page) -> list[str]:
    return page.locator("#chat-messages .chat-line").all_inner_texts()


def _choose(line: Locator, item: str) -> None:
    """Open the message's menu (unless open) and choose `item` (mute, block, report)."""
    if not line.locator(".msg-menu").evaluate("d => d.open"):
        line.locator(".msg-menu > summary").click()
    line.locator(f"button.{item}").click()


def _match(base: str, host_token: str) -> str:
    """A match of an account (seat 0) against a bot, waiting on the account's first turn (no clock)."""
    made = call(base, "POST", "/v1/matches", {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}]}, host_token)
    return str(made["match_id"])


def test_a_seat_and_a_spectator_chat_each_reading_what_it_may(social_pages: PageFactory, social_server: str) -> None:
    """Rule: a seat writes in the table room and reads both rooms (each marked); a signed-in spectator writes in the
    spectators' room and never sees the table room; a quick phrase said in Vietnamese shows in English to an English
    reader; a signed-out watcher reads the spectators' room but has no text box."""
    ann, ann_token = account(social_server, "ann")
    sam, sam_token = account(social_server, "sam")
    match_id = _match(social_server, ann_token)
    seat = social_pages()
    _signed_in(seat, social_server, ann, ann_token, "vi")
    seat.goto(f"{social_server}/m/{match_id}")
    _open_chat(seat)
    watcher = social_pages(viewport=PHONE)
    _signed_in(watcher, social_server, sam, sam_token)
    watcher.goto(f"{social_server}/m/{match_id}/watch")
    _open_chat(watcher)
    anonymous = social_pages()
    anonymous.goto(f"{social_server}/m/{match_id}/watch")
    _open_chat(anonymous)
    assert anonymous.locator("#chat-text").count() == 0 and anonymous.locator("#chat-read-only").is_visible()

    seat.fill("#chat-text", "secret plan for the table")
    assert "175" in seat.inner_text("#chat-count")  # 200 - 25 characters left
    seat.press("#chat-text", "Enter")
    seat.wait_for_selector("#chat-messages [data-room=table]")
    watcher.wait_for_selector("#chat-phrases button[data-phrase=good_game]")
    watcher.click("#chat-phrases button[data-phrase=good_game]")
    seat.wait_for_selector("#chat-messages [data-room=spectators]")
    seat.click("#chat-phrases button[data-phrase=well_played]")  # said in Vietnamese
    watcher.wait_for_selector("#chat-messages [data-room=spectators] >> text=Good game")
    anonymous.wait_for_selector("#chat-messages [data-room=spectators] >> text=Good game")
    phrases = {p["id"]: p["text"] for p in call(social_server, "GET", "/v1/rules")["chat_phrases"]}
    seat.wait_for_function("n => document.querySelectorAll('#chat-messages .chat-line').length === n", arg=3)
    lines = _lines(seat)
    assert "secret plan for the table" in lines[0] and "người chơi" in lines[0]  # marked: the players' room
    assert phrases["good_game"]["vi"] in lines[1]  # the spectator's phrase, in the seat's language
    assert phrases["well_played"]["vi"] in lines[2]
    # the table room is never shown to a spectator, signed in or not (its phrase neither)
    watcher.wait_for_timeout(1500)
    for page in (watcher, anonymous):
        shown = " ".join(_lines(page))
        assert "secret plan" not in shown and phrases["well_played"]["en"] not in shown
        assert page.locator("#chat-messages [data-room=table]").count() == 0
    assert watcher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_mute_hides_and_a_report_reaches_the_moderators_once(social_pages: PageFactory, social_server: str) -> None:
    """Rule: a spectator's message menu mutes its author (its messages hidden, the mute kept by the server) and
    reports a message: the moderators' list holds one report of it, and a second report is refused in words."""
    ann, ann_token = account(social_server, "ann")
    sam, sam_token = account(social_server, "sam")
    kim, kim_token = account(social_server, "kim")
    match_id = _match(social_server, ann_token)
    said = call(
        social_server, "POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "text": "rude words"}, kim_token
    )
    watcher = social_pages()
    _signed_in(watcher, social_server, sam, sam_token)
    watcher.goto(f"{social_server}/m/{match_id}/watch")
    _open_chat(watcher)
    line = watcher.locator(f"#chat-messages [data-seq='{said['seq']}']")
    _choose(line, "report")
    watcher.wait_for_function("document.querySelector('#chat-status').textContent.includes('Reported')")
    _choose(line, "report")
    watcher.wait_for_function("document.querySelector('#chat-status').textContent.includes('already')")
    reports = call(social_server, "GET", "/v1/moderation/reports", token=MODERATOR_TOKEN)["reports"]
    mine = [r for r in reports if r["match_id"] == match_id]
    assert len(mine) == 1 and mine[0]["reporter"].lower() == sam.lower(), mine

    _choose(line, "mute")
    watcher.wait_for_function(f"document.querySelector(\"#chat-messages [data-seq='{said['seq']}']\") === null")
    assert kim in watcher.inner_text("#chat-status")
    assert [n.lower() for n in call(social_server, "GET", "/v1/me/muted", token=sam_token)["names"]] == [kim.lower()]
    # read again, the muted account's messages stay hidden (the server leaves them out)
    call(social_server, "POST", f"/v1/matches/{match_id}/chat", {"room": "spectators", "text": "more"}, kim_token)
    watcher.reload()
    _open_chat(watcher)
    watcher.wait_for_selector("#chat-empty:not([hidden])")
    assert ann  # the host's seat is not part of this test's talk


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("social/words.js", "SOCIAL_TEXTS"),
        ("table/watch_words.js", "TABLE_WATCH_TEXTS"),
        ("replay_words.js", "REPLAY_TEXTS"),
    ],
)
def test_the_chat_words_are_in_every_language(
    social_pages: PageFactory, social_server: str, module: str, name: str
) -> None:
    """Rule: every text of the chat, the live table, friends (social/words.js), the table's own words of watching
    (table/watch_words.js) and a match's replay and review (replay_words.js) is in English and in Vietnamese, and
    loading them adds them to the page's languages."""
    page = social_pages()
    page.goto(social_server + "/")
    keys = page.evaluate(
        """([module, name]) => import('/web/js/' + module).then((m) => m[name]).then((s) =>
        import('/web/js/i18n.js').then(({TEXTS}) => [Object.keys(s.en).sort(), Object.keys(s.vi).sort(),
          Object.keys(s.en).every((k) => TEXTS.vi[k] === s.vi[k])]))""",
        [module, name],
    )
    assert keys[0] == keys[1] and keys[0] and keys[2]


def test_a_folded_chat_counts_the_messages_that_came_until_it_is_opened(
    social_pages: PageFactory, social_server: str
) -> None:
    """Rule: while the chat is folded away (on a phone; at the table once it has been opened), each message of others
    that arrives is counted on its summary ("2 new"); opening it clears the count; the messages read when the chat
    loaded and the reader's own are not counted."""
    ann, ann_token = account(social_server, "una")
    sam, sam_token = account(social_server, "uli")
    match_id = _match(social_server, ann_token)

    def say(text: str, token: str, room: str = "spectators") -> None:
        call(social_server, "POST", f"/v1/matches/{match_id}/chat", {"room": room, "text": text}, token)

    say("before", sam_token)
    watcher = social_pages(viewport=PHONE)
    _signed_in(watcher, social_server, sam, sam_token)
    watcher.goto(f"{social_server}/m/{match_id}/watch")
    watcher.wait_for_selector("#chat #chat-messages .chat-line", state="attached")  # the message said before
    assert not watcher.evaluate("document.querySelector('#chat').open")  # folded on a phone
    assert watcher.locator("#chat-unread").is_hidden()
    say("one", ann_token, "table")  # the table room: not the spectator's to read, not counted
    say("two", sam_token)  # its own (said elsewhere): a message of the reader's account is not counted
    ann_page = social_pages()
    _signed_in(ann_page, social_server, ann, ann_token)
    ann_page.goto(f"{social_server}/m/{match_id}")
    _open_chat(ann_page)
    ann_page.click("#chat > summary")  # folded again: from now on the table counts too
    _unused, other_token = account(social_server, "ula")
    say("three", other_token)
    say("four", other_token)
    watcher.wait_for_selector("#chat-unread:has-text('2 new')")
    ann_page.wait_for_selector("#chat-unread:has-text('2 new')")
    watcher.click("#chat > summary")
    watcher.wait_for_selector("#chat-unread", state="hidden")
    assert "four" in " ".join(_lines(watcher))
