"""Playing at the browser table (Debian's Chromium through Playwright): a whole hand by clicking, the live line
about the selection, refusals, the clock, keyboard-only play at phone width, bots' plays one after another, long
polls when the stream is blocked, and a finished match followed no further than what it has (a rematch after its
end)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, SCREENSHOTS, PageFactory
from tests.web.support import (
    MY_TURN,
    MY_TURN_OR_OVER,
    TWO_SEAT_DEAL,
    Witness,
    call,
    held,
    more_options,
    pick,
    seat_at,
    selection,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

pytestmark = pytest.mark.xdist_group("browser-a")


def _two_remote_seats(base: str) -> tuple[str, str, str]:
    """A two-player match of remote seats Ann (0) and Bo (1) on TWO_SEAT_DEAL: (match id, Ann's, Bo's token)."""
    created = call(
        base,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bo"}], "rules": {"hands": 1}, "deal": TWO_SEAT_DEAL},
    )
    return created["match_id"], created["tokens"][0]["token"], created["tokens"][1]["token"]


def test_whole_hand_against_three_bots_by_clicking_then_rematch_and_leave(pages: PageFactory, live_server: str) -> None:
    """Create a match against three bots in the lobby; play every turn by clicking (Hint on even turns, a legal
    selection of our own on odd ones) until the hand's result; Rematch opens the next match; Leave ends the seat."""
    page = pages()
    page.goto(live_server + "/")
    more_options(page)
    page.fill("#name", "Ann")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "easy")
    page.fill("#hands", "1")
    page.fill("#turn-seconds", "90")  # a clock that never runs out here, shown in the screenshot
    page.click("#create")
    page.wait_for_url("**/m/*")
    match_id, token, me = held(page)
    shot = _screenshot("table-desktop.png")
    shot.unlink(missing_ok=True)
    turns = 0
    while True:
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#winner").count():
            break
        if turns % 2 == 0:
            page.click("#hint")
            page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
            if turns >= 2 and not shot.exists():
                assert re.fullmatch(r"\d+ s left", page.inner_text("#clock").strip())
                page.screenshot(path=str(shot))
            page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")
        else:
            options = call(live_server, "GET", f"/v1/matches/{match_id}/legal", token=token)
            if options["plays"]:
                pick(page, options["plays"][-1]["cards"])
                assert any(word in selection(page) for word in ("beats the table", "lead with it", "bombs the table"))
                page.click("#play")
            else:
                assert page.locator("#play").is_disabled()
                page.click("#pass")
        turns += 1
        assert turns < 60, "the hand did not end"
    assert turns >= 2
    bots_played = page.locator("#log li[data-type=played]").all_inner_texts()
    assert any(text.startswith("Bot ") and " played " in text for text in bots_played), bots_played
    assert page.locator("#results .hand-result").count() == 1
    totals = page.locator("#scores tr.total td").all_inner_texts()
    assert len(totals) == 4 and all(text.lstrip("-").isdigit() for text in totals)
    assert page.inner_text("#winner").startswith("Winner of the match: ")
    # the final score card: the result, then the places (the winner first) with their points
    assert page.inner_text("#final-title") == "Final score"
    standings = page.locator("#standings li")
    assert standings.count() == 4
    winner = call(live_server, "GET", f"/v1/matches/{match_id}")["winner"]
    assert int(standings.first.get_attribute("data-seat") or -1) == winner
    assert all(text.endswith(" points") for text in standings.all_inner_texts())
    page.screenshot(path=str(_screenshot("table-desktop-result.png")), full_page=True)
    page.click("#rematch")
    page.wait_for_function("id => !location.pathname.endsWith(id)", arg=match_id)
    page.wait_for_selector("#hand button")
    next_id, _, _ = held(page)
    assert next_id != match_id
    page.click("#leave")
    page.click("#leave-yes")  # Leave asks first
    page.wait_for_url(live_server + "/")
    page.wait_for_selector("#quick-game")
    assert next_id not in page.evaluate("localStorage.getItem('tienlen.seats')")
    left = call(live_server, "GET", f"/v1/matches/{next_id}")
    assert left["seats"][me]["left"] is True


