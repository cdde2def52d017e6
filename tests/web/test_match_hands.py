"""A Match of two hands at the browser table, two browsers at one table by its room code: after the first hand
each page reviews the scores and holds the next hand until its player chooses Next hand ("After a completed hand in
a Match, review the scores and choose Next Hand to continue. The final score card shows the result."); then the
final score card with places and points."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PHONE, PageFactory
from tests.web.support import MY_TURN, call, held, seat_at

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.xdist_group("browser-a")

REVIEWING = "(r => r !== null && !r.hidden)(document.querySelector('#review'))"


def _play_by_api(base: str, match_id: str, tokens: list[str]) -> None:
    """The seats' hints played over the API until the match is over (the pages only follow)."""
    for _ in range(200):
        match = call(base, "GET", f"/v1/matches/{match_id}")
        if match["status"] == "finished":
            return
        token = tokens[match["turn"]]
        action = call(base, "GET", f"/v1/matches/{match_id}/hint", token=token)["action"]
        call(base, "POST", f"/v1/matches/{match_id}/actions", action | {"version": match["version"]}, token)
    raise AssertionError("the match did not end")


def _move(page: Page) -> None:
    """The page's player asks for a hint and plays it (or passes)."""
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")


def _check_review(page: Page, base: str, match_id: str) -> None:
    """The review of hand 1: its places with the points each won, the scores so far (as the server has them), each
    seat's cards as dealt, the hand put away, Next hand focused; the next hand is held back until it is chosen."""
    assert page.inner_text("#review-title") == "Hand 1 is over"
    assert page.inner_text("#review .review-of") == "Hand 1 of 2 played."
    match = call(base, "GET", f"/v1/matches/{match_id}")
    first = match["hands"][0]
    places = page.locator("#review-places li")
    assert [int(li.get_attribute("data-seat") or -1) for li in places.all()] == first["places"]
    assert places.first.inner_text().endswith(f"+{first['points'][first['places'][0]]} points")
    totals = page.locator("#review-scores tr.total td").all_inner_texts()
    assert totals == [str(p) for p in first["points"]]
    # each seat's cards as dealt, public now the hand is over (the match's hands[].dealt), shown in the review
    page.wait_for_selector("#review-dealt #shown-hands li")
    shown = page.locator("#review-dealt #shown-hands li")
    assert shown.count() == 2 and first["dealt"] is not None
    for seat, cards in enumerate(first["dealt"]):
        assert shown.nth(seat).locator(".cards").get_attribute("aria-label") is not None
        assert len(shown.nth(seat).locator(".cards").inner_text().split()) == len(cards)
    assert page.locator("#mine").is_hidden()
    assert page.evaluate("document.activeElement.id") == "next-hand"
    page.wait_for_timeout(200)
    assert page.evaluate(REVIEWING)  # held: nothing moves on by itself


def test_two_browsers_by_room_code_play_a_two_hand_match_with_next_hand_then_the_final_score_card(
    pages: PageFactory, live_server: str
) -> None:
    """Ann hosts a two-hand match with an open seat; Bo (a phone) joins with its room code from the lobby; they play
    hand 1 (a fair deal of 13 cards: a match others join takes no fixed deal) by hints; after it each page shows the
    review and waits for Next hand (Ann by mouse, Bo by keyboard); hand 2 is played over the API; after it both show
    the final score card: the winner, the places with points, both hands' rows."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"type": "open", "open": True}], "rules": {"hands": 2}},
    )
    match_id, code = created["match_id"], created["match"]["room_code"]
    ann = pages()
    seat_at(ann, live_server, match_id, 0, created["tokens"][0]["token"], "Ann")
    assert ann.inner_text("#room-code") == code
    bo = pages(viewport=PHONE)
    bo.goto(live_server + "/")
    bo.fill("#room-code-input", code.lower())
    bo.fill("#code-name", "Bo")
    bo.press("#room-code-input", "Enter")
    bo.wait_for_url(f"**/m/{match_id}")
    players = [ann, bo]
    for page in players:
        page.wait_for_function("document.querySelectorAll('#hand button').length === 13")
    reviewed: set[int] = set()
    for _ in range(600):
        if reviewed == {0, 1}:
            break
        for at, page in enumerate(players):
            if at not in reviewed and page.evaluate(REVIEWING):
                _check_review(page, live_server, match_id)
                if at == 0:
                    page.click("#next-hand")
                else:
                    page.keyboard.press("Enter")  # Next hand has the focus
                page.wait_for_function(f"!{REVIEWING}")
                reviewed.add(at)
        mover = next((page for page in players if page.evaluate(MY_TURN)), None)
        if mover is None:
            ann.wait_for_timeout(50)
            continue
        _move(mover)
    else:
        raise AssertionError("the first hand did not end")
    for page in players:
        page.wait_for_function("document.querySelectorAll('#log li[data-type=hand_started]').length === 2")
        # hand 2 dealt (a seat may have played in it already); waited for: the page writes the log line as its
        # event comes and draws the new hand once it has read the seat's view
        page.wait_for_function("document.querySelectorAll('#hand button').length > 0")
    _play_by_api(live_server, match_id, [created["tokens"][0]["token"], held(bo)[1]])
    for page in players:  # a tie after hand 2 takes one more hand: its review too waits for Next hand
        page.wait_for_selector("#standings, #next-hand:visible")
        while page.locator("#next-hand:visible").count():
            assert page.inner_text("#review .review-of") == "The scores are tied: one more hand decides."
            page.click("#next-hand")
            page.wait_for_selector("#standings, #next-hand:visible")
    finished = call(live_server, "GET", f"/v1/matches/{match_id}")
    assert finished["status"] == "finished" and len(finished["hands"]) >= 2
    for page, names in ((ann, ["you", "Bo"]), (bo, ["Ann", "you"])):
        assert page.inner_text("#final-title") == "Final score"
        assert page.locator("#review").is_hidden()
        winner = finished["winner"]
        assert page.inner_text("#winner") == f"Winner of the match: {names[winner]}!"
        standings = page.locator("#standings li")
        assert int(standings.first.get_attribute("data-seat") or -1) == winner
        assert standings.all_inner_texts() == [
            f"{names[s['seat']]} {s['score']} points"
            for s in sorted(finished["seats"], key=lambda s: (s["seat"] != winner, -s["score"]))
        ]
        assert page.locator("#scores tbody tr").count() == len(finished["hands"]) + 1  # each hand, then the total
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
