"""Shared fixtures: a private Redis server for the session, the app, a client, a real server.

The helpers behind them live in :mod:`tests.support`. Two plugins are loaded
for the whole suite: ``pytester`` (to test the suite's own plugin) and
:mod:`tests.support.skips`, which fails any skip that is not a missing tool's.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from argon2 import PasswordHasher, profiles
from flask import Flask
from flask.testing import FlaskClient

from tests.support.api import Api, OwnAddressClient
from tests.support.servers import MODERATOR_TOKEN, ServerStarter, start_server, stop_server
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis, free_port
from tienlen.service import accounts

pytest_plugins = ["pytester", "tests.support.skips"]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalRedis]:
    """A Redis server of our own on a free port in a temp dir, stopped at the end."""
    with LocalRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def app(redis_server: LocalRedis) -> Flask:
    """The app on the session's Redis, with a small bot budget to keep tests quick, no rate limits, open hosting.

    Its test clients call from addresses of their own (:class:`OwnAddressClient`); tests/api/test_api_limits.py
    runs with limits on. Most tests host matches with open seats without an account; tests/api/test_api_rooms.py
    checks that by default it takes one.
    """
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    settings |= {"TIENLEN_ANONYMOUS_HOSTING": "1"}
    app = create_app({"REDIS_URL": redis_server.url, **settings})
    app.test_client_class = OwnAddressClient  # each client its own address (see OwnAddressClient)
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of the app, calling from an address of its own."""
    return app.test_client()


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """Conveniences over the test client."""
    return Api(client)


CHEAP_HASHER = PasswordHasher.from_parameters(profiles.CHEAPEST)


@pytest.fixture(autouse=True)
def cheap_password_hashing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In this process passwords are hashed with Argon2's cheapest parameters (argon2-cffi's advice for tests).

    The defaults cost about 0.14 s of CPU a hash here, for every account made and every login, and what the tests
    check (what is hashed, when, what is refused) does not depend on the cost. Servers the tests start as processes
    keep the defaults; a test marked ``real_password_hashing`` does too (timing, and the defaults themselves:
    tests/api/test_api_accounts.py).
    """
    if request.node.get_closest_marker("real_password_hashing") is None:
        monkeypatch.setattr(accounts, "_HASHER", CHEAP_HASHER)


@pytest.fixture(scope="session")
def server_starter() -> ServerStarter:
    """A function that starts a real server process and waits until it is healthy."""
    return start_server


@pytest.fixture(scope="session")
def live_server(redis_server: LocalRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real gunicorn server on the session's Redis; answers its base URL."""
    port = free_port()
    process = start_server(redis_server.url, port, tmp_path_factory.mktemp("server") / "server.log")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)


@pytest.fixture(scope="session")
def social_server(server_starter: ServerStarter, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server with a moderator token (``MODERATOR_TOKEN``), on a Redis of its own (its live table, reports
    and audit list hold only its tests' own); the browser's chat and moderator tests and the client's use it."""
    with LocalRedis(tmp_path_factory.mktemp("social-redis")) as redis:
        port = free_port()
        log = tmp_path_factory.mktemp("social-server") / "server.log"
        process = server_starter(redis.url, port, log, env={"TIENLEN_MODERATOR_TOKEN": MODERATOR_TOKEN})
        try:
            yield f"http://127.0.0.1:{port}"
        finally:
            stop_server(process)


# The longest xdist groups first: a worker takes a group whole, and a long group must not start when the other
# workers are nearly done. The browser tests are three groups of two to four minutes each (tests/web: each worker
# that takes one starts its own Chromium and servers), so that three workers share them. (pytest-xdist's loadgroup
# also puts groups of more tests before smaller ones; tests/test_xdist_groups.py checks that groups hold at all.)
GROUPS_FIRST = ("browser-a", "browser-b", "browser-c", "live_server", "rated_sim", "cluster", "faults", "tournament")

# Then the longest tests outside those groups, longest first (``--durations`` of a whole run, 2026-12-06), so that
# none of them starts last and keeps one worker busy after the other has finished. A prefix of node ids: a file,
# or a test in it. Within a prefix, and for every other test, collection order is kept.
SLOW_FIRST = (
    "tests/contract/test_schemathesis.py::test_schemathesis_finds_no_5xx",
    "tests/test_failover.py::test_killing_the_primary_under_load",
    "tests/bots/test_ratings.py::test_round_robin_rates_random_below_easy",
    "tests/web/test_web_types.py",
    "tests/bots/test_ratings.py::test_round_robin_of_every_level",
    "tests/engine/test_engine_properties.py",
    "tests/contract/test_typescript.py",
    "tests/contract/test_redocly.py",
    "tests/api/test_api_matches.py::test_full_match_through_http_for_every_preset",
    "tests/test_log_secrets.py::test_no_hand_seed_token_or_digest",
    "tests/contract/test_openapi_generator.py",
    "tests/test_bench_waiting.py",
    "tests/test_bench_hard_decisions.py",
    "tests/clients/test_bot_runner.py",
    "tests/clients/test_client_follow.py",
    "tests/test_readme.py",
    "tests/test_cli.py",
    "tests/contract/test_schemathesis.py",
    "tests/test_bench_memory.py",
    "tests/contract/test_sdk.py",
    "tests/test_bench_hard_ceiling.py",
    "tests/test_bench_http.py",
    "tests/api/test_api_history.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the tests of the longest xdist groups first (in :data:`GROUPS_FIRST` order), then the known-slow tests
    (in :data:`SLOW_FIRST` order), the rest after as collected (the sort is stable)."""

    def rank(item: pytest.Item) -> tuple[int, int]:
        mark = item.get_closest_marker("xdist_group")
        name = mark.args[0] if mark and mark.args else mark.kwargs.get("name") if mark else None
        if name in GROUPS_FIRST:
            return (0, GROUPS_FIRST.index(name))
        slow = next((i for i, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)), None)
        return (1, slow) if slow is not None else (2, 0)

    items.sort(key=rank)
