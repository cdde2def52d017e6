"""The first lesson at /learn (issue 44): every step done with the keyboard alone by its right answer, a wrong answer
explained in the engine's words, the lesson in Vietnamese, on a 375 px phone with no serious axe violation, ending in
the first screen's Quick game; the first screen loads none of the lesson (only its link)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.test_axe_phone import PHONE_SMALL, axe_checked

if TYPE_CHECKING:
    from playwright.sync_api import Page, Response

    from tests.web.conftest import PageFactory

pytestmark = pytest.mark.xdist_group("browser-b")

# Each step's right answer, in the order of the lesson (None: a pass).
RIGHT: list[tuple[str, list[str] | None]] = [
    ("lead_single", ["9H"]),
    ("beat_single", ["8C"]),
    ("pair", ["9C", "9H"]),
    ("straight", ["4D", "5H", "6S"]),
    ("pass_lock", None),
    ("bomb", ["6S", "6C", "6D", "6H"]),
    ("start_card", ["3S"]),
]
ACTIVE_MATCHES = "(s) => document.activeElement && document.activeElement.matches(s)"


def tab_to(page: Page, selector: str, limit: int = 40) -> None:
    """Press Tab until the element of `selector` has the focus."""
    for _ in range(limit):
        if page.evaluate(ACTIVE_MATCHES, selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def answer(page: Page, cards: list[str] | None) -> None:
    """Pick `cards` (Space on each) and press Play, or press Pass, with keys only."""
    for card in cards or []:
        tab_to(page, f"#hand button[data-card='{card}']")
        page.keyboard.press("Space")
        page.wait_for_selector(f"#hand button[data-card='{card}'][aria-pressed='true']")
    tab_to(page, "#lesson-pass" if cards is None else "#lesson-play")
    page.keyboard.press("Enter")


def open_lesson_by_keyboard(page: Page, base: str) -> None:
    """From the first screen, Tab to the lesson's link and follow it."""
    page.goto(base + "/")
    page.wait_for_selector("#quick-game")
    tab_to(page, "#learn-link")
    page.keyboard.press("Enter")
    page.wait_for_url("**/learn")
    page.wait_for_selector("#lesson-step-title[data-step='lead_single']")


def test_every_step_by_keyboard_then_a_quick_game(pages: PageFactory, live_server: str) -> None:
    """Rule: with keys only, the newcomer follows the first screen's link, passes every step by its right answer
    (Next after each), is told why a wrong answer is refused (a 3 does not beat a 7) and why a legal one is not the
    step's, and ends at the first screen's Play box, whose Quick game starts a table."""
    page = pages(viewport=PHONE_SMALL)
    loaded: list[Response] = []
    page.on("response", lambda response: loaded.append(response))
    page.goto(live_server + "/")
    page.wait_for_selector("#quick-game")
    assert not [r.url for r in loaded if "/js/lesson/" in r.url]  # the first screen: the link alone
    open_lesson_by_keyboard(page, live_server)
    for number, (step, cards) in enumerate(RIGHT, start=1):
        page.wait_for_selector(f"#lesson-step-title[data-step='{step}']")
        assert page.evaluate("document.activeElement.id") == "lesson-step-title"
        assert page.inner_text("#lesson-progress").endswith(f"Step {number} of {len(RIGHT)}")
        if step == "beat_single":  # an illegal answer, explained
            answer(page, ["3D"])
            page.wait_for_selector("#lesson-verdict[data-verdict='illegal'][data-reason='does_not_beat']")
            assert "does not beat the table" in page.inner_text("#lesson-verdict")
            assert page.is_hidden("#lesson-next")
        if step == "lead_single":  # a legal answer that is not the step's
            answer(page, ["7S", "7D"])
            page.wait_for_selector("#lesson-verdict[data-verdict='legal']")
            assert "not what this step asks" in page.inner_text("#lesson-verdict")
        if step == "pass_lock":  # a pass lock: the engine refuses a higher card
            answer(page, ["JH"])
            page.wait_for_selector("#lesson-verdict[data-reason='locked_bomb_only']")
        answer(page, cards)
        page.wait_for_selector("#lesson-verdict[data-verdict='passed']")
        assert page.evaluate("document.activeElement.id") == "lesson-next"  # Next at once
        page.keyboard.press("Enter")
    page.wait_for_selector("#lesson-done")
    assert page.inner_text("#lesson-quick").startswith("Play a Quick game")
    tab_to(page, "#quick-game")
    page.keyboard.press("Enter")
    page.wait_for_url("**/m/*")
    page.wait_for_selector("#hand button")


def test_the_lesson_in_vietnamese_on_a_phone_passes_axe(pages: PageFactory, live_server: str) -> None:
    """Rule: in Vietnamese the lesson's words and the engine's refusal are Vietnamese; on a 375 px phone a step, its
    verdict and the end pass axe (no serious or critical violation) with no sideways scroll."""
    page = pages(viewport=PHONE_SMALL)
    page.context.add_init_script("localStorage.setItem('tienlen.lang', 'vi')")
    page.goto(live_server + "/")
    page.wait_for_selector("#learn-link")
    assert page.inner_text("#learn-link").startswith("Mới chơi Tiến Lên")
    page.click("#learn-link")
    page.wait_for_selector("#lesson-step-title[data-step='lead_single']")
    assert page.inner_text("#lesson-step-title") == "Đánh một lá lẻ"
    assert page.inner_text("#lesson-play") == "Đánh" and page.inner_text("#lesson-pass") == "Bỏ lượt"
    axe_checked(page, "a lesson's step")
    answer(page, None)  # a pass on an empty table
    page.wait_for_selector("#lesson-verdict[data-reason='cannot_pass_on_lead']")
    assert page.inner_text("#lesson-verdict") == "Bàn trống: người đánh trước phải đánh, không được bỏ lượt."
    axe_checked(page, "a lesson's verdict")
    for step, cards in RIGHT:
        page.wait_for_selector(f"#lesson-step-title[data-step='{step}']")
        if step == "start_card":
            assert page.is_visible("#lesson-start-card")
            axe_checked(page, "the start card's step")
        answer(page, cards)
        page.wait_for_selector("#lesson-verdict[data-verdict='passed']")
        page.click("#lesson-next")
    page.wait_for_selector("#lesson-done")
    assert page.inner_text("#lesson-done") == "Bạn đã biết những điều cơ bản!"
    axe_checked(page, "the lesson's end")
