"""Fixtures of the browser tests: Debian's Chromium through Playwright, and pages that must stay on this server.

Every page comes from the ``pages`` factory, which fails the test when any page
asked another host for anything. Browsers are only found, never downloaded:
``require_tool`` skips without Chromium, and CI (``TIENLEN_REQUIRE_TOOLS=1``)
installs Chromium and fails instead. Playwright is a dev dependency, always
installed with ``[dev]``: failing to import it is an error, not a missing tool.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from tests.support.servers import MODERATOR_TOKEN, ServerStarter, stop_server
from tests.support.tools import require_tool
from tienlen.local_redis import LocalRedis, free_port

CHROMIUM = os.environ.get("TIENLEN_CHROMIUM", "/usr/bin/chromium")
# Screenshots of the table that each run saves (desktop and phone); one of them is committed in docs/.
SCREENSHOTS = Path(os.environ.get("TIENLEN_SCREENSHOTS", Path(__file__).resolve().parents[2] / "var" / "screenshots"))
# Generous waits: CI runs these beside the rest of the suite on 2 cores.
WAIT_MS = 30_000
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 375, "height": 800}

PageFactory = Callable[..., Page]
__all__ = ["DESKTOP", "MODERATOR_TOKEN", "PHONE", "PageFactory"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    found = Path(CHROMIUM).exists() or shutil.which("chromium") is not None
    require_tool("chromium", found, "apt-get install chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def pages(browser: Browser, live_server: str) -> Iterator[PageFactory]:
    """New pages, each in its own browser context (its own localStorage); any request to another host fails, and
    so does an error a page throws and does not catch (an unhandled rejection too).

    ``motion`` lets the page move (reduced motion is emulated by default); ``pace`` sets the page's pause between
    other seats' plays in ms (``None``: the page's own default); ``autoplay`` leaves the page's auto-play of a
    selection that cannot be extended on (off by default here).
    """
    yield from _pages(browser, live_server)


@pytest.fixture(scope="session")
def account_server(
    redis_server: LocalRedis, server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A real server as deployed: hosting a match with open seats takes an account (no anonymous hosting)."""
    yield from _served(server_starter, tmp_path_factory, redis_server.url, "account-server", {})


def _served(
    starter: ServerStarter, folders: pytest.TempPathFactory, redis_url: str, name: str, env: dict[str, str]
) -> Iterator[str]:
    """A server on ``redis_url`` that needs an account to host, with ``env`` besides; its URL until stopped."""
    port = free_port()
    process = starter(
        redis_url, port, folders.mktemp(name) / "server.log", env={"TIENLEN_ANONYMOUS_HOSTING": "0"} | env
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)


@pytest.fixture
def account_pages(browser: Browser, account_server: str) -> Iterator[PageFactory]:
    """Pages as ``pages`` gives them, that must stay on ``account_server``."""
    yield from _pages(browser, account_server)


# Seconds a quick-play ticket of ``queue_server`` waits for players before house bots take the seats left.
QUEUE_FILL_S = 2


@pytest.fixture(scope="session")
def queue_server(server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server as ``account_server`` is, whose quick play fills a table with house bots after QUEUE_FILL_S seconds.

    It has a Redis of its own: every server pairs the queues of its Redis with its own fill time, so on the
    session's Redis it would fill the other servers' tickets too.
    """
    with LocalRedis(tmp_path_factory.mktemp("queue-redis")) as redis:
        env = {"TIENLEN_QUEUE_FILL_S": str(QUEUE_FILL_S)}
        yield from _served(server_starter, tmp_path_factory, redis.url, "queue-server", env)


@pytest.fixture
def queue_pages(browser: Browser, queue_server: str) -> Iterator[PageFactory]:
    """Pages as ``pages`` gives them, that must stay on ``queue_server``."""
    yield from _pages(browser, queue_server)


@pytest.fixture
def social_pages(browser: Browser, social_server: str) -> Iterator[PageFactory]:
    """Pages as ``pages`` gives them, that must stay on ``social_server``."""
    yield from _pages(browser, social_server)


def _pages(browser: Browser, base: str) -> Iterator[PageFactory]:
    """The page factory of ``pages``: pages that may ask ``base``'s host alone; the contexts closed after the test."""
    host = urlparse(base).netloc
    foreign: list[str] = []
    thrown: list[str] = []
    contexts: list[BrowserContext] = []

    def record(url: str) -> None:
        if urlparse(url).scheme not in ("data", "blob", "about") and urlparse(url).netloc != host:
            foreign.append(url)

    def new(
        viewport: ViewportSize | None = None, pace: int | None = 40, autoplay: bool = False, motion: bool = False
    ) -> Page:
        # reduced motion unless a test looks at the motion (``motion``): the turn cue's glow repaints the page all the
        # while it waits for a move, and the browsers take a large share of a 2-core machine's CPU in the suite
        motion_asked: Literal["no-preference", "reduce"] = "no-preference" if motion else "reduce"
        context = browser.new_context(viewport=viewport or DESKTOP, reduced_motion=motion_asked)
        context.set_default_timeout(WAIT_MS)
        context.on("request", lambda request: record(request.url))
        if pace is not None:
            context.add_init_script(f"localStorage.setItem('tienlen.pace', '{pace}')")
        # B: a selection that cannot be extended plays by itself on the page unless turned off: off here but where a
        # test asks for it, so the tests that pick cards then press Play do what they say
        if not autoplay:
            context.add_init_script("localStorage.setItem('tienlen.autoplay', 'off')")
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: thrown.append(f"{page.url}: {error}"))
        return page

    yield new
    for context in contexts:
        context.close()
    assert foreign == [], f"pages asked other hosts: {foreign}"
    assert thrown == [], f"pages threw: {thrown}"