def _screenshot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / name


def test_live_line_judges_the_selection_from_legal_alone(pages: PageFactory, live_server: str) -> None:
    """The line under the hand names the selection and says whether it may be played now; Play follows it;
    picking cards sends nothing to the server."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages()
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    assert page.get_attribute("#hand button[data-card='3S']", "aria-label") == "3 of spades"
    assert page.locator("#hand button").all_inner_texts()[:3] == ["3♠", "3♣", "5♠"]  # low to high
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    pick(page, ["5S"])
    assert selection(page) == "must include 3♠"
    assert page.locator("#play").is_disabled()
    pick(page, ["5S", "6C"])
    assert selection(page) == "a run needs 3 cards in a row"
    pick(page, ["8S", "JS"])
    assert selection(page) == "a pair needs two cards of one rank"
    pick(page, ["3S", "3C"])
    assert selection(page) == "pair of 3s, you may lead with it"
    assert asked == []  # judged in the page
    page.click("#play")
    page.wait_for_selector("#log li[data-type=played]")
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    page.wait_for_function(MY_TURN)
    assert "Bo played pair of 4s" in page.inner_text("#table-play")
    assert "11 cards left" in page.inner_text(".seat[data-seat='1']")
    pick(page, ["9S", "9D"])
    assert selection(page) == "pair of 9s, beats the table"
    assert page.locator("#play").is_enabled()
    pick(page, ["9D"])
    assert selection(page) == "9♦ does not beat pair of 4s"
    assert page.locator("#play").is_disabled()


def test_refused_selection_cannot_be_sent(pages: PageFactory, live_server: str) -> None:
    """With a selection that is no legal play, Play stays disabled and clicking it sends no action."""
    match_id, ann, _ = _two_remote_seats(live_server)
    page = pages()
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    before = call(live_server, "GET", f"/v1/matches/{match_id}")["version"]
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    pick(page, ["5S", "6C", "8S"])
    assert selection(page) == "the cards of a run must be in a row"
    assert page.locator("#play").is_disabled()
    page.click("#play", force=True)
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)  # give a wrongly sent action time to show up
    assert sent == []
    assert call(live_server, "GET", f"/v1/matches/{match_id}")["version"] == before


def test_refused_action_shows_the_servers_message(pages: PageFactory, live_server: str) -> None:
    """The page's seat acts elsewhere while the page hears nothing; its Play is refused and it shows why.

    The page's stream and long polls are cut before it loads, so it still believes it leads; the same seat's lead
    is sent over HTTP; the page's Play then answers 409 and #error must read exactly that answer's ``message``.
    """
    match_id, ann, _ = _two_remote_seats(live_server)
    page = pages()
    page.route("**/stream*", lambda route: route.abort())
    page.route("**/events*", lambda route: route.abort())
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    pick(page, ["3S"])
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["3S"]}, ann)
    with page.expect_response(lambda r: r.url.endswith("/actions") and r.request.method == "POST") as caught:
        page.click("#play")
    refusal = caught.value
    assert refusal.status == 409
    message = refusal.json()["message"]
    assert message
    page.wait_for_function("m => document.querySelector('#error').textContent === m", arg=message)


def _seconds_left(page: Page) -> int:
    """The seconds the clock shows ("12 s left")."""
    found = re.search(r"\d+", page.inner_text("#clock"))
    assert found, page.inner_text("#clock")
    return int(found.group())


def test_clock_counts_down_at_once_and_the_seat_passes_when_it_runs_out(pages: PageFactory, live_server: str) -> None:
    """With a 4-second clock the page shows the countdown (an inline clock icon, no emoji) as soon as it is our
    turn and counts down; the sweeper passes for the seat, the page shows our pass, and the turn moves on: the bot
    leads the next round and our clock runs again."""
    deal = [
        ["4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "2S", "4C"],
        ["3S", "3C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2C"],
    ]
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {
            "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}],
            "rules": {"hands": 1},
            "deal": deal,
            "clock": {"turn_seconds": 4, "timeouts_before_takeover": 5},
        },
    )
    page = pages()
    witness = Witness(page)
    seat_at(page, live_server, created["match_id"], 0, created["tokens"][0]["token"], "Ann")
    witness.wait_for(MY_TURN)
    shown = page.inner_text("#clock")  # at once, not on a later tick
    assert re.fullmatch(r"\d+ s left", shown.strip()), shown
    assert page.locator("#clock svg").count() == 1
    first = _seconds_left(page)
    page.screenshot(path=str(_screenshot("table-clock.png")))
    page.wait_for_function("n => parseInt(document.querySelector('#clock-text').textContent) < n", arg=first)
    page.wait_for_selector("#log li[data-type=timed_out]")
    assert "Ann" not in page.inner_text("#log li[data-type=timed_out]")  # our own seat is "you"
    assert page.inner_text("#log li[data-type=timed_out]") == "You ran out of time"
    timed_out = int(page.get_attribute("#log li[data-type=timed_out]", "data-seq") or 0)
    ours = "#log li[data-seat='0'][data-type=passed], #log li[data-seat='0'][data-type=played]"
    page.wait_for_selector(ours)
    acted = page.locator(ours).first
    assert int(acted.get_attribute("data-seq") or 0) > timed_out
    assert acted.inner_text() == "You passed"  # the table held the bot's lead: the clock passes for us
    # the turn moved on: the bot's next move comes after our pass, then our turn (and clock) again
    bot_after = "n => [...document.querySelectorAll('#log li[data-seat=\"1\"]')].some(li => Number(li.dataset.seq) > n)"
    witness.wait_for(bot_after, arg=int(acted.get_attribute("data-seq") or 0))
    witness.wait_for(MY_TURN)
    assert page.inner_text("#turn-text") == "Your turn"
    assert page.locator(".seat[data-seat='0'].on-turn").count() == 1
    assert _seconds_left(page) <= 4


def test_phone_width_keyboard_only_turn(pages: PageFactory, live_server: str) -> None:
    """At 375 px nothing scrolls sideways, and one turn is played with the keyboard alone: Tab to the hand,
    arrows and Space to pick the pair of 3s, Tab to Play, Enter."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {
            "seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}],
            "rules": {"hands": 1},
            "deal": TWO_SEAT_DEAL,
        },
    )
    page = pages(viewport=PHONE)
    seat_at(page, live_server, created["match_id"], 0, created["tokens"][0]["token"], "Ann")
    page.wait_for_function(MY_TURN)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _tab_to(page, "document.activeElement.closest('#hand') !== null")
    page.keyboard.press("End")
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == "3S"
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "3C"
    page.keyboard.press("Space")
    assert selection(page) == "pair of 3s, you may lead with it"
    page.screenshot(path=str(_screenshot("table-phone.png")), full_page=True)
    _tab_to(page, "document.activeElement.id === 'play'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#log li[data-type=played][data-seat='0']")
    assert page.inner_text("#log li[data-type=played][data-seat='0']") == "You played pair of 3s"


