"""The browser table's languages are data: one list in i18n.js (each language's code, its own name, its texts)
builds the language menu and checks a saved choice, so a language added to that list alone is offered, used and
kept, and a saved language the list lacks falls back to English."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.web.conftest import PageFactory
from tests.web.support import more_options

if TYPE_CHECKING:
    from playwright.sync_api import Page, Route

pytestmark = pytest.mark.xdist_group("browser-a")

LISTED = "import('/web/js/i18n.js').then(({LANGUAGES}) => LANGUAGES.map(({code, name}) => [code, name]))"
MENU = "[...document.querySelectorAll('#lang option')].map((o) => [o.value, o.textContent])"
# A third language, added as a new language is: one more entry of the list, nothing else changed anywhere.
ESPERANTO = """
LANGUAGES.push({code: "eo", name: "Esperanto",
    texts: {...LANGUAGES.find((lang) => lang.code === "en").texts, language: "Lingvo", start: "Krei"}});
"""


def _add_esperanto(route: Route) -> None:
    """Serve i18n.js with Esperanto appended to its list of languages."""
    answer = route.fetch()
    route.fulfill(response=answer, body=answer.text() + ESPERANTO)


def _lobby(page: Page, base: str) -> None:
    page.goto(base + "/")
    more_options(page)


def test_the_language_menu_offers_each_language_of_the_list_by_its_own_name(
    pages: PageFactory, live_server: str
) -> None:
    """Rule: the menu lists exactly the list's languages, in its order, each under its own name."""
    page = pages()
    _lobby(page, live_server)
    listed = page.evaluate(LISTED)
    assert listed[:2] == [["en", "English"], ["vi", "Tiếng Việt"]]
    assert page.evaluate(MENU) == listed
    assert page.locator("#lang option[lang='vi']").inner_text() == "Tiếng Việt"  # read in its own language


def test_a_language_added_to_the_list_alone_is_offered_used_and_kept(pages: PageFactory, live_server: str) -> None:
    """Rule: adding a language is adding its entry to the list: with Esperanto appended to it (and nothing else
    changed) the menu offers it, choosing it shows its texts, and the choice is kept over a reload."""
    page = pages()
    page.route("**/web/js/i18n.js", _add_esperanto)
    _lobby(page, live_server)
    assert page.evaluate(MENU)[-1] == ["eo", "Esperanto"]
    page.select_option("#lang", "eo")
    page.wait_for_function("document.querySelector('#create')?.textContent === 'Krei'")
    assert page.inner_text("#lang-label") == "Lingvo"
    page.reload()
    _lobby(page, live_server)
    assert page.input_value("#lang") == "eo"
    assert page.inner_text("#create") == "Krei"
    assert page.evaluate("[document.documentElement.lang, localStorage.getItem('tienlen.lang')]") == ["eo", "eo"]


@pytest.mark.parametrize("saved", ["xx", "eo", "", "toString"])
def test_a_saved_language_the_list_lacks_falls_back_to_english(
    pages: PageFactory, live_server: str, saved: str
) -> None:
    """Rule: a saved choice is used only when the list has that language (an object's own keys, like toString, are
    no language): otherwise the page is in English, the menu says so, and English is what is saved."""
    page = pages()
    page.goto(live_server + "/")
    page.evaluate("saved => localStorage.setItem('tienlen.lang', saved)", saved)
    page.reload()
    _lobby(page, live_server)
    assert page.input_value("#lang") == "en"
    assert page.inner_text("#create") == "Create"
    assert page.inner_text("#lang-label") == "Language"
    assert page.evaluate("[document.documentElement.lang, localStorage.getItem('tienlen.lang')]") == ["en", "en"]
