"""Quick-play queue benchmark: thousands of accounts arrive at a steady rate and are seated (``make bench-queue``).

A private Redis is started (free port, temp dir) and ``--servers`` match
services on it each run a pairing loop every 0.1 s, as every server's sweeper
does (the queue lives in Redis; the services share nothing else). ``--accounts``
accounts with ratings spread around 1500 (normal, ``--spread``) each queue once
for a 4-player rated table, one every ``1 / --rate`` seconds, each on the next
server in turn; a table forms when the pairing finds one, and after
``--fill`` seconds house bots take the seats left (``TIENLEN_QUEUE_FILL_S``).
Nobody plays: the matches are dealt and wait.

Prints one JSON object:

- ``wait_p50_s`` / ``wait_p95_s`` / ``wait_max_s``: from queueing to being seated;
- ``tables``, ``tables_with_bots``, ``seated_with_bots``: tables made, those
  with house bots, and the share of players seated with bots;
- ``spread_mean`` / ``spread_p95``: highest minus lowest rating of a table's
  players (shown scale);
- ``lost``: tickets not matched in the end; ``doubled``: accounts seated in
  more than one match, or tickets matched into a match that does not hold them.
  Both must be 0.
- ``target_met``: ``wait_p95_s <= fill + 2`` with nothing lost or doubled.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from tienlen.local_redis import LocalRedis
from tienlen.service import MatchServices
from tienlen.service.rating_model import Rating
from tienlen.store import RedisMatchStore, RedisOptions
from tienlen.store.accounts import AccountRecord
from tienlen.store.layout import Lifetimes

PLAYERS = 4
PRESET = "standard"
PAIR_EVERY_S = 0.1


def service_on(url: str, fill_s: float) -> MatchServices:
    """A match service on the Redis at ``url``: the fill time given, no turn clocks, quick bots."""
    store = RedisMatchStore.connect(RedisOptions(url, False, 5.0, False), Lifetimes(3600, 3600, 3600), max_waiters=64)
    return MatchServices.on(store, 0.02, queue_fill_s=fill_s, queue_turn_s=None)


def make_accounts(service: MatchServices, count: int, spread: float, rng: random.Random) -> list[AccountRecord]:
    """``count`` accounts whose 4-player ratings are spread normally around 1500 (shown scale)."""
    accounts = []
    for index in range(count):
        record = AccountRecord(secrets.token_hex(10), f"q{index}-{secrets.token_hex(3)}", "human", 0, "")
        assert service.core.accounts.create(record)
        shown = rng.gauss(1500, spread)
        change = ((shown - 1500) / 40, 1.0)  # shown = 1500 + 40 * (mu - 3 sigma): a new rating moved by mu
        service.core.history.rated.ratings.apply(record.account_id, "seed", PLAYERS, change, Rating.new().to_dict())
        accounts.append(record)
    return accounts


def pairing_loop(service: MatchServices, stop: threading.Event) -> None:
    """A server's sweeper, pairing only."""
    while not stop.is_set():
        service.queue.pair()
        stop.wait(PAIR_EVERY_S)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Start Redis and the services, let the accounts arrive, and measure (see the module's docstring)."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder, LocalRedis(Path(folder)) as redis_server:
        services = [service_on(redis_server.url, args.fill) for _ in range(args.servers)]
        accounts = make_accounts(services[0], args.accounts, args.spread, rng)
        stop = threading.Event()
        loops = [threading.Thread(target=pairing_loop, args=(s, stop), daemon=True) for s in services]
        for loop in loops:
            loop.start()
        tickets: list[tuple[str, str]] = []
        started = time.monotonic()
        for index, account in enumerate(accounts):
            delay = started + index / args.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            service = services[index % len(services)]
            tickets.append((account.account_id, service.queue.queue_account(account, PLAYERS, PRESET, True).ticket))
        queue = services[0].queue.tickets
        deadline = time.monotonic() + args.fill + 10
        while time.monotonic() < deadline and any(queue.waiting(pool) for pool in queue.pools()):
            time.sleep(0.2)
        stop.set()
        for loop in loops:
            loop.join(5)
        return measure(services[0], tickets, args)


def measure(service: MatchServices, tickets: list[tuple[str, str]], args: argparse.Namespace) -> dict[str, Any]:
    """The figures of a run, from what Redis holds."""
    waits: list[float] = []
    ratings: dict[str, int] = {}
    by_match: dict[str, list[str]] = {}
    lost = doubled = 0
    for account_id, ticket in tickets:
        found = service.queue.tickets.get(ticket)
        if found is None or found.status != "matched" or found.match_id is None or found.matched_at is None:
            lost += 1
            continue
        waits.append(found.matched_at - found.queued_at)
        ratings[account_id] = found.rating
        by_match.setdefault(found.match_id, []).append(account_id)
    seated: dict[str, int] = {}
    with_bots = 0
    spreads = []
    for match_id, members in by_match.items():
        record = service.reads.get(match_id)
        held = [s.account for s in record.seats if s.bot is None]
        if sorted(a for a in held if a is not None) != sorted(members):
            doubled += 1
        for account in held:
            if account is not None:
                seated[account] = seated.get(account, 0) + 1
        if any(s.bot is not None for s in record.seats):
            with_bots += 1
        spreads.append(max(ratings[a] for a in members) - min(ratings[a] for a in members))
    doubled += sum(count - 1 for count in seated.values() if count > 1)
    players_with_bots = sum(len(m) for match_id, m in by_match.items() if len(m) < PLAYERS)
    p95 = percentile(waits, 0.95) if waits else float("inf")
    return {
        "accounts": args.accounts,
        "rate_per_s": args.rate,
        "servers": args.servers,
        "fill_s": args.fill,
        "wait_p50_s": round(statistics.median(waits), 2) if waits else None,
        "wait_p95_s": round(p95, 2),
        "wait_max_s": round(max(waits), 2) if waits else None,
        "tables": len(by_match),
        "tables_with_bots": with_bots,
        "seated_with_bots": round(players_with_bots / max(1, len(waits)), 3),
        "spread_mean": round(statistics.mean(spreads), 1) if spreads else None,
        "spread_p95": round(percentile([float(s) for s in spreads], 0.95), 1) if spreads else None,
        "lost": lost,
        "doubled": doubled,
        "target_met": p95 <= args.fill + 2 and lost == 0 and doubled == 0,
    }


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--accounts", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=40.0, help="accounts arriving a second")
    parser.add_argument("--fill", type=float, default=15.0, help="seconds before house bots fill a table")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--spread", type=float, default=200.0, help="standard deviation of the ratings")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args(argv)
    figures = run(args)
    figures["machine"] = f"{platform.machine()} {platform.system()}, {os.cpu_count()} CPUs"
    figures["python"] = platform.python_version()
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
