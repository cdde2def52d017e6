"""Waiting clients benchmark: thousands of clients follow matches while they are played (``make bench-waiting``).

Starts a private Redis (temporary directory, free port, append-only file on)
and ``python -m tienlen serve`` (the default gevent workers) on a free port
as a subprocess, with ``TIENLEN_RATE_LIMITS=off`` (and no cap on the waits of
its one address) in its environment; both
are always stopped at the end. Then:

1. *matches*: ``--threads`` player threads create ``--matches`` four-seat
   matches (``--hands`` hands each, so none ends during the run), every seat
   a remote client, as ``bench/http_players.py`` does for ``make bench-http``.
2. *waiters*: ``--waiter-processes`` processes (asyncio, hand-written
   HTTP/1.1 over ``asyncio.open_connection``) open ``--streams`` Server-Sent
   Events streams (``GET …/stream``; half ask with ``?after=``, half with
   ``Last-Event-ID``) and ``--polls`` long polls (``GET …/events?after=&wait=``,
   asked again on the same kept-alive connection as soon as each answers),
   spread evenly over the matches (by default 2 streams and 2 long polls a
   match), each from the match's last event at creation. A stream counts as
   held once its ``: following`` comment came; a long poll while its request
   is out and unanswered. ``waiters`` is how many were held at one moment,
   counted once every one was connected and one second later again (nothing
   is played yet, so nothing answers a long poll).
3. *play*: for ``--duration`` seconds the player threads play those matches
   round-robin, one action of one match at a time (the seat on turn plays its
   lowest legal play worked out from its own view, or passes; one
   ``POST …/actions`` an action), flat out as in ``make bench-http``, or at
   ``--rate`` actions a second in all. Meanwhile a separate process probes
   ``GET /healthz`` every ``--probe-interval`` seconds, each on a fresh
   connection, and Redis's ``INFO clients`` is sampled every 0.2 s.
4. *drain*: when the play stops, every match's full event list is read with
   ``GET …/events``; each waiter then gets ``--drain`` seconds to receive
   every event up to the match's last one, and is closed.

Figures:

- ``missed_events``: for each waiter, the events after its start that it did
  not receive, plus those it received twice, out of order, or different from
  the full list (compared by a checksum of their JSON).
- ``delivery_p50_ms`` / ``delivery_p99_ms``: from an event's commit to its
  arrival at a waiting client (the moment the chunk or answer that carried it
  was read), over every (event, waiter) pair. The commit time is taken as the
  *midpoint of the send and the answer of the* ``POST …/actions`` *that made
  the event* (it commits somewhere in between, so the error is at most half
  that POST's latency), leaving out the time the POST waited in the server
  for its write turn (its ``Server-Timing: turn;dur=``), before which
  nothing was committed. All processes read the same clock (``CLOCK_MONOTONIC``).
- ``turn_wait_p99_ms``: of the time POSTs waited for their write turn.
- ``healthz_p99_ms``: the probes, connect included; ``action_p99_ms`` and
  ``actions_per_s``: the POSTs of the play phase; ``redis_clients``: the
  peak of ``connected_clients`` minus the benchmark's own connection;
  ``cpu_s``: CPU seconds of the server's workers, Redis and the benchmark's
  processes during the play, to see where the cores went.

Prints ONE JSON object on stdout (progress goes to stderr); exits 1 when a
waiter was not held, an error happened or an event was missed. Targets from
the issue (2 cores shared by client, server and Redis): all 2,000 waiters
held, 0 errors, 0 missed events, healthz_p99_ms < 50, delivery_p99_ms < 100,
redis_clients < 50.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import redis

from http_load import percentile_ms, stop_process, tail, wait_healthy
from http_players import FAILURES, HOST, Client, MatchFailed, RemoteMatch, WorkerStats, base_url, create_match
from tienlen.local_redis import LocalRedis, free_port
from waiters import (
    Assignment,
    ProcessReport,
    checksum,
    probe_main,
    raise_open_files_limit,
    waiter_main,
)

MAX_ERRORS = 1000  # a player thread stops early rather than spin on a broken server
SETTLE_S = 1.0  # held waiters are counted again after this long, to see that none was refused meanwhile
REDIS_SAMPLE_S = 0.2
EVENTS_PAGE = 500


# ---------------------------------------------------------------------------- players (threads)


@dataclass
class Player:
    """One player thread: its connection, its matches, and the commit times of the events its actions made."""

    client: Client
    stats: WorkerStats = field(default_factory=WorkerStats)
    matches: list[tuple[int, RemoteMatch]] = field(default_factory=list)
    commits: dict[tuple[int, int], float] = field(default_factory=dict)  # (match, seq) -> commit time
    last_timing: str = ""  # the Server-Timing header of the last answer
    turn_waits_s: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        transport = self.client.transport
        send_once = transport.send_once

        def remembered(*args: Any, **kwargs: Any) -> Any:
            response = send_once(*args, **kwargs)
            self.last_timing = response.headers.get("server-timing", "")
            return response

        transport.send_once = remembered  # type: ignore[method-assign]

    def turn_wait_s(self) -> float:
        """How long the last write waited for its turn in the server (its ``Server-Timing: turn;dur=``)."""
        for metric in self.last_timing.split(","):
            name, _, params = metric.strip().partition(";")
            if name == "turn" and params.startswith("dur="):
                return float(params[4:]) / 1000
        return 0.0

    def create(self, indexes: Iterable[int], seed: int, rules: dict[str, Any]) -> None:
        """Create this thread's matches."""
        for index in indexes:
            self.matches.append((index, create_match(self.client, seed + index, self.stats, False, rules)))

    def play(self, deadline: float, pace_s: float, stop: threading.Event) -> None:
        """Play one action of each of its matches in turn until the deadline."""
        next_at = time.monotonic()
        while not stop.is_set():
            active = [(i, m) for i, m in self.matches if not m.finished]
            if not active:
                return
            for index, match in active:
                now = time.monotonic()
                if now >= deadline or stop.is_set():
                    return
                if pace_s > 0:
                    next_at = max(next_at + pace_s, now - 1.0)
                    if next_at > now:
                        time.sleep(next_at - now)
                before = int(match.state["last_seq"])
                try:
                    sent, answered = match.act()
                except (MatchFailed, *FAILURES) as error:
                    self.stats.error(error)
                    if self.stats.errors >= MAX_ERRORS:
                        stop.set()
                    with contextlib.suppress(*FAILURES):
                        match.state = self.client.match(match.match_id)  # an answer may have been lost
                    continue
                waited = self.turn_wait_s()
                self.turn_waits_s.append(waited)
                made = (min(sent + waited, answered) + answered) / 2
                for seq in range(before + 1, int(match.state["last_seq"]) + 1):
                    self.commits[(index, seq)] = made
                if match.finished:
                    self.stats.matches_finished += 1


