"""Failover benchmark: what a Redis primary's death costs under load, by durability (``make bench-failover``).

For the ``--durability`` levels (by default ``replica`` and ``local``) it starts,
in a temporary directory on free ports, the ``--topology``'s nodes
(``bench/failover_topologies.py``): ``sentinel``, a Redis primary, one replica
and three Redis Sentinels (down-after 1 s), or ``cluster``, a Redis Cluster
of three primaries with a replica each (node timeout 1 s); and ``python -m
tienlen serve`` pointed at them (``TIENLEN_REDIS_SENTINELS`` or
``TIENLEN_REDIS_CLUSTER``, ``TIENLEN_DURABILITY``), then:

1. *throughput* (skipped with ``--duration 0``): one set of nodes and a server of
   each durability on it; ``--threads`` clients play four-seat matches as
   ``make bench-http`` does (``bench/http_players.py``) against each server
   in turn, ``--rounds`` phases of ``--duration`` s each, alternated so that
   both see the same machine; medians of actions/s and the action latency's
   p50/p99;
2. *failovers* (``--failovers``): ``--players`` accounts play matches against
   a bot (``bench/failover_players.py``) while, every ``--between`` seconds,
   a primary is SIGKILLed (on a Cluster each shard's in turn). ``--link-cut-ms`` before each kill the link to
   the replica is cut (``CLIENT KILL TYPE replica``, the replica held still
   with SIGSTOP so that it cannot connect again, let go after the kill): a
   network fault just before the machine dies, the case ``local`` loses
   writes in. Without it, on one machine the replica keeps up within a
   millisecond and even ``local`` loses nothing. Once the
   replica has taken over, the dead node is started again as its replica
   (its replacement machine). The
   server counts its rate limits here (limits no player reaches), so they
   follow the primary too. Downtime
   is from the kill to the first write sent after it that was acknowledged.
   At the end every acknowledged account, action and kept match is read back
   through the server (a kept match missing then is given the sweeper's time
   to keep it again: ``failover_players.KEEP_SETTLE_S``); a lost one is
   counted against the failover before which it was acknowledged.

Prints ONE JSON object on stdout (progress on stderr); exits 1 when a
``replica`` run lost an acknowledged write or a failover left no write
acknowledged after it. Everything it started is stopped at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

from failover_players import Ledger, missing, player
from failover_topologies import TOPOLOGIES, Topology
from http_load import percentile_ms, run_phase, stop_process, wait_healthy
from http_players import HOST, Client, action_worker, base_url
from tienlen.local_redis import LocalRedis, free_port
from tienlen.settings import DEFAULT_RATE_LIMITS

DOWNTIME_TARGET_S = 10.0  # the issue's: service back within 10 s of the kill


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--durability", action="append", choices=("local", "replica"), help="(repeatable)")
    parser.add_argument(
        "--topology", choices=sorted(TOPOLOGIES), default="sentinel", help="whose primaries die (default sentinel)"
    )
    parser.add_argument("--failovers", type=int, default=5, help="primaries killed per durability (default 5)")
    parser.add_argument("--between", type=float, default=4.0, help="seconds of play before each kill (default 4)")
    parser.add_argument("--after", type=float, default=3.0, help="seconds of play after the last (default 3)")
    parser.add_argument(
        "--acted",
        type=int,
        default=0,
        help="before each kill, wait (up to a minute) until this many more actions were acknowledged (default 0)",
    )
    parser.add_argument(
        "--link-cut-ms",
        type=float,
        default=300.0,
        help="the replica's link is cut this long before each kill (default 300; 0: never)",
    )
    parser.add_argument("--players", type=int, default=8, help="player threads during the failovers (default 8)")
    parser.add_argument("--duration", type=float, default=8.0, help="seconds of each throughput phase (0: none)")
    parser.add_argument("--rounds", type=int, default=3, help="throughput phases per durability, alternated")
    parser.add_argument("--threads", type=int, default=16, help="client threads of the throughput phase")
    parser.add_argument("--workers", type=int, default=2, help="server worker processes (default 2)")
    return parser.parse_args(argv)


# The failovers' server counts its rate limits (in Redis, through the sentinels, as in production) with limits
# no player reaches; the throughput phases count none, as in ``make bench-http``.
UNREACHED_LIMITS = ";".join(f"{kind}=1000000/minute" for kind in DEFAULT_RATE_LIMITS)


def start_server(
    topology: Topology, durability: str, workers: int, log_path: Path, *, limits: bool = False
) -> tuple[Any, int]:
    """``tienlen serve`` on a free port, on the ``topology``'s nodes, with ``durability``; (process, port)."""
    port = free_port(HOST)
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TIENLEN_REDIS_CLUSTER")}
    env |= topology.server_env()
    env |= {
        "PYTHONUNBUFFERED": "1",
        "TIENLEN_DURABILITY": durability,
        "TIENLEN_RATE_LIMITS": UNREACHED_LIMITS if limits else "off",
        "TIENLEN_BOT_BUDGET": "0.02",
        "TIENLEN_LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "tienlen", "serve", "--host", HOST, "--port", str(port)]
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            [*command, "--workers", str(workers)], stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env
        )
    wait_healthy(port, server, log_path)
    return server, port


