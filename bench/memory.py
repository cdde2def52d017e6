"""Redis memory per match: waiting for seats, in play (4 seats), finished, and kept in a player's history.

Starts a private ``redis-server`` (no AOF) and the app in this process
(``TIENLEN_RATE_LIMITS=off``, ``TIENLEN_ANONYMOUS_HOSTING=1``), then for each kind makes ``--matches`` matches
through the HTTP API and prints one JSON object with, per kind:

- ``memory_usage_bytes``: the median over the matches of ``MEMORY USAGE``
  (``SAMPLES 0``, exact) summed over the match's own keys (its state hash,
  its event stream and the answers kept for its ``Idempotency-Key``s);
- ``used_memory_delta_bytes``: the growth of ``INFO memory`` ``used_memory``
  over the kind's matches divided by their number (includes the lobby and
  clock indexes and Redis's own bookkeeping per key);
- ``events``: the median number of events kept.

Kinds: ``waiting`` is a listed 4-seat match with one named seat and three
open (in the lobby); ``active`` is a 4-seat match of four remote seats with a
turn clock, after ``--actions`` plays or passes (the lowest legal play, else
a pass); ``finished`` is a one-hand match of one remote seat and three Easy
bots played to its end. Every create and action sends an ``Idempotency-Key``,
as the clients do; ``active_4_seats_without_keys`` is the active kind without
any, for comparison.

``kept`` is the same one-hand 4-player match with an account at the remote
seat: what stays after its live keys expire. ``memory_usage_bytes`` is then
``MEMORY USAGE`` of the kept record (``tl:{kept:<id>}``) and
``index_bytes_per_match`` the account's history indexes (matches and wins)
divided by the matches they list. Run with ``make bench-memory``.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

import redis

from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.store.redis_accounts import name_key

KEYS = ("state", "events")


def _post(client: Any, path: str, body: Any = None, token: str | None = None, keyed: bool = True) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if keyed:
        headers["Idempotency-Key"] = str(uuid.uuid4())
    response = client.post(path, json=body, headers=headers)
    assert response.status_code in (200, 201), (path, response.status_code, response.get_json())
    return dict(response.get_json())


def _get(client: Any, path: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.get(path, headers=headers)
    assert response.status_code == 200, (path, response.status_code, response.get_json())
    return dict(response.get_json())


def _act(client: Any, match_id: str, token: str, keyed: bool = True) -> None:
    """The lowest legal play, else a pass."""
    legal = _get(client, f"/v1/matches/{match_id}/legal", token)
    action = {"type": "play", "cards": legal["plays"][0]["cards"]} if legal["plays"] else {"type": "pass"}
    if legal["can_pass"] and len(legal["plays"]) > 3:
        action = {"type": "pass"}  # keep the hand going rather than emptying it
    _post(client, f"/v1/matches/{match_id}/actions", action, token, keyed)


def make_waiting(client: Any, index: int) -> str:
    """A listed 4-seat match waiting for three players (fair-dealt: a match others join takes no seed)."""
    seats = [{"name": "Ann"}] + [{"open": True}] * 3
    return str(_post(client, "/v1/matches", {"seats": seats, "listed": True})["match_id"])


def make_active(client: Any, index: int, actions: int, keyed: bool = True) -> str:
    """A 4-seat match of remote seats with a clock, ``actions`` turns in (with keys unless not ``keyed``)."""
    seats = [{"name": name} for name in ("Ann", "Bo", "Cy", "Di")]
    body = {"seats": seats, "clock": {"turn_seconds": 600}, "seed": index}
    created = _post(client, "/v1/matches", body, keyed=keyed)
    match_id = str(created["match_id"])
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    for _ in range(actions):
        turn = _get(client, f"/v1/matches/{match_id}")["turn"]
        if turn is None:
            break
        _act(client, match_id, tokens[turn], keyed)
    return match_id


def make_finished(client: Any, index: int) -> str:
    """A one-hand match of one remote seat and three Easy bots, played to its end."""
    seats = [{"name": "Ann"}] + [{"name": n, "bot": "easy"} for n in ("Bo", "Cy", "Di")]
    created = _post(client, "/v1/matches", {"seats": seats, "rules": {"hands": 1}, "seed": index})
    match_id, token = str(created["match_id"]), created["tokens"][0]["token"]
    while _get(client, f"/v1/matches/{match_id}")["status"] == "playing":
        legal = _get(client, f"/v1/matches/{match_id}/legal", token)
        action = {"type": "play", "cards": legal["plays"][0]["cards"]} if legal["plays"] else {"type": "pass"}
        _post(client, f"/v1/matches/{match_id}/actions", action, token)
    return match_id


def make_kept(client: Any, token: str, index: int) -> str:
    """A one-hand match of an account's seat and three Easy bots, played to its end (and so kept)."""
    seats = [{"name": "Ann"}] + [{"name": n, "bot": "easy"} for n in ("Bo", "Cy", "Di")]
    created = _post(client, "/v1/matches", {"seats": seats, "rules": {"hands": 1}, "seed": index}, token)
    match_id, seat_token = str(created["match_id"]), created["tokens"][0]["token"]
    while _get(client, f"/v1/matches/{match_id}")["status"] == "playing":
        legal = _get(client, f"/v1/matches/{match_id}/legal", seat_token)
        action = {"type": "play", "cards": legal["plays"][0]["cards"]} if legal["plays"] else {"type": "pass"}
        _post(client, f"/v1/matches/{match_id}/actions", action, seat_token)
    return match_id