def all_events(client: Client, match_id: str) -> list[dict[str, Any]]:
    """Every event of a match, read page by page."""
    events: list[dict[str, Any]] = []
    while True:
        page = client.events(match_id, after=len(events))["events"]
        events += page
        if len(page) < EVENTS_PAGE:
            return events


# ---------------------------------------------------------------------------- measuring the machine


class RedisSampler(threading.Thread):
    """Samples ``INFO clients`` (on one connection of its own) until stopped; keeps the peak."""

    def __init__(self, url: str) -> None:
        super().__init__(name="redis-sampler", daemon=True)
        self.client = redis.Redis.from_url(url)
        self.peak = 0
        self.errors = 0
        self.halt = threading.Event()

    def run(self) -> None:
        while not self.halt.is_set():
            try:
                self.peak = max(self.peak, int(self._info("clients")["connected_clients"]))
            except redis.RedisError:
                self.errors += 1
            self.halt.wait(REDIS_SAMPLE_S)

    def _info(self, section: str) -> dict[str, Any]:
        """One section of ``INFO`` (redis-py types it for sync and async clients alike)."""
        return cast(dict[str, Any], self.client.info(section))

    def redis_cpu_s(self) -> float:
        """Redis's CPU seconds so far (user + system, all threads)."""
        info = self._info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def process_cpu_s(pid: int) -> float:
    """A process's CPU seconds so far (user + system), from /proc; 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """The pids of a process's children (the gunicorn workers of the server), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


# ---------------------------------------------------------------------------- the run


