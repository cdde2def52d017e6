"""Watching a match at /m/<id>/watch: the public table followed as two browsers play it by its join link; every
play in order, no card face up but those played, the final scores; the join page's Watch link; "N watching" only
when the match says how many watch."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.web.conftest import PHONE
from tests.web.support import MY_TURN, call, seat_at

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-b")

# Run in the watcher's page before its scripts: after every change of the page, the play on the felt (noted when it
# changes) and every card shown face up anywhere else, or in a hand (which a watcher's page must never have).
SPY = """(() => {
  window.felt = []; window.stray = [];
  const look = () => {
    const play = document.getElementById("table-play");
    if (play && play.dataset.seat !== undefined) {
      const cards = [...play.querySelectorAll("[data-card]")].map((c) => c.dataset.card);
      const key = play.dataset.seat + ":" + cards.sort().join(" ");
      if (window.felt[window.felt.length - 1] !== key) window.felt.push(key);
    }
    for (const card of document.querySelectorAll(".face, [data-card], #hand, #mine")) {
      if (!play || !play.contains(card)) window.stray.push(card.outerHTML.slice(0, 120));
    }
  };
  new MutationObserver(look).observe(document, {childList: true, subtree: true, attributes: true});
})();"""


def _move(page: Page) -> None:
    """The page's player asks for a hint and plays it (or passes)."""
    page.click("#hint")
    page.wait_for_function("document.querySelector('#hint-text').textContent !== ''")
    page.click("#play" if page.locator("#play:not([disabled])").count() else "#pass")


def _played(events: list[dict[str, Any]]) -> list[str]:
    """The played events as the spy notes the felt: "seat:cards" (cards sorted)."""
    return [f"{e['seat']}:{' '.join(sorted(e['cards']))}" for e in events if e["type"] == "played"]


def _in_order(part: list[str], whole: list[str]) -> bool:
    """Whether `part` is `whole` with some items left out, in the same order."""
    rest = iter(whole)
    return all(item in rest for item in part)


def test_a_third_browser_watches_two_play_by_the_join_link(pages: PageFactory, live_server: str) -> None:
    """Rule: a watcher at /m/<id>/watch (a phone) sees the seats, every play in order (its log and its felt), never a
    card face up but the play on the felt, nor any hand; it asks for no seat's view, legal plays or hint and sends no
    token; at the end it shows the server's final scores."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"type": "open", "open": True}], "rules": {"hands": 1}},
    )
    match_id = created["match_id"]
    watcher = pages(viewport=PHONE)
    watcher.context.add_init_script(SPY)
    asked: list[Request] = []
    watcher.on("request", lambda request: asked.append(request))
    watcher.goto(f"{live_server}/m/{match_id}/watch")
    watcher.wait_for_selector("#seats .seat[data-seat='1']")
    assert "Ann" in watcher.inner_text("#watch-title")
    ann = pages()
    seat_at(ann, live_server, match_id, 0, created["tokens"][0]["token"], "Ann")
    bo = pages()
    bo.goto(f"{live_server}/m/{match_id}")  # the join link
    bo.fill("#join-name", "Bo")
    bo.click("#join")
    bo.wait_for_selector("#hand button")
    watcher.wait_for_function("document.querySelector('#watch-facts').textContent.includes('Hand 1')")
    assert watcher.locator("#seats .seat").count() == 2
    assert "Bo" in watcher.inner_text("#seats .seat[data-seat='1']")
    for _ in range(200):
        if call(live_server, "GET", f"/v1/matches/{match_id}")["status"] == "finished":
            break
        mover = next((page for page in (ann, bo) if page.evaluate(MY_TURN)), None)
        if mover is None:
            ann.wait_for_timeout(50)
            continue
        _move(mover)
    else:
        raise AssertionError("the match did not end")

    watcher.wait_for_selector("#final-title")
    finished = call(live_server, "GET", f"/v1/matches/{match_id}")
    events = call(live_server, "GET", f"/v1/matches/{match_id}/events?after=0")["events"]
    played = _played(events)
    logged = watcher.locator("#log li[data-type=played]").evaluate_all("lis => lis.map((li) => +li.dataset.seq)")
    assert logged[::-1] == [e["seq"] for e in events if e["type"] == "played"]  # every play, newest first
    felt = watcher.evaluate("window.felt")
    assert felt and _in_order(felt, played), (felt, played)
    assert watcher.evaluate("window.stray") == []
    names = {0: "Ann", 1: "Bo"}
    winner = finished["winner"]
    assert watcher.inner_text("#winner") == f"Winner of the match: {names[winner]}!"
    assert watcher.locator("#standings li").all_inner_texts() == [
        f"{names[s['seat']]} {s['score']} points"
        for s in sorted(finished["seats"], key=lambda s: (s["seat"] != winner, -s["score"]))
    ]
    assert watcher.get_attribute("#replay-link", "href") == f"/m/{match_id}/replay"
    # the last hand's cards as dealt, public now that it is over: each seat's, in the page's order low to high
    dealt = finished["hands"][-1]["dealt"]
    shown = watcher.locator("#shown-hands li .cards").all_inner_texts()
    assert [len(text.split()) for text in shown] == [len(cards) for cards in dealt]
    assert watcher.locator("#shown-hands li .cards").evaluate_all("s => s.map(x => x.getAttribute('aria-label'))")[0]
    api = [r for r in asked if "/v1/" in r.url]
    assert api and all(r.headers.get("authorization") is None for r in api)
    assert not [r.url for r in api if r.url.split("?")[0].endswith(("/view", "/legal", "/hint"))]
    assert watcher.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_join_page_links_to_watching(pages: PageFactory, live_server: str) -> None:
    """Rule: someone with a match's link and no seat at it is offered to watch it; the link opens the watched table
    in the page's language (Vietnamese here), with its hand number."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}], "rules": {"hands": 1}},
    )
    page = pages()
    page.context.add_init_script("localStorage.setItem('tienlen.lang', 'vi')")
    page.goto(f"{live_server}/m/{created['match_id']}")
    page.click("#watch-link")
    page.wait_for_url(f"**/m/{created['match_id']}/watch")
    page.wait_for_selector("#seats .seat[data-seat='1']")
    assert page.inner_text("#watch-title") == "Đang xem: Ann, Bot"
    assert page.inner_text("#watch-facts").startswith("Ván 1")  # and how many watch: the server counts them


@pytest.mark.parametrize(
    ("spectators", "said"), [(None, "Hand 1"), (0, "Hand 1 · 0 watching"), (3, "Hand 1 · 3 watching")]
)
def test_the_number_watching_shows_only_when_the_match_says_it(
    pages: PageFactory, live_server: str, spectators: int | None, said: str
) -> None:
    """Rule: "N watching" is shown when the public match has a `spectators` count (this server always sends it), and
    nothing when it has none (an older server's answer)."""
    created = call(
        live_server,
        "POST",
        "/v1/matches",
        {"seats": [{"name": "Ann"}, {"name": "Bot", "bot": "easy"}], "rules": {"hands": 1}},
    )
    match_id = created["match_id"]
    match = call(live_server, "GET", f"/v1/matches/{match_id}")
    page = pages()
    # the server always counts them: the match is answered as an older server's (no field) or with a count
    shown = {k: v for k, v in match.items() if k != "spectators"} | (
        {} if spectators is None else {"spectators": spectators}
    )
    page.route(f"**/v1/matches/{match_id}", lambda route: route.fulfill(json=shown))
    page.goto(f"{live_server}/m/{match_id}/watch")
    page.wait_for_selector("#seats .seat")
    assert page.inner_text("#watch-facts") == said