def _kept_figures(client: Any, direct: Any, matches: int) -> dict[str, Any]:
    """The kept kind: one account plays every match; its kept records and its indexes are measured."""
    name = f"bench{uuid.uuid4().hex[:12]}"
    body = {"name": name, "password": "bench password", "kind": "human"}
    token = str(_post(client, "/v1/accounts", body, keyed=False)["token"])
    account_id = direct.get(name_key(name)).decode()
    made = [make_kept(client, token, i) for i in range(matches)]
    usages = [int(direct.memory_usage(f"tl:{{kept:{m}}}", samples=0) or 0) for m in made]
    index = sum(
        int(direct.memory_usage(f"tl:{{acct:{account_id}}}:{key}", samples=0) or 0) for key in ("matches", "wins")
    )
    return {
        "memory_usage_bytes": int(statistics.median(usages)),
        "memory_usage_max_bytes": max(usages),
        "index_bytes_per_match": index // matches,
        "kept_per_match": len(direct.zrange(f"tl:{{acct:{account_id}}}:matches", 0, -1)) / matches,
    }


def _usage(client: Any, match_id: str) -> int:
    keys = [f"tl:{{{match_id}}}:{key}" for key in KEYS] + list(client.scan_iter(f"tl:{{{match_id}}}:idem:*"))
    return sum(int(client.memory_usage(key, samples=0) or 0) for key in keys)


def _used_memory(client: Any) -> int:
    return int(client.info("memory")["used_memory"])


def measure(matches: int, actions: int) -> dict[str, Any]:
    """The figures of every kind, on a fresh private Redis."""
    with tempfile.TemporaryDirectory() as data, LocalRedis(Path(data), appendonly=False) as server:
        settings = {"TIENLEN_RATE_LIMITS": "off", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_ANONYMOUS_HOSTING": "1"}
        app = create_app({"REDIS_URL": server.url, **settings})
        client = app.test_client()
        direct: Any = redis.Redis.from_url(server.url)  # redis-py's answers are loosely typed
        makers: dict[str, Callable[[int], str]] = {
            "waiting": lambda i: make_waiting(client, i),
            "active_4_seats": lambda i: make_active(client, i, actions),
            "active_4_seats_without_keys": lambda i: make_active(client, i, actions, keyed=False),
            "finished": lambda i: make_finished(client, i),
        }
        for make in makers.values():  # warm up: scripts loaded, indexes made, buffers grown
            for i in range(3):
                make(matches + i)
        figures: dict[str, Any] = {}
        for kind, make in makers.items():
            before = _used_memory(direct)
            made = [make(i) for i in range(matches)]
            grown = _used_memory(direct) - before
            usages = [_usage(direct, m) for m in made]
            events = [int(direct.xlen(f"tl:{{{m}}}:events")) for m in made]
            figures[kind] = {
                "memory_usage_bytes": int(statistics.median(usages)),
                "memory_usage_max_bytes": max(usages),
                "used_memory_delta_bytes": grown // matches,
                "events": int(statistics.median(events)),
            }
        figures["kept"] = _kept_figures(client, direct, matches)
        version = str(direct.info("server")["redis_version"])
    return {"matches_per_kind": matches, "actions_in_active": actions, "redis": version} | figures


def main(argv: list[str] | None = None) -> int:
    """Parse the options, measure, print one JSON object."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=200, help="matches of each kind (default 200)")
    parser.add_argument("--actions", type=int, default=12, help="turns played in each active match (default 12)")
    args = parser.parse_args(argv)
    result = measure(args.matches, args.actions)
    result["machine"] = f"{platform.machine()} Python {platform.python_version()}"
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