def start_server(
    redis_url: str, workers: int, log_path: Path, settings: dict[str, str]
) -> tuple[subprocess.Popen[bytes], int]:
    """``python -m tienlen serve`` on a free port with ``workers`` gevent workers on ``redis_url``, rate limits off
    and ``settings`` (environment variables) added, its output in ``log_path``; once healthy, it and its port (a
    server that never gets healthy is stopped before the error is raised)."""
    port = free_port(HOST)
    env = dict(os.environ, REDIS_URL=redis_url, PYTHONUNBUFFERED="1", TIENLEN_RATE_LIMITS="off") | settings
    command = [sys.executable, "-m", "tienlen", "serve", "--host", HOST, "--port", str(port), "--workers", str(workers)]
    with open(log_path, "wb") as log:
        server = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=env)
    try:
        wait_healthy(port, server, log_path)
    except BaseException:
        stop_process(server)
        raise
    return server, port


def shut_down(
    sampler: RedisSampler | None,
    processes: list[Any],
    server: subprocess.Popen[bytes] | None,
    redis_server: LocalRedis,
    log_path: Path,
    say: Callable[[str], None],
) -> None:
    """Stop a run's Redis sampler, waiter processes, server and Redis; say how the server exited if it failed."""
    if sampler is not None:
        sampler.halt.set()
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.kill()
    if server is not None:
        stop_process(server)
    redis_server.stop()
    if server is not None and server.returncode not in (0, None):
        say(f"server exited with {server.returncode}:\n{tail(log_path)}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--streams", type=int, default=1000, help="Server-Sent Events streams (default 1000)")
    parser.add_argument("--polls", type=int, default=1000, help="long polls (default 1000)")
    parser.add_argument("--matches", type=int, default=500, help="matches played and followed (default 500)")
    parser.add_argument("--threads", type=int, default=16, help="player threads (default 16)")
    parser.add_argument("--duration", type=float, default=25.0, help="seconds of play (default 25)")
    parser.add_argument("--rate", type=float, default=0.0, help="actions a second in all (default 0: flat out)")
    parser.add_argument("--hands", type=int, default=20, help="hands a match (default 20: none ends in a run)")
    parser.add_argument("--poll-wait", type=float, default=25.0, help="wait= of the long polls (default 25)")
    parser.add_argument("--drain", type=float, default=10.0, help="seconds the waiters get to catch up (default 10)")
    parser.add_argument("--waiter-processes", type=int, default=2, help="processes of waiters (default 2)")
    parser.add_argument("--probe-interval", type=float, default=0.05, help="seconds between /healthz probes")
    parser.add_argument("--connects", type=int, default=200, help="connections a waiter process opens at once")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.threads < 1 or args.waiter_processes < 1 or args.streams + args.polls < 1:
        parser.error("--matches, --threads, --waiter-processes and the waiters must be at least 1")
    return args


def progress(message: str) -> None:
    """A line on stderr."""
    print(f"bench-waiting: {message}", file=sys.stderr, flush=True)