def _tab_to(page: Page, reached: str) -> None:
    """Press Tab until the JavaScript condition `reached` holds."""
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(reached):
            return
    raise AssertionError(f"Tab never reached: {reached}")


def test_bots_plays_are_shown_one_after_another(pages: PageFactory, live_server: str) -> None:
    """After our play the bots' replies come at once from the server, yet the page shows them one at a time:
    each in its own step (never two bot moves in one redraw), paced (700 ms by default: the span of n moves is
    well over (n - 1) x 350 ms even on a busy machine), and our turn comes only after the last one."""
    page = pages(pace=None)
    page.goto(live_server + "/")
    more_options(page)
    page.click("#create")
    page.wait_for_url("**/m/*")
    page.wait_for_function(MY_TURN)
    _, _, me = held(page)
    page.evaluate(
        """seat => {
        window.steps = [];
        new MutationObserver((records) => {
            const moves = records.flatMap((r) => [...r.addedNodes])
                .filter((li) => ['played', 'passed'].includes(li.dataset.type) && li.dataset.seat !== String(seat));
            window.steps.push([performance.now(), moves.length]);
        }).observe(document.querySelector('#log'), {childList: true});
    }""",
        me,
    )
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")
    page.wait_for_function(MY_TURN_OR_OVER)
    turn_at = page.evaluate("performance.now()")
    steps = [(at, moves) for at, moves in page.evaluate("window.steps") if moves]
    assert len(steps) >= 2, steps
    assert all(moves == 1 for _, moves in steps), steps  # one bot move per step
    assert steps[-1][0] - steps[0][0] >= (len(steps) - 1) * 350, steps
    assert turn_at >= steps[-1][0]


