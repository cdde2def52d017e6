"""Accounts in the API tests: a fresh name, signing up, the Authorization header, and reading what Redis keeps."""

from __future__ import annotations

import secrets
from typing import Any

from flask.testing import FlaskClient

PASSWORD = "correct horse battery"


def fresh_name(prefix: str = "p") -> str:
    """A name no other test uses."""
    return prefix + secrets.token_hex(5)


def auth(token: str) -> dict[str, str]:
    """The Authorization header of ``token``."""
    return {"Authorization": f"Bearer {token}"}


def sign_up(client: FlaskClient, name: str, password: str = PASSWORD, kind: str = "human") -> dict[str, Any]:
    """Make an account; assert 201; answer the body (the account and its session's token)."""
    answer = client.post("/v1/accounts", json={"name": name, "password": password, "kind": kind})
    assert answer.status_code == 201, answer.json
    body: dict[str, Any] = answer.get_json()
    return body


def session_of(client: FlaskClient, name: str) -> str:
    """Make an account named ``name``; its session token."""
    return str(sign_up(client, name)["token"])


# A server process an earlier test started on the worker's Redis (the browser tests' own) sweeps it while later
# tests run, taking these locks for a moment (a running tournament's check, the queue's pairing): not a request's.
SWEEP_LOCKS = (b"tl:{tour-lock:", b"tl:{queue}:lock:")
# An earlier test's spectators of a match: their entry expires on its own a while after the last was seen.
WATCHERS = b"tl:{spec:"


def keys(db: Any) -> set[bytes]:
    """Every key of the server's in the tests' Redis now, but a sweeper's passing locks (:data:`SWEEP_LOCKS`), an
    earlier test's match watchers (:data:`WATCHERS`) and the events a deleted match leaves for its followers
    (``…:events`` with no ``…:state``): those expire on their own a while after an earlier test (``GONE_EVENTS_TTL_S``
    a minute after it deleted the match), whenever that falls."""
    found = {key for key in db.scan_iter(match="tl:*", count=1000) if not key.startswith((*SWEEP_LOCKS, WATCHERS))}
    matches = {key.removesuffix(b":state") for key in found if key.endswith(b":state")}
    return {key for key in found if not (key.endswith(b":events") and key.removesuffix(b":events") not in matches)}


def values(db: Any, found: set[bytes]) -> list[bytes]:
    """Every stored value (and hash field, set member) of the keys ``found``, and the keys themselves."""
    out: list[bytes] = []
    for key in found:
        kind = db.type(key)
        if kind == b"string":
            out.append(db.get(key) or b"")
        elif kind == b"hash":
            out += [part for pair in db.hgetall(key).items() for part in pair]
        elif kind == b"set":
            out += list(db.smembers(key))
        elif kind == b"zset":
            out += list(db.zrange(key, 0, -1))
        out.append(key)
    return out
