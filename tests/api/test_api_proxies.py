"""Behind reverse proxies: ``TIENLEN_TRUSTED_PROXIES`` hops of ``X-Forwarded-For`` believed, none by default.

Rules checked: without the setting a forged ``X-Forwarded-For`` is ignored (two clients that forge different
ones from one address share that address's limits); with one hop two clients behind the proxy are counted
apart, by the address the proxy appended (not one the client forged before it), in the rate limits and the
login throttle alike; and no module but ``api/caller.py`` reads the peer's address or the forwarding headers.
"""

from __future__ import annotations

import re
import secrets
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.support.accounts import PASSWORD, fresh_name
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.service.accounts import LOGIN_THROTTLE
from tienlen.store.redis_accounts import fails_key

SERVER = Path(__file__).resolve().parents[2] / "server" / "tienlen"


def address() -> str:
    """An address no other test uses (the limit here counts a day)."""
    return f"100.{secrets.randbelow(64) + 64}.{secrets.randbelow(256)}.{secrets.randbelow(254) + 1}"


def proxied_app(redis_server: LocalRedis, hops: str | None) -> Flask:
    """The app with one account a day per address, behind ``hops`` trusted proxies (None: the setting unset)."""
    settings = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "account=1/day"}
    if hops is not None:
        settings["TIENLEN_TRUSTED_PROXIES"] = hops
    return create_app({"REDIS_URL": redis_server.url, **settings})


def sign_up_from(app: Flask, proxy: str, forwarded: str) -> int:
    """Make an account from ``proxy``'s address, with ``X-Forwarded-For: forwarded``; the status."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = proxy
    body = {"name": fresh_name(), "password": PASSWORD, "kind": "human"}
    return client.post("/v1/accounts", json=body, headers={"X-Forwarded-For": forwarded}).status_code


@pytest.mark.parametrize("hops", [None, "0"], ids=["unset", "0"])
def test_without_trusted_proxies_a_forged_forwarded_for_is_ignored(redis_server: LocalRedis, hops: str | None) -> None:
    app, proxy = proxied_app(redis_server, hops), address()
    assert sign_up_from(app, proxy, address()) == 201
    assert sign_up_from(app, proxy, address()) == 429, "a forged header made another client"


def test_with_one_trusted_proxy_clients_behind_it_are_counted_apart(redis_server: LocalRedis, db: Any) -> None:
    app, proxy = proxied_app(redis_server, "1"), address()
    one, two = address(), address()
    assert sign_up_from(app, proxy, one) == 201
    assert sign_up_from(app, proxy, two) == 201, "another client behind the proxy has its own count"
    assert sign_up_from(app, proxy, one) == 429, "the same client is counted"
    assert sign_up_from(app, proxy, f"{address()}, {two}") == 429, "only the hop the proxy appended is believed"

    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = proxy
    body = {"name": fresh_name(), "password": PASSWORD}
    assert client.post("/v1/sessions", json=body, headers={"X-Forwarded-For": one}).status_code == 401
    assert db.exists(fails_key(LOGIN_THROTTLE, f"addr:{one}")), "the login throttle counts the forwarded address"
    assert not db.exists(fails_key(LOGIN_THROTTLE, f"addr:{proxy}"))


def test_only_the_caller_module_reads_the_peer_address_or_forwarding_headers() -> None:
    """Rule: every per-address count (limits, throttles, idempotency scopes, waiting caps) asks
    ``api.caller.client_address``; so the trusted-proxy setting applies to each at once."""
    pattern = re.compile(r"\.remote_addr\b|REMOTE_ADDR|HTTP_X_FORWARDED|headers\.get\([\"']X-Forwarded", re.I)
    readers = sorted(
        str(path.relative_to(SERVER))
        for path in SERVER.rglob("*.py")
        if pattern.search(path.read_text(encoding="utf-8"))
    )
    assert readers == ["api/caller.py"]