def test_long_polls_bring_the_other_seats_play_when_the_stream_is_blocked(pages: PageFactory, live_server: str) -> None:
    """With every request for the SSE stream refused, the page falls back to long polls of /events: Bo's play,
    made over HTTP while the page waits, still reaches the table and the log."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages()
    streams: list[str] = []
    polls: list[str] = []

    def refuse(route: Route) -> None:
        streams.append(route.request.url)
        route.abort()

    page.route("**/stream*", refuse)
    page.on("request", lambda r: polls.append(r.url) if "/events?" in r.url and "wait=" in r.url else None)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    pick(page, ["3S", "3C"])
    page.click("#play")
    page.wait_for_selector("#log li[data-type=played][data-seat='0']")
    page.wait_for_function("() => document.querySelector('#hint').disabled")  # Bo's turn now
    call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
    page.wait_for_selector("#log li[data-type=played][data-seat='1']")
    assert page.inner_text("#log li[data-type=played][data-seat='1']") == "Bo played pair of 4s"
    page.wait_for_function(MY_TURN)
    assert "Bo played pair of 4s" in page.inner_text("#table-play")
    assert streams, "the page never asked for the stream"
    assert polls, "no long poll brought the play"


def test_our_turn_comes_only_after_the_plays_that_led_to_it_are_shown(pages: PageFactory, live_server: str) -> None:
    """The view read after our play can hold plays the page has not shown yet (the events on their way: a slow
    stream): the page shows them first, and our turn comes only with them on the table and in the log. Here the
    stream is refused and every long poll too, and Bo plays just as the page reads its view after Ann's play."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages()
    armed: list[bool] = []

    def no_stream_nor_long_polls(route: Route) -> None:
        route.abort()

    def bo_plays_first(route: Route) -> None:
        if armed and not armed[0]:
            armed[0] = True
            call(live_server, "POST", f"/v1/matches/{match_id}/actions", {"type": "play", "cards": ["4S", "4C"]}, bo)
        route.continue_()

    page.route("**/stream*", no_stream_nor_long_polls)
    page.route(re.compile(r".*/events\?.*wait=.*"), no_stream_nor_long_polls)
    page.route(f"**/v1/matches/{match_id}/view", bo_plays_first)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    pick(page, ["3S", "3C"])
    armed.append(False)
    page.click("#play")
    page.wait_for_function("() => document.querySelector('#hint').disabled")
    page.wait_for_function(MY_TURN)
    assert armed == [True], "the page read no view after its play"
    shown = page.locator("#log li[data-type=played][data-seat='1']")
    assert shown.count() == 1, "our turn came back before Bo's play was shown"
    assert "Bo played pair of 4s" in page.inner_text("#table-play")


