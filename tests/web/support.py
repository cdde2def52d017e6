"""Helpers of the browser tests: the API over plain HTTP, and a page seated at a match."""

from __future__ import annotations

import json
import secrets
import time
import urllib.request
from typing import TYPE_CHECKING, Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

if TYPE_CHECKING:
    from playwright.sync_api import Page, Request, Response

# Seat 0 holds 3S (it leads, and that lead must include 3S); seat 1 holds the 4s and the 9 of clubs.
TWO_SEAT_DEAL = [
    ["3S", "3C", "5S", "6C", "8S", "9S", "9D", "JS", "QS", "KS", "AS", "2S", "7D"],
    ["3D", "4S", "4C", "4D", "5C", "6S", "7S", "8C", "9C", "10S", "JC", "QC", "KC"],
]

# The same JavaScript test of "is it my turn to act" everywhere: Hint is enabled only then.
MY_TURN = "(b => b !== null && !b.disabled)(document.querySelector('#hint'))"
MY_TURN_OR_OVER = f"document.querySelector('#winner') !== null || {MY_TURN}"


def call(base: str, method: str, path: str, body: object = None, token: str | None = None) -> Any:
    """One request to the API; its JSON answer (raises HTTPError on a refusal)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data, headers, method=method)
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read() or b"null")


# The password of the accounts the tests make.
PASSWORD = "table-secret-42"


def new_name(prefix: str) -> str:
    """An account name no other test uses (3 to 20 of A-Z a-z 0-9 _ -)."""
    return f"{prefix}_{secrets.token_hex(4)}"


def account(base: str, prefix: str) -> tuple[str, str]:
    """A new account made over the API: (its name, its session token)."""
    name = new_name(prefix)
    made = call(base, "POST", "/v1/accounts", {"name": name, "password": PASSWORD, "kind": "human"})
    return name, made["token"]


def more_options(page: Page) -> None:
    """Open the first screen's "More options" (the full form of a new match) and wait for its Create to work.

    The lobby may be drawn again while it loads (a closed "More options" in place of the opened one), so this
    opens it again until Create shows, as a user would click once more.
    """
    deadline = time.monotonic() + 30.0
    while True:
        page.wait_for_selector("#more-options > summary")
        if not page.evaluate("document.querySelector('#more-options')?.open ?? false"):
            page.click("#more-options > summary")
        if page.locator("#create:not([disabled])").is_visible():
            return
        if time.monotonic() > deadline:
            page.wait_for_selector("#create:not([disabled])", timeout=1)  # fails, saying what it waited for
        time.sleep(0.1)


def seat_at(page: Page, base: str, match_id: str, seat: int, token: str, name: str) -> None:
    """Give the page a seat (as the lobby keeps it in localStorage) and open the match's table."""
    page.goto(base + "/")
    page.evaluate(
        "([id, seat]) => localStorage.setItem('tienlen.seats', JSON.stringify({[id]: seat}))",
        [match_id, {"seat": seat, "token": token, "name": name}],
    )
    page.goto(f"{base}/m/{match_id}")
    page.wait_for_selector("#board")


def held(page: Page) -> tuple[str, str, int]:
    """(match id, token, seat) of the match the page shows, from its localStorage."""
    match_id = page.url.rstrip("/").rsplit("/", 1)[1]
    seat = page.evaluate(f"JSON.parse(localStorage.getItem('tienlen.seats'))['{match_id}']")
    return match_id, seat["token"], seat["seat"]


def pick(page: Page, cards: list[str]) -> None:
    """Click exactly these cards of the hand (unpicking any others first)."""
    picked = page.locator("#hand button[aria-pressed=true]")
    for _ in range(13):
        if not picked.count():
            break
        picked.first.click()
    for card in cards:
        page.click(f"#hand button[data-card='{card}']")


def selection(page: Page) -> str:
    """The live line about the selection."""
    return page.inner_text("#selection")


__all__ = [
    "MY_TURN",
    "MY_TURN_OR_OVER",
    "PASSWORD",
    "TWO_SEAT_DEAL",
    "account",
    "call",
    "held",
    "more_options",
    "new_name",
    "pick",
    "seat_at",
    "selection",
]


class Witness:
    """What a page asked and was answered, with times: told, with the page's log and turn line, when a wait on the
    page fails (a wait that fails only on a loaded machine is then explained by its failure alone)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.start = time.monotonic()
        self.lines: list[str] = []
        page.on("request", lambda r: self._note(">", r.method, r.url))
        page.on("response", self._answered)
        page.on("requestfailed", lambda r: self._note("failed", r.method, r.url))

    def _note(self, what: str, method: str, url: str) -> None:
        if "/v1/" in url:  # the API's requests, not the page's files
            self.lines.append(f"{time.monotonic() - self.start:7.2f} {what} {method} {url.split('/v1/', 1)[-1][:80]}")

    def _answered(self, response: Response) -> None:
        request: Request = response.request
        self._note(str(response.status), request.method, request.url)

    def wait_for(self, expression: str, arg: object = None) -> None:
        """``page.wait_for_function``; on a timeout an AssertionError telling what the page showed and asked."""
        try:
            self.page.wait_for_function(expression, arg=arg)
        except PlaywrightTimeoutError as error:
            shown = self.page.evaluate(
                "[...document.querySelectorAll('#log li')].reverse()"
                ".map(li => `${li.dataset.seq} ${li.dataset.type} seat ${li.dataset.seat}: ${li.textContent}`)"
            )
            turn = self.page.evaluate("document.querySelector('#turn')?.textContent ?? ''")
            said = self.page.evaluate("document.querySelector('#error')?.textContent ?? ''")
            raise AssertionError(
                f"{expression} did not hold after {time.monotonic() - self.start:.1f} s\n"
                f"turn line: {turn!r}; error line: {said!r}\nlog:\n  "
                + "\n  ".join(shown)
                + "\nrequests (seconds since the page was watched):\n  "
                + "\n  ".join(self.lines[-60:])
            ) from error