def assign(args: argparse.Namespace, matches: list[tuple[int, RemoteMatch]]) -> list[Assignment]:
    """Spread the streams and the long polls evenly over the matches."""
    by_index = dict(matches)
    assignments: list[Assignment] = []
    for kind, count in (("stream", args.streams), ("poll", args.polls)):
        for number in range(count):
            match = by_index[number % args.matches]
            assignments.append(
                Assignment(
                    index=len(assignments),
                    match=number % args.matches,
                    match_id=match.match_id,
                    kind=kind,
                    after=int(match.state["last_seq"]),
                    by_header=kind == "stream" and (number // args.matches) % 2 == 1,
                )
            )
    return assignments


@dataclass
class Figures:
    """Everything measured, gathered for the report."""

    waiters: int = 0
    min_held: int = 0
    reports: list[ProcessReport] = field(default_factory=list)
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    commits: dict[tuple[int, int], float] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    play_wall: float = 0.0
    probe_latencies: list[float] = field(default_factory=list)
    probe_errors: list[str] = field(default_factory=list)
    redis_peak: int = 0
    cpu: dict[str, float] = field(default_factory=dict)
    worker_cpu: list[float] = field(default_factory=list)


def missed_and_delays(figures: Figures) -> tuple[int, int, dict[str, list[float]]]:
    """Missed events, expected deliveries, and the delivery delays (seconds) by kind of waiter."""
    sums = {match: [checksum(e) for e in events] for match, events in figures.events.items()}
    missed = expected_total = 0
    delays: dict[str, list[float]] = {"stream": [], "poll": []}
    for report in figures.reports:
        for result in report.results:
            full = sums[result.match]
            expected = range(result.after + 1, len(full) + 1)
            expected_total += len(expected)
            seen: set[int] = set()
            previous = result.after
            for seq, arrived, summed in result.received:
                if seq in seen or seq not in expected or seq < previous or summed != full[seq - 1]:
                    missed += 1  # a repeat, an event out of order or out of range, or different content
                    seen.add(seq)
                    continue
                seen.add(seq)
                previous = seq
                made = figures.commits.get((result.match, seq))
                if made is not None:
                    delays[result.kind].append(arrived - made)
            missed += len(expected) - len(seen & set(expected))
    return missed, expected_total, delays


def run(args: argparse.Namespace, figures: Figures) -> None:
    """Start Redis and the server, run every phase, and stop both (always)."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="tienlen-bench-waiting-") as tmp:
        tmpdir = Path(tmp)
        redis_server = LocalRedis(tmpdir / "redis", appendonly=True)
        server: subprocess.Popen[bytes] | None = None
        log_path = tmpdir / "server.log"
        processes: list[Any] = []
        sampler: RedisSampler | None = None
        try:
            redis_server.start()
            # the waiting tables are hosted without accounts; every waiter comes from this one address
            settings = {"TIENLEN_ANONYMOUS_HOSTING": "1", "TIENLEN_MAX_WAITERS_PER_ADDRESS": "1000000"}
            server, port = start_server(redis_server.url, args.workers, log_path, settings)
            progress(f"server on :{port} ({args.workers} gevent workers), redis {redis_server.url}")
            sampler = RedisSampler(redis_server.url)
            sampler.start()

            players = figures.players = [Player(Client(base_url(port), timeout=60)) for _ in range(args.threads)]
            rules = {"hands": args.hands}
            with ThreadPoolExecutor(args.threads) as pool:
                for number, player in enumerate(players):
                    pool.submit(player.create, range(number, args.matches, args.threads), 1000, rules)
            matches = sorted((m for p in players for m in p.matches), key=lambda m: m[0])
            if len(matches) != args.matches:
                raise RuntimeError(f"only {len(matches)} of {args.matches} matches were created")
            progress(f"{len(matches)} matches created")

            assignments = assign(args, matches)
            channels = []
            for number in range(args.waiter_processes):
                # all the waiters of a match in one process
                mine = [a for a in assignments if a.match % args.waiter_processes == number]
                if not mine:
                    continue
                commands_read, commands_write = context.Pipe(duplex=False)
                replies_read, replies_write = context.Pipe(duplex=False)
                process = context.Process(
                    target=waiter_main,
                    args=(HOST, port, mine, args.poll_wait, args.connects, commands_read, replies_write),
                    name=f"waiters-{number}",
                    daemon=True,
                )
                process.start()
                processes.append(process)
                channels.append((commands_write, replies_read))
            progress(f"{args.streams} streams and {args.polls} long polls connecting from {len(channels)} processes")
            held = [reply.recv()[1] for _, reply in channels]
            progress(f"{sum(held)} waiters held; counting again in {SETTLE_S:.0f}s")
            time.sleep(SETTLE_S)
            for command_pipe, _ in channels:
                command_pipe.send(("count",))
            figures.waiters = sum(reply.recv()[1] for _, reply in channels)
            progress(f"{figures.waiters} waiters held at once; playing for {args.duration:.0f}s")

            stop_probe = context.Event()
            probe_read, probe_write = context.Pipe(duplex=False)
            prober = context.Process(
                target=probe_main, args=(port, args.probe_interval, stop_probe, probe_write), name="probe", daemon=True
            )
            prober.start()
            processes.append(prober)
            workers = children_of(server.pid)
            worker_cpu = {pid: process_cpu_s(pid) for pid in workers}
            cpu_before = {
                "server_workers": sum(worker_cpu.values()),
                "redis": sampler.redis_cpu_s(),
                "players": time.process_time(),
            }
            for command_pipe, _ in channels:
                command_pipe.send(("go",))
            stop = threading.Event()
            pace = args.threads / args.rate if args.rate > 0 else 0.0
            started = time.monotonic()
            deadline = started + args.duration
            threads = [
                threading.Thread(target=p.play, args=(deadline, pace, stop), name=f"player-{i}", daemon=True)
                for i, p in enumerate(players)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            figures.play_wall = time.monotonic() - started
            for command_pipe, _ in channels:
                command_pipe.send(("stop",))
            stop_probe.set()
            figures.worker_cpu = [round(process_cpu_s(pid) - before, 2) for pid, before in worker_cpu.items()]
            figures.cpu = {
                "server_workers": sum(process_cpu_s(pid) for pid in workers) - cpu_before["server_workers"],
                "redis": sampler.redis_cpu_s() - cpu_before["redis"],
                "players": time.process_time() - cpu_before["players"],
            }
            figures.probe_latencies, figures.probe_errors = probe_read.recv()
            actions = sum(len(p.stats.action_latencies_s) for p in players)
            progress(f"played {actions} actions in {figures.play_wall:.1f}s; reading every match's events")

            readers = threading.local()

            def read_events(entry: tuple[int, RemoteMatch]) -> tuple[int, list[dict[str, Any]]]:
                if not hasattr(readers, "client"):
                    readers.client = Client(base_url(port), timeout=60)
                return entry[0], all_events(readers.client, entry[1].match_id)

            with ThreadPoolExecutor(8) as pool:
                figures.events = dict(pool.map(read_events, matches))
            targets = {index: len(events) for index, events in figures.events.items()}
            for command_pipe, _ in channels:
                command_pipe.send(("drain", targets, args.drain))
            for _, reply in channels:
                figures.reports.append(reply.recv()[1])
            for player in players:
                figures.commits.update(player.commits)
                player.client.close()
            figures.cpu["waiters"] = sum(r.cpu_play_s for r in figures.reports)
            figures.min_held = sum(r.min_held_during_play for r in figures.reports)
            sampler.halt.set()
            sampler.join()
            figures.redis_peak = sampler.peak
        finally:
            shut_down(sampler, processes, server, redis_server, log_path, progress)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object."""
    args = parse_args(argv)
    raise_open_files_limit()
    figures = Figures()
    run(args, figures)

    missed, expected, delays = missed_and_delays(figures)
    every_delay = sorted(delays["stream"] + delays["poll"])
    latencies = sorted(x for p in figures.players for x in p.stats.action_latencies_s)
    probes = sorted(figures.probe_latencies)
    waiter_errors = sum(r.errors for report in figures.reports for r in report.results)
    player_errors = sum(p.stats.errors for p in figures.players)
    errors = waiter_errors + player_errors + len(figures.probe_errors)
    samples = [s for report in figures.reports for s in report.error_samples]
    samples += [s for p in figures.players for s in p.stats.error_samples] + figures.probe_errors
    requested = args.streams + args.polls
    result: dict[str, Any] = {
        "waiters": figures.waiters,
        "waiters_requested": requested,
        "errors": errors,
        "missed_events": missed,
        "healthz_p99_ms": percentile_ms(probes, 0.99),
        "action_p99_ms": percentile_ms(latencies, 0.99),
        "actions_per_s": round(len(latencies) / figures.play_wall, 1) if figures.play_wall else 0.0,
        "delivery_p50_ms": percentile_ms(every_delay, 0.50),
        "delivery_p99_ms": percentile_ms(every_delay, 0.99),
        "redis_clients": figures.redis_peak - 1,
        "streams": args.streams,
        "polls": args.polls,
        "matches": args.matches,
        "threads": args.threads,
        "rate": args.rate or "flat out",
        "duration_s": round(figures.play_wall, 2),
        "actions": len(latencies),
        "action_p50_ms": percentile_ms(latencies, 0.50),
        "turn_wait_p99_ms": percentile_ms(sorted(x for p in figures.players for x in p.turn_waits_s), 0.99),
        "healthz_p50_ms": percentile_ms(probes, 0.50),
        "healthz_max_ms": percentile_ms(probes, 1.0),
        "healthz_probes": len(probes),
        "deliveries": expected,
        "delivery_p99_ms_stream": percentile_ms(sorted(delays["stream"]), 0.99),
        "delivery_p99_ms_poll": percentile_ms(sorted(delays["poll"]), 0.99),
        "delivery_max_ms": percentile_ms(every_delay, 1.0),
        "waiters_min_during_play": figures.min_held,
        "errors_by_source": {
            "waiters": waiter_errors,
            "players": player_errors,
            "healthz": len(figures.probe_errors),
        },
        "error_samples": samples[:8],
        "cpu_s": {name: round(value, 2) for name, value in figures.cpu.items()} | {"each_worker": figures.worker_cpu},
        "server": {"workers": args.workers, "worker_class": "gevent"},
        "machine": {
            "nproc": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
    }
    print(json.dumps(result))
    return 0 if errors == 0 and missed == 0 and figures.waiters == requested else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:  # the server and Redis were already stopped by run()'s finally
        print("bench-waiting: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