def throughput(port: int, threads: int, duration: float) -> dict[str, Any]:
    """Four-seat matches played by ``threads`` clients for ``duration`` s: actions/s, p50, p99, errors."""
    clients = [Client(base_url(port), timeout=30) for _ in range(threads)]
    try:
        args = [(i * 1_000_000, c, False) for i, c in enumerate(clients)]
        stats, wall = run_phase(threads, duration, action_worker, args.__getitem__)
    finally:
        for client in clients:
            client.close()
    latencies = sorted(x for s in stats for x in s.action_latencies_s)
    return {
        "actions_per_s": round(len(latencies) / wall, 1),
        "p50_ms": percentile_ms(latencies, 0.50),
        "p99_ms": percentile_ms(latencies, 0.99),
        "actions": len(latencies),
        "errors": sum(s.errors for s in stats),
    }


def failovers(topology: Topology, port: int, args: argparse.Namespace) -> dict[str, Any]:
    """Players play while the primary is killed ``args.failovers`` times; downtimes and what was lost."""
    stop = threading.Event()
    ledgers = [Ledger() for _ in range(args.players)]
    threads = [
        threading.Thread(target=player, args=(base_url(port), i, ledgers[i], stop), daemon=True, name=f"player-{i}")
        for i in range(args.players)
    ]
    for thread in threads:
        thread.start()
    kills: list[float] = []
    promoted_s: list[float] = []
    acted = 0
    try:
        for number in range(1, args.failovers + 1):
            time.sleep(args.between)
            target = acted + args.acted
            _until(lambda target=target: _acted(ledgers) >= target)  # type: ignore[misc]
            acted = _acted(ledgers)
            primary, lagging = topology.victim(number)
            try:
                if args.link_cut_ms > 0:
                    _cut_link(primary, lagging, args.link_cut_ms)
                killed_at = time.monotonic()
                old = topology.kill(number)
            finally:
                for node in lagging:
                    os.kill(node.pid or 0, signal.SIGCONT)
            kills.append(killed_at)
            new = topology.wait_for_new_primary(old)
            promoted_s.append(time.monotonic() - killed_at)
            topology.revive(old)
            print(
                f"bench: failover {number}: :{old.port} killed, :{new.port} primary after {promoted_s[-1]:.1f}s, "
                f":{old.port} its replica after {time.monotonic() - killed_at:.1f}s",
                file=sys.stderr,
                flush=True,
            )
        time.sleep(args.after)
        # play resumed: a write sent after the last kill was acknowledged (or the downtime says none was)
        if kills:
            _until(lambda: any(sent >= kills[-1] for ledger in ledgers for sent, _ in list(ledger.writes)))
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    gone = missing(base_url(port), ledgers)
    writes = sorted(w for ledger in ledgers for w in ledger.writes)
    downtimes = [_downtime(kill, writes) for kill in kills]
    lost_per_failover = [0] * len(kills)
    for answered in gone.answered():
        before = [i for i, kill in enumerate(kills) if answered < kill]
        if before:
            lost_per_failover[before[0]] += 1
    latencies = sorted(x for ledger in ledgers for x in ledger.latencies_s)
    return {
        "failovers": len(kills),
        "acknowledged": {
            "accounts": sum(len(ledger.accounts) for ledger in ledgers),
            "actions": sum(len(ledger.actions) for ledger in ledgers),
            "kept_matches": sum(len(ledger.kept) for ledger in ledgers),
        },
        "lost": {"accounts": len(gone.accounts), "actions": len(gone.actions), "kept_matches": len(gone.kept)},
        "kept_listed_late": gone.kept_late,
        "lost_per_failover": lost_per_failover,
        "lost_samples": gone.found,
        "promoted_s": [round(s, 2) for s in promoted_s],
        "downtime_s": [None if d is None else round(d, 2) for d in downtimes],
        "action_p99_ms": percentile_ms(latencies, 0.99),
        "errors": sum(ledger.errors for ledger in ledgers),
        "error_samples": [m for ledger in ledgers for m in ledger.error_samples][:5],
    }


def _acted(ledgers: list[Ledger]) -> int:
    return sum(len(ledger.actions) for ledger in ledgers)


