"""The puzzles page (/puzzles): a position with both hands shown, solved by its line with the keyboard alone (cards
are toggle buttons), a wrong move showing the winning one, in English and Vietnamese, on a phone too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.conftest import PageFactory
from tests.web.test_axe_phone import axe_checked
from tienlen.bots.puzzles import Puzzle, load_bank
from tienlen.engine import format_mask
from tienlen.service.puzzles import puzzle_match

pytestmark = pytest.mark.xdist_group("browser-a")

BANK = {p.id: p for p in load_bank()}
PHONE = {"width": 375, "height": 667}  # the smallest phone of the axe test


def shown(page: Page) -> Puzzle:
    """The puzzle the page shows: the id on a board that shows its hand, read at once (a board drawn again, by a
    change of language say, has no id until its puzzle has loaded)."""
    found = page.wait_for_function(
        "(b => b && b.querySelector('#pz-hand button') ? b.dataset.puzzle : null)(document.querySelector('#pz-board'))"
    )
    return BANK[str(found.json_value())]


def test_a_puzzle_is_solved_by_its_line_with_the_keyboard(pages: PageFactory, live_server: str) -> None:
    """Rule: the header's Puzzles link opens a puzzle showing the opponent's cards; picking cards with Space and
    pressing Play (or Pass) move by move along the solution ends with "Solved!"."""
    page = pages()
    page.goto(live_server)
    page.click("#puzzles-link")
    p = shown(page)
    assert page.inner_text("#pz-them").startswith(f"Opponent's cards (seat {p.opponent}")
    mine = [mask for seat, mask in p.line if seat == p.turn]
    for number, mask in enumerate(mine, 1):
        told = page.locator("#pz-log li").count()  # the move's answer adds to the log: wait for it, not the status
        if mask:
            for card in format_mask(mask):
                page.focus(f'#pz-hand button[data-card="{card}"]')
                page.keyboard.press("Space")
            page.focus("#pz-play")
        else:
            page.focus("#pz-pass")
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.querySelectorAll('#pz-log li').length > n", arg=told)
        if number < len(mine):
            assert page.inner_text("#pz-status").startswith("Correct."), page.inner_text("#pz-status")
    page.wait_for_function("document.querySelector('#pz-status').textContent.startsWith('Solved!')")


def test_a_wrong_move_shows_the_winning_one_in_vietnamese_on_a_phone(pages: PageFactory, live_server: str) -> None:
    """Rule: in Vietnamese, on a phone (0 serious axe findings), a move that is not the winning one ends the attempt
    and names it."""
    page = pages(viewport=PHONE)
    page.goto(live_server)
    page.select_option("#lang", "vi")  # before the puzzle: a change of language draws the page again, loading anew
    page.click("#puzzles-link")
    p = shown(page)
    axe_checked(page, "puzzles")
    m = puzzle_match(p)
    wrong = next(a for a in [*m.legal_masks(), *([0] if m.table is not None else [])] if a != p.line[0][1])
    if wrong:
        for card in format_mask(wrong):
            page.click(f'#pz-hand button[data-card="{card}"]')
        page.click("#pz-play")
    else:
        page.click("#pz-pass")
    page.wait_for_function("document.querySelector('#pz-status').textContent.startsWith('Chưa đúng')")
    assert page.inner_text("#pz-h") == "Câu đố"
    assert page.is_disabled("#pz-play")
