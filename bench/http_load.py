"""HTTP benchmark: many concurrent four-player matches driven by remote clients (``make bench-http``).

Starts a private Redis (temporary directory, free port, append-only file on)
and ``python -m tienlen serve`` on a free port as a subprocess, then:

1. *actions*: ``--threads`` client threads, each with one keep-alive
   connection (the project's client, ``clients/python/tienlen_client``),
   play whole matches in a loop for
   ``--duration`` seconds.  Every seat is a remote client with its own bearer
   token and plays its lowest legal play, or passes when it has none.  By
   default a seat works that play out from its own view, as a bot built on
   the server's engine would (``tienlen_client.botkit.lowest_play``): one
   ``POST /v1/matches/{id}/actions`` per action, plus one
   ``GET /v1/matches/{id}/view`` per seat when a hand was dealt while others
   acted.  With ``--ask-legal`` a seat asks ``GET /v1/matches/{id}/legal``
   before every action (two requests per action).  Each POST is timed: that
   is the action latency.
2. *ceiling*: the same number of threads hammer ``GET /healthz`` for
   ``--ceiling-duration`` seconds, which bounds what this server, client and
   machine can do per request.

The two phases run ``--rounds`` times, each ceiling right after its match
play and on the same keep-alive connections (each worker listens on its own
socket and the kernel hashes new connections over them, so how evenly the
threads land on the workers changes the figures; within a round both phases
see the same spread). The figures are medians over the rounds (``ratio`` is
the median of the rounds' ratios).

Prints ONE JSON object on stdout (progress goes to stderr).  The server and
Redis are always stopped at the end.  Target from the issue: actions_per_s at
least half of ceiling_per_s and p99 below 50 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from http_players import HOST, Client, WorkerStats, action_worker, base_url, ceiling_worker
from tienlen.local_redis import LocalRedis, free_port


def run_phase(
    threads: int,
    duration: float,
    target: Callable[..., None],
    args_for: Callable[[int], tuple[Any, ...]],
) -> tuple[list[WorkerStats], float]:
    """Run ``target(*args_for(i), deadline, stats, stop)`` in ``threads`` threads; return stats and wall time."""
    stop = threading.Event()
    stats = [WorkerStats() for _ in range(threads)]
    cpu_started = time.process_time()
    started = time.monotonic()
    deadline = started + duration
    workers = [
        threading.Thread(target=target, args=(*args_for(i), deadline, stats[i], stop), name=f"bench-{i}", daemon=True)
        for i in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    wall = time.monotonic() - started
    print(
        f"bench:   client CPU {time.process_time() - cpu_started:.1f}s over {wall:.1f}s wall",
        file=sys.stderr,
        flush=True,
    )
    return stats, wall


def percentile_ms(sorted_values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile of seconds, in milliseconds (None without samples)."""
    if not sorted_values:
        return None
    rank = max(1, min(len(sorted_values), math.ceil(fraction * len(sorted_values))))
    return round(sorted_values[rank - 1] * 1000.0, 3)


def wait_healthy(port: int, server: subprocess.Popen[bytes], log_path: Path, timeout: float = 60.0) -> None:
    """Wait for GET /healthz == 200 from the server subprocess."""
    deadline = time.monotonic() + timeout
    with Client(base_url(port), timeout=2) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise RuntimeError(f"server exited with status {server.returncode}:\n{tail(log_path)}")
            try:
                if client.send("GET", "/healthz").status == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.1)
    raise RuntimeError(f"server not healthy after {timeout:.0f}s:\n{tail(log_path)}")


