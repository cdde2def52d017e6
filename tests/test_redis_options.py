"""The connection options of Redis and their defaults are declared once (tienlen/redis_options.py); the settings,
the kinds of store, the store's connections, the rate limits and the local servers' clients take them from there.

The source of every module under server/tienlen is parsed (not imported) and
the facts below looked for: each is found in its one place only.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import pytest

from tienlen.redis_options import (
    DEFAULT_DURABILITY,
    DEFAULT_POOL_SIZE,
    DEFAULT_REDIS_TIMEOUT_S,
    DEFAULT_REDIS_URL,
    DEFAULT_SENTINEL_MASTER,
    RedisAccess,
    RedisOptions,
    tls_kwargs,
)
from tienlen.settings import Settings
from tienlen.store.client import WAIT_SHARE, Durability

SERVER = Path(__file__).resolve().parents[1] / "server" / "tienlen"


NodeTest = Callable[[ast.AST], bool]


def places(test: NodeTest) -> list[str]:
    """The modules under server/tienlen (relative paths) whose code holds a node for which ``test`` is true."""
    return sorted(
        str(path.relative_to(SERVER))
        for path in SERVER.rglob("*.py")
        if any(test(node) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))
    )


def constant(value: object) -> NodeTest:
    """A test of a node: the literal ``value``."""
    return lambda node: isinstance(node, ast.Constant) and node.value == value


def call_of(name: str) -> NodeTest:
    """A test of a node: a call of ``name`` (a plain name or an attribute)."""

    def test(node: ast.AST) -> bool:
        if not isinstance(node, ast.Call):
            return False
        called = node.func
        return (isinstance(called, ast.Name) and called.id == name) or (
            isinstance(called, ast.Attribute) and called.attr == name
        )

    return test


@pytest.mark.parametrize(
    ("fact", "test", "home"),
    [
        ("the sentinels' default primary name", constant(DEFAULT_SENTINEL_MASTER), ["redis_options.py"]),
        ("the default REDIS_URL", constant(DEFAULT_REDIS_URL), ["redis_options.py"]),
        ("the TLS files as redis-py takes them", constant("ssl_ca_certs"), ["redis_options.py"]),
        ("the client certificate as redis-py takes it", constant("ssl_certfile"), ["redis_options.py"]),
        ("the socket timeouts", constant("socket_timeout"), ["store/reach.py"]),
        ("every retry policy", call_of("Retry"), ["store/reach.py"]),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_a_connection_fact_is_written_in_one_place(fact: str, test: NodeTest, home: list[str]) -> None:
    """Rule: a connection option's default, the reading of the TLS files and the retry policies are each
    written in one module; the others take them from it."""
    assert places(test) == home, fact


def test_the_settings_defaults_are_the_options_defaults() -> None:
    """Rule: settings read from an empty environment reach Redis exactly as the options' own defaults do."""
    loaded = Settings.load({"REDIS_URL": DEFAULT_REDIS_URL})
    assert loaded.redis_options(cooperative=False) == RedisOptions(DEFAULT_REDIS_URL)
    assert Settings().redis_options(cooperative=True) == RedisOptions(DEFAULT_REDIS_URL, cooperative=True)
    defaults = {f.name: f.default for f in fields(RedisOptions)}
    assert defaults["timeout_s"] == DEFAULT_REDIS_TIMEOUT_S and defaults["pool_size"] == DEFAULT_POOL_SIZE
    assert (defaults["sentinel_master"], defaults["durability"]) == (DEFAULT_SENTINEL_MASTER, DEFAULT_DURABILITY)


def test_a_write_waits_by_default_for_its_share_of_the_default_timeout() -> None:
    """Rule: a Durability made without options waits what the default options' writes wait."""
    assert Durability() == Durability(DEFAULT_DURABILITY, int(DEFAULT_REDIS_TIMEOUT_S * 1000 * WAIT_SHARE))


@pytest.mark.parametrize(
    ("access", "expected"),
    [
        (RedisAccess(), {}),
        (RedisAccess(tls_ca="ca.pem"), {"ssl_ca_certs": "ca.pem"}),
        (RedisAccess(tls_cert="c.pem"), {"ssl_certfile": "c.pem", "ssl_keyfile": None}),
        (
            RedisAccess(tls_ca="ca.pem", tls_cert="c.pem", tls_key="c.key"),
            {"ssl_ca_certs": "ca.pem", "ssl_certfile": "c.pem", "ssl_keyfile": "c.key"},
        ),
    ],
)
def test_tls_always_checks_the_server_and_shows_the_client_certificate_when_given(
    access: RedisAccess, expected: dict[str, str | None]
) -> None:
    """Rule: TLS checks the server's certificate and host name (against the system's CAs when none is given),
    and shows a client certificate only when one is given (its key in its own file when none is)."""
    assert tls_kwargs(access) == {"ssl": True, "ssl_cert_reqs": "required", "ssl_check_hostname": True} | expected