def _until(done: Callable[[], bool], timeout_s: float = 60.0) -> None:
    """Wait until ``done()`` (checked every 0.1 s), at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not done() and time.monotonic() < deadline:
        time.sleep(0.1)


def _cut_link(primary: LocalRedis, replicas: list[LocalRedis], cut_ms: float) -> None:
    """Cut the replicas' link to ``primary`` and wait ``cut_ms``: the primary's writes meanwhile are not copied.

    The replicas are held still (SIGSTOP; the caller lets them go) so that they cannot connect again meanwhile.
    """
    for node in replicas:
        os.kill(node.pid or 0, signal.SIGSTOP)
    client = redis.Redis(primary.host_for_clients, primary.port, socket_timeout=1.0)
    try:
        client.client_kill_filter(_type="slave")  # redis-py's name for the replicas' connections
    finally:
        client.close()
    time.sleep(cut_ms / 1000)


def _downtime(kill: float, writes: list[tuple[float, float]]) -> float | None:
    """Seconds from ``kill`` to the answer of the first acknowledged write sent after it (None: none was)."""
    answered = [done for sent, done in writes if sent >= kill]
    return min(answered) - kill if answered else None


def run(durability: str, args: argparse.Namespace, tmpdir: Path) -> dict[str, Any]:
    """One durability's failovers on fresh nodes (``--topology``) and a fresh server."""
    folder = tmpdir / durability
    topology = TOPOLOGIES[args.topology](folder)
    server = None
    try:
        print(f"bench: {durability}: starting {topology.described}", file=sys.stderr, flush=True)
        topology.start()
        server, port = start_server(topology, durability, args.workers, folder / "server.log", limits=True)
        return {"durability": durability, "topology": topology.name} | failovers(topology, port, args)
    finally:
        if server is not None:
            stop_process(server)
        topology.stop()


def compare(durabilities: list[str], args: argparse.Namespace, tmpdir: Path) -> dict[str, Any]:
    """Actions/s and p99 of each durability: a server each on one set of nodes (``--topology``), their phases
    alternated (``--rounds`` rounds of ``--duration`` s each, the first server of a round taking turns), medians."""
    folder = tmpdir / "compare"
    topology = TOPOLOGIES[args.topology](folder)
    servers: dict[str, tuple[Any, int]] = {}
    phases: dict[str, list[dict[str, Any]]] = {d: [] for d in durabilities}
    try:
        topology.start()
        for durability in durabilities:
            servers[durability] = start_server(topology, durability, args.workers, folder / f"{durability}.log")
        for number in range(args.rounds):
            order = durabilities[number % len(durabilities) :] + durabilities[: number % len(durabilities)]
            for durability in order:
                print(f"bench: round {number + 1}: {durability} for {args.duration:.0f}s", file=sys.stderr, flush=True)
                phases[durability].append(throughput(servers[durability][1], args.threads, args.duration))
    finally:
        for server, _port in servers.values():
            stop_process(server)
        topology.stop()
    result: dict[str, Any] = {}
    for durability, measured in phases.items():
        result[durability] = {
            "actions_per_s": statistics.median(m["actions_per_s"] for m in measured),
            "p50_ms": statistics.median(m["p50_ms"] or 0.0 for m in measured),
            "p99_ms": statistics.median(m["p99_ms"] or 0.0 for m in measured),
            "errors": sum(m["errors"] for m in measured),
            "rounds": [m["actions_per_s"] for m in measured],
        }
    if "replica" in result and "local" in result and result["local"]["actions_per_s"]:
        result["replica_over_local"] = round(result["replica"]["actions_per_s"] / result["local"]["actions_per_s"], 3)
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object."""
    args = parse_args(argv)
    durabilities = args.durability or ["replica", "local"]
    runs: list[dict[str, Any]] = []
    compared: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tienlen-failover-") as tmp:
        if args.duration > 0:
            compared = compare(durabilities, args, Path(tmp))
        if args.failovers > 0:
            runs = [run(durability, args, Path(tmp)) for durability in durabilities]
    result = {
        "throughput": compared,
        "runs": runs,
        "setup": {
            "topology": args.topology,
            "replicas": 1,
            "sentinels": 3 if args.topology == "sentinel" else 0,
            "down_after_ms": 1000,
            "link_cut_ms": args.link_cut_ms,
            "players": args.players,
            "throughput_threads": args.threads,
            "rounds": args.rounds,
            "workers": args.workers,
        },
        "machine": {
            "nproc": os.cpu_count(),
            "load": os.getloadavg()[0],
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
    }
    print(json.dumps(result))
    failed = False
    for entry in runs:
        downtimes = entry.get("downtime_s", [])
        if any(d is None for d in downtimes):
            failed = True  # no write acknowledged after a failover: play did not resume
        if entry["durability"] == "replica" and sum(entry.get("lost", {}).values()):
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("bench: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