def tail(path: Path, lines: int = 30) -> str:
    """The last lines of a text file."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def stop_process(proc: subprocess.Popen[bytes], timeout: float = 15.0) -> None:
    """SIGTERM, wait, then SIGKILL."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--threads", type=int, default=16, help="client threads (default 16)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of (match play, ceiling) (default 5)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds of match play per round (default 10)")
    parser.add_argument(
        "--ceiling-duration", type=float, default=6.0, help="seconds of GET /healthz per round (default 6)"
    )
    parser.add_argument(
        "--ask-legal",
        action="store_true",
        help="ask GET .../legal before every action instead of working the lowest play out from the seat's view",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument(
        "--worker-class",
        choices=("gevent", "gthread"),
        default="gevent",
        help="gunicorn worker class (default gevent, as tienlen serve)",
    )
    parser.add_argument(
        "--server-threads", type=int, default=8, help="threads per worker with --worker-class gthread (default 8)"
    )
    return parser.parse_args(argv)


@dataclass
class Round:
    """One round: a phase of match play, then a phase of GET /healthz right after it."""

    action_stats: list[WorkerStats]
    action_wall: float
    ceiling_stats: list[WorkerStats]
    ceiling_wall: float

    @property
    def actions_per_s(self) -> float:
        """Actions per second in this round's match play."""
        actions = sum(len(s.action_latencies_s) for s in self.action_stats)
        return round(actions / self.action_wall, 1) if self.action_wall > 0 else 0.0

    @property
    def ceiling_per_s(self) -> float:
        """GET /healthz answers per second in this round."""
        return round(sum(s.requests for s in self.ceiling_stats) / self.ceiling_wall, 1) if self.ceiling_wall else 0.0

    @property
    def ratio(self) -> float:
        """This round's action rate over its ceiling."""
        return round(self.actions_per_s / self.ceiling_per_s, 3) if self.ceiling_per_s > 0 else 0.0


def median(values: Iterable[float]) -> float:
    """The median, rounded for printing."""
    return round(statistics.median(list(values)), 3)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object."""
    args = parse_args(argv)
    rounds: list[Round] = []
    with tempfile.TemporaryDirectory(prefix="tienlen-bench-") as tmp:
        tmpdir = Path(tmp)
        redis_server = LocalRedis(tmpdir / "redis", appendonly=True)
        server: subprocess.Popen[bytes] | None = None
        log_path = tmpdir / "server.log"
        try:
            redis_server.start()
            port = free_port(HOST)
            # A load test is a flood by design: the rate limits are off for it.
            env = dict(os.environ, REDIS_URL=redis_server.url, PYTHONUNBUFFERED="1", TIENLEN_RATE_LIMITS="off")
            with open(log_path, "wb") as log:
                server = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "tienlen",
                        "serve",
                        "--host",
                        HOST,
                        "--port",
                        str(port),
                        "--workers",
                        str(args.workers),
                        "--worker-class",
                        args.worker_class,
                        "--threads",
                        str(args.server_threads),
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    env=env,
                )
            wait_healthy(port, server, log_path)
            print(f"bench: server on :{port} (redis {redis_server.url})", file=sys.stderr, flush=True)
            for number in range(1, args.rounds + 1):
                print(
                    f"bench: round {number}/{args.rounds}: {args.threads} threads play matches for "
                    f"{args.duration:.0f}s, then GET /healthz for {args.ceiling_duration:.0f}s",
                    file=sys.stderr,
                    flush=True,
                )
                # Both phases of a round use the same connections, so they meet the
                # same spread of connections over the workers.
                clients = [Client(base_url(port), timeout=30) for _ in range(args.threads)]
                first_seed = number * args.threads * 1_000_000
                action_args = [(first_seed + i * 1_000_000, c, args.ask_legal) for i, c in enumerate(clients)]
                ceiling_args = [(c,) for c in clients]
                try:
                    played = run_phase(args.threads, args.duration, action_worker, action_args.__getitem__)
                    ceiling = run_phase(args.threads, args.ceiling_duration, ceiling_worker, ceiling_args.__getitem__)
                finally:
                    for client in clients:
                        client.close()
                rounds.append(Round(*played, *ceiling))
        finally:
            if server is not None:
                stop_process(server)
            redis_server.stop()

    action_stats = [s for r in rounds for s in r.action_stats]
    ceiling_stats = [s for r in rounds for s in r.ceiling_stats]
    action_wall = sum(r.action_wall for r in rounds)
    latencies = sorted(x for s in action_stats for x in s.action_latencies_s)
    errors = sum(s.errors for s in action_stats) + sum(s.errors for s in ceiling_stats)
    samples = [m for s in (*action_stats, *ceiling_stats) for m in s.error_samples][:5]
    result: dict[str, Any] = {
        "actions_per_s": median(r.actions_per_s for r in rounds),
        "p50_ms": percentile_ms(latencies, 0.50),
        "p99_ms": percentile_ms(latencies, 0.99),
        "ceiling_per_s": median(r.ceiling_per_s for r in rounds),
        "ratio": median(r.ratio for r in rounds),
        "rounds": [
            {"actions_per_s": r.actions_per_s, "ceiling_per_s": r.ceiling_per_s, "ratio": r.ratio} for r in rounds
        ],
        "mode": "ask-legal" if args.ask_legal else "view",
        "threads": args.threads,
        "duration_s": round(action_wall, 2),
        "ceiling_duration_s": round(sum(r.ceiling_wall for r in rounds), 2),
        "actions": len(latencies),
        "requests_per_s": round(sum(s.requests for s in action_stats) / action_wall, 1) if action_wall else 0.0,
        "matches_played": sum(s.matches_finished for s in action_stats),
        "matches_started": sum(s.matches_started for s in action_stats),
        "errors": errors,
        "error_samples": samples,
        "server": {
            "workers": args.workers,
            "worker_class": args.worker_class,
            "threads": args.server_threads if args.worker_class == "gthread" else None,
            "rate_limits": "off",
        },
        "machine": {
            "nproc": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
    }
    print(json.dumps(result))
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # the server and Redis were already stopped by main()'s finally
        print("bench: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
