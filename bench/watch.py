"""Spectators benchmark: one live match followed by 1,000 spectators across 2 workers (``make bench-watch``).

Starts a private Redis and ``python -m tienlen serve`` (gevent workers, ``--workers``, default 2) as
``bench/waiting.py`` does (and with its pieces: the player thread, the asyncio waiter processes, the figures).
Then:

1. *alone*: one four-seat match (every seat a remote client, ``--hands`` hands so that it does not end) is played
   for ``--duration`` seconds at ``--rate`` actions a second (the seat on turn plays its lowest legal play), with
   nobody watching: the seats' action latency without spectators.
2. *watched*: ``--spectators`` spectators connect from ``--waiter-processes`` asyncio processes (Server-Sent
   Events streams, as a browser's ``EventSource`` follows a match; with ``--polls`` that share long-polls instead,
   naming a ``watcher`` and asking again at once after each answer on a kept-alive connection), all following that
   one match from its last event; the match's ``spectators`` count is read once all are held. The match is then
   played on for ``--duration`` seconds at the same rate: the seats' action latency with spectators.
3. *drain*: the match's full event list is read; each spectator gets ``--drain`` seconds to receive every event up
   to the last, and is closed.

Figures: ``missed_events`` (events after a spectator's start it did not receive, or received twice, out of order
or different: counted by ``seq`` and a checksum), ``delivery_p50_ms``/``delivery_p99_ms`` (from the write's
acknowledgement, the midpoint of the action's POST less its wait for a write turn, to the arrival at a spectator,
over every (event, spectator) pair), ``action_p50_ms``/``action_p99_ms`` alone and watched and their ratio
(``watched_latency_ratio_p50``, ``_p99``), the same actions as the server timed them (``server_action_p50_ms``
alone and watched, from its request log lines: without the seat's client and the spectators' processes, which
share this machine's cores), ``spectators_counted``, CPU seconds of the workers and Redis.

Prints ONE JSON object on stdout (progress on stderr); exits 1 when a spectator was not held, an error happened
or an event was missed. Targets (issue 42): 0 missed, delivery_p99_ms < 1000, the seats' latency within 20 % of
none (ratio <= 1.2).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from http_load import percentile_ms
from http_players import HOST, Client, base_url
from tienlen.local_redis import LocalRedis
from waiters import Assignment, raise_open_files_limit, waiter_main
from waiting import (
    Figures,
    Player,
    RedisSampler,
    all_events,
    children_of,
    missed_and_delays,
    process_cpu_s,
    shut_down,
    start_server,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--spectators", type=int, default=1000, help="spectators of the match (default 1000)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of play in each phase (default 20)")
    parser.add_argument("--rate", type=float, default=4.0, help="actions a second (default 4)")
    parser.add_argument("--hands", type=int, default=50, help="hands of the match (default 50: it does not end)")
    parser.add_argument(
        "--polls", type=float, default=0.0, help="the share of spectators that long-poll (default 0: all stream)"
    )
    parser.add_argument("--poll-wait", type=float, default=25.0, help="wait= of the long polls (default 25)")
    parser.add_argument("--drain", type=float, default=15.0, help="seconds the spectators get to catch up")
    parser.add_argument("--waiter-processes", type=int, default=2, help="processes of spectators (default 2)")
    parser.add_argument("--connects", type=int, default=200, help="connections a spectator process opens at once")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    args = parser.parse_args(argv)
    if args.spectators < 1 or args.waiter_processes < 1 or args.rate <= 0:
        parser.error("--spectators and --waiter-processes must be at least 1, --rate above 0")
    return args


def progress(message: str) -> None:
    """A line on stderr."""
    print(f"bench-watch: {message}", file=sys.stderr, flush=True)


def play(player: Player, seconds: float, rate: float) -> tuple[list[float], float]:
    """Play the match for ``seconds`` at ``rate`` actions a second; the latencies of those actions, and the wall."""
    before = len(player.stats.action_latencies_s)
    started = time.monotonic()
    player.play(started + seconds, 1.0 / rate, threading.Event())
    return player.stats.action_latencies_s[before:], time.monotonic() - started


def run(args: argparse.Namespace, figures: Figures, out: dict[str, Any]) -> None:
    """Start Redis and the server, run the phases, and stop both (always)."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="tienlen-bench-watch-") as tmp:
        tmpdir = Path(tmp)
        redis_server = LocalRedis(tmpdir / "redis", appendonly=True)
        server: subprocess.Popen[bytes] | None = None
        log_path = tmpdir / "server.log"
        processes: list[Any] = []
        sampler: RedisSampler | None = None
        try:
            redis_server.start()
            # every spectator comes from this one address
            settings = {"TIENLEN_ANONYMOUS_HOSTING": "1", "TIENLEN_MAX_WAITERS_PER_ADDRESS": "1000000"}
            server, port = start_server(redis_server.url, args.workers, log_path, settings)
            progress(f"server on :{port} ({args.workers} gevent workers), redis {redis_server.url}")
            sampler = RedisSampler(redis_server.url)
            sampler.start()

            player = Player(Client(base_url(port), timeout=60))
            figures.players = [player]
            player.create([0], 4242, {"hands": args.hands})
            match = player.matches[0][1]
            progress(f"match {match.match_id} created; playing alone for {args.duration:.0f}s")
            alone, alone_wall = play(player, args.duration, args.rate)

            after = int(player.client.match(match.match_id)["last_seq"])
            polls = round(args.spectators * args.polls)
            assignments = [
                Assignment(index=i, match=0, match_id=match.match_id, kind="poll" if i < polls else "stream",
                           after=after, by_header=i % 2 == 1, watcher=f"spectator-{i}" if i < polls else None)
                for i in range(args.spectators)
            ]  # fmt: skip
            channels = []
            for number in range(args.waiter_processes):
                mine = assignments[number :: args.waiter_processes]
                if not mine:
                    continue
                commands_read, commands_write = context.Pipe(duplex=False)
                replies_read, replies_write = context.Pipe(duplex=False)
                process = context.Process(
                    target=waiter_main,
                    args=(HOST, port, mine, args.poll_wait, args.connects, commands_read, replies_write),
                    name=f"spectators-{number}",
                    daemon=True,
                )
                process.start()
                processes.append(process)
                channels.append((commands_write, replies_read))
            figures.waiters = sum(reply.recv()[1] for _, reply in channels)
            out["spectators_counted"] = int(player.client.match(match.match_id)["spectators"])
            progress(f"{figures.waiters} spectators held ({out['spectators_counted']} counted); playing watched")

            workers = children_of(server.pid)
            cpu_before = {"server_workers": sum(process_cpu_s(p) for p in workers), "redis": sampler.redis_cpu_s()}
            for command_pipe, _ in channels:
                command_pipe.send(("go",))
            watched, watched_wall = play(player, args.duration, args.rate)
            for command_pipe, _ in channels:
                command_pipe.send(("stop",))
            figures.play_wall = watched_wall
            figures.cpu = {
                "server_workers": sum(process_cpu_s(p) for p in workers) - cpu_before["server_workers"],
                "redis": sampler.redis_cpu_s() - cpu_before["redis"],
            }
            figures.events = {0: all_events(player.client, match.match_id)}
            progress(f"played {len(watched)} actions watched; draining")
            for command_pipe, _ in channels:
                command_pipe.send(("drain", {0: len(figures.events[0])}, args.drain))
            for _, reply in channels:
                figures.reports.append(reply.recv()[1])
            figures.commits.update(player.commits)
            figures.min_held = sum(r.min_held_during_play for r in figures.reports)
            out["alone"], out["watched"] = sorted(alone), sorted(watched)
            timed = server_action_s(log_path)
            out["server_alone"] = sorted(timed[: len(alone)])
            out["server_watched"] = sorted(timed[len(alone) : len(alone) + len(watched)])
            out["alone_wall"] = alone_wall
            player.client.close()
            sampler.halt.set()
            sampler.join()
            figures.redis_peak = sampler.peak
        finally:
            shut_down(sampler, processes, server, redis_server, log_path, progress)