def _play_out(base: str, match_id: str, tokens: dict[int, str]) -> None:
    """Play the remote seats of `tokens` over HTTP (a legal play, else a pass) until the match is finished."""
    token = next(iter(tokens.values()))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = call(base, "GET", f"/v1/matches/{match_id}/view", token=token)
        if state["status"] == "finished":
            return
        turn = state["turn"]
        if turn not in tokens:
            time.sleep(0.05)  # a bot's turn
            continue
        options = call(base, "GET", f"/v1/matches/{match_id}/legal", token=tokens[turn])
        action = {"type": "play", "cards": options["plays"][0]["cards"]} if options["plays"] else {"type": "pass"}
        call(base, "POST", f"/v1/matches/{match_id}/actions", action | {"version": state["version"]}, tokens[turn])
    raise AssertionError("the match did not end")


def _following(page: Page, match_id: str) -> list[str]:
    """The URLs of the page's requests for the match's events (the stream, pages and long polls), as they go."""
    asked: list[str] = []

    def record(url: str) -> None:
        if f"/v1/matches/{match_id}/" in url and ("/stream" in url or "/events" in url):
            asked.append(url)

    page.on("request", lambda request: record(request.url))
    return asked


@pytest.mark.parametrize("stream", ["open", "blocked"])
def test_finished_match_table_shows_the_end_and_follows_no_further(
    pages: PageFactory, live_server: str, stream: str
) -> None:
    """A 1-hand match against three bots, played to its end over HTTP, then opened at the table: the page shows the
    winner and Rematch, and over 5 s it asks for the match's events at most twice (its history, the stream that
    answers 204) and never long-polls: neither a 204 nor a refused stream (`blocked`) starts long polls of a
    finished match."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}] + [{"name": f"Bot {n}", "bot": "easy"} for n in (1, 2, 3)], "rules": {"hands": 1}},
    )
    match_id, ann = created["match_id"], created["tokens"][0]["token"]
    _play_out(live_server, match_id, {0: ann})
    page = pages()
    if stream == "blocked":
        page.route("**/stream*", lambda route: route.abort())
    asked = _following(page, match_id)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_selector("#winner")
    assert page.inner_text("#winner").startswith("Winner of the match: ")
    # the score card is drawn at once, its Rematch held until the page has read the log: it must come free
    page.wait_for_selector("#rematch:enabled")
    page.wait_for_timeout(5_000)
    assert not [url for url in asked if "wait=" in url], f"long polls of a finished match: {asked}"
    assert len(asked) <= 2, asked
    assert page.locator("#winner").is_visible()


def test_rematch_made_after_the_end_reaches_the_open_table(pages: PageFactory, live_server: str) -> None:
    """Ann's table is open while the match is played to its end over HTTP and Bo asks for a rematch right after:
    the stream ends with `match_ended`, the page reconnects once and gets the `rematch` (in the log, and the
    page's Rematch takes Ann to the next match); after that nothing more is asked (the last stream answers 204)."""
    match_id, ann, bo = _two_remote_seats(live_server)
    page = pages()
    asked = _following(page, match_id)
    seat_at(page, live_server, match_id, 0, ann, "Ann")
    page.wait_for_function(MY_TURN)
    _play_out(live_server, match_id, {0: ann, 1: bo})
    next_id = call(live_server, "POST", f"/v1/matches/{match_id}/rematch", token=bo)["match_id"]
    page.wait_for_selector("#winner")
    page.wait_for_selector("#log li[data-type=rematch]")
    assert page.inner_text("#log li[data-type=rematch]") == "A rematch is ready."
    # the page may have the rematch before the stream brings it (read with the plays it had not shown yet), so
    # wait until it asks nothing for 4 s rather than a fixed time after the rematch shows (a stream reconnects
    # about every 3 s: one that kept reconnecting would never be quiet that long)
    for _ in range(4):
        settled = len(asked)
        page.wait_for_timeout(4_000)
        if len(asked) == settled:
            break
    assert len(asked) == settled, f"the page kept asking: {asked}"
    assert not [url for url in asked if "wait=" in url], asked
    streams = [url for url in asked if "/stream" in url]
    assert len(streams) <= 3, streams  # the live one, the one with the rematch, the 204
    page.click("#rematch")
    page.wait_for_function("id => location.pathname.endsWith(id)", arg=next_id)
    page.wait_for_selector("#hand button")