ACTION_LINE = re.compile(r"method=POST route=/v1/matches/<string:match_id>/actions .*duration_ms=([0-9.]+)")


def server_action_s(log_path: Path) -> list[float]:
    """The seats' actions as the server timed them (its request log lines), in seconds, in the order answered."""
    lines = log_path.read_text().splitlines()
    return [float(m.group(1)) / 1000.0 for line in lines if (m := ACTION_LINE.search(line))]


def ratio(watched: float | None, alone: float | None) -> float | None:
    """``watched / alone``, rounded; None when either is missing."""
    return None if not watched or not alone else round(watched / alone, 3)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object."""
    args = parse_args(argv)
    raise_open_files_limit()
    figures = Figures()
    out: dict[str, Any] = {}
    run(args, figures, out)
    missed, expected, delays = missed_and_delays(figures)
    every = sorted(delays["stream"] + delays["poll"])
    alone, watched = out.get("alone", []), out.get("watched", [])
    server_alone, server_watched = out.get("server_alone", []), out.get("server_watched", [])
    waiter_errors = sum(r.errors for report in figures.reports for r in report.results)
    errors = waiter_errors + sum(p.stats.errors for p in figures.players)
    samples = [s for report in figures.reports for s in report.error_samples]
    samples += [s for p in figures.players for s in p.stats.error_samples]
    result: dict[str, Any] = {
        "spectators": figures.waiters,
        "spectators_requested": args.spectators,
        "spectators_counted": out.get("spectators_counted"),
        "errors": errors,
        "missed_events": missed,
        "deliveries": expected,
        "delivery_p50_ms": percentile_ms(every, 0.50),
        "delivery_p99_ms": percentile_ms(every, 0.99),
        "delivery_p99_ms_stream": percentile_ms(sorted(delays["stream"]), 0.99),
        "delivery_p99_ms_poll": percentile_ms(sorted(delays["poll"]), 0.99),
        "delivery_max_ms": percentile_ms(every, 1.0),
        "action_p50_ms_alone": percentile_ms(alone, 0.50),
        "action_p99_ms_alone": percentile_ms(alone, 0.99),
        "action_p50_ms_watched": percentile_ms(watched, 0.50),
        "action_p99_ms_watched": percentile_ms(watched, 0.99),
        "watched_latency_ratio_p50": ratio(percentile_ms(watched, 0.50), percentile_ms(alone, 0.50)),
        "watched_latency_ratio_p99": ratio(percentile_ms(watched, 0.99), percentile_ms(alone, 0.99)),
        "server_action_p50_ms_alone": percentile_ms(server_alone, 0.50),
        "server_action_p50_ms_watched": percentile_ms(server_watched, 0.50),
        "server_watched_latency_ratio_p50": ratio(
            percentile_ms(server_watched, 0.50), percentile_ms(server_alone, 0.50)
        ),
        "actions_alone": len(alone),
        "actions_watched": len(watched),
        "spectators_min_during_play": figures.min_held,
        "rate": args.rate,
        "duration_s": args.duration,
        "redis_clients": figures.redis_peak - 1,
        "error_samples": samples[:8],
        "cpu_s_watched": {name: round(value, 2) for name, value in figures.cpu.items()},
        "server": {"workers": args.workers, "worker_class": "gevent"},
        "machine": {"nproc": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
    }
    print(json.dumps(result))
    return 0 if errors == 0 and missed == 0 and figures.waiters == args.spectators else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("bench-watch: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
