"""Tournament benchmark: a Swiss of 256 entrants, 5 rounds at tables of 4, on 2 workers (``make bench-tournament``).

Starts a private Redis and ``python -m tienlen serve`` (gevent workers, ``--workers``, default 2), signs up
``--entrants`` accounts, creates a Swiss tournament of ``--rounds`` rounds at tables of ``--players`` (one hand a
match, starting when full) and enters them all. When the entrants are not a multiple of the table size, house bots
fill the lowest tables' empty seats (byes). Then ``--threads`` client threads play every table as it is seated: at
each table the seat on turn, with its own account's token, plays its lowest legal play. A reader follows the
tournament's events (long polls) and notes when each round was seated.

With ``--kill-round R`` (default 3; 0: none) one gunicorn worker is killed (SIGKILL) in round R once half of its
tables are over; gunicorn starts another, and the tournament must go on: nothing lost, nothing doubled.

Figures: ``seated_after_s`` per round from 2 (from the answer to the action that ended the previous round's last
table, to the arrival of that round's ``round_seated`` event at the reader; below 0 when the round was seated
before that answer reached its client: the write that records a round's last table seats the next) and its max;
``server_seated_after_s``
(the server's own times: the previous round's last ``table_ended`` to ``round_seated``); ``tables`` per round,
``doubled`` (a match id in two tables, or a round with more tables than planned), ``lost`` (a table with no result
at the end, an entrant with fewer matches than rounds), ``errors``, ``actions``, the wall time, the CPU of the
workers and Redis, whether the standings rank every entrant once.

Prints ONE JSON object on stdout (progress on stderr); exits 1 when the tournament did not finish, a table was lost
or doubled, or an error happened. Targets (issue 43): every round seated within 2 s of the previous round's last
match end; nothing lost or doubled when a worker is killed mid-round.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from tienlen_client import ApiError
from tienlen_client.botkit import lowest_play

from http_players import FAILURES, Client, base_url
from tienlen.local_redis import LocalRedis
from waiting import RedisSampler, children_of, process_cpu_s, shut_down, start_server

PASSWORD = "bench-tournament-password"
MAX_ACTIONS_PER_TABLE = 2000


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entrants", type=int, default=256, help="accounts entered (default 256)")
    parser.add_argument("--rounds", type=int, default=5, help="Swiss rounds (default 5)")
    parser.add_argument("--players", type=int, default=4, help="table size (default 4)")
    parser.add_argument("--hands", type=int, default=1, help="hands a match (default 1)")
    parser.add_argument("--threads", type=int, default=16, help="client threads playing the tables (default 16)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--kill-round", type=int, default=3, help="kill a worker in this round (default 3; 0: none)")
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds (default 900)")
    args = parser.parse_args(argv)
    if args.entrants < args.players or not 2 <= args.players <= 4 or args.rounds < 1 or args.threads < 1:
        parser.error("--entrants at least --players (2 to 4), --rounds and --threads at least 1")
    return args


def progress(message: str) -> None:
    """A line on stderr."""
    print(f"bench-tournament: {message}", file=sys.stderr, flush=True)


@dataclass
class Run:
    """What the run saw: the last action of each table, the feed's events as they arrived, errors, actions."""

    ended_at: dict[str, float] = field(default_factory=dict)  # match id -> the answer to its last action
    feed: list[tuple[float, dict[str, Any]]] = field(default_factory=list)  # (arrival, event)
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)
    actions: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, error: BaseException) -> None:
        """Count an error (and keep a few)."""
        with self.lock:
            self.errors += 1
            if len(self.error_samples) < 8:
                self.error_samples.append(f"{type(error).__name__}: {error}"[:300])

    def seated_at(self, round_no: int) -> float | None:
        """When the reader heard that round ``round_no`` was seated."""
        return next((at for at, e in self.feed if e["type"] == "round_seated" and e["round"] == round_no), None)


def play_table(url: str, table: dict[str, Any], tokens: dict[str, str], run: Run) -> None:
    """Play one table's match out: the seat on turn plays its lowest legal play with its account's token."""
    match_id = table["match_id"]
    seat_tokens = {seat: tokens[s["name"]] for seat, s in enumerate(table["sitters"]) if not s["house"]}
    with Client(url, timeout=60) as client:
        for _ in range(MAX_ACTIONS_PER_TABLE):
            try:
                match = client.request("GET", f"/v1/matches/{match_id}")
                if match["status"] == "finished":
                    return
                turn = match["turn"]
                if turn is None or turn not in seat_tokens:
                    time.sleep(0.05)  # a bot's turn, or the next hand being dealt
                    continue
                seat = client.seat(match_id, seat_tokens[turn])
                view = seat.view()
                if view["turn"] != view["seat"] or view["status"] != "playing":
                    continue
                cards = lowest_play(view)
                answer = seat.act({"type": "play", "cards": cards} if cards else {"type": "pass"},
                                  version=int(view["version"]))  # fmt: skip
                with run.lock:
                    run.actions += 1
                if answer["status"] == "finished":
                    with run.lock:
                        run.ended_at[match_id] = time.monotonic()
                    return
            except ApiError as error:
                if error.reason in ("stale_version", "not_your_turn"):
                    continue  # the clock's takeover or a retry moved on first
                run.error(error)
                time.sleep(0.2)
            except FAILURES as error:
                run.error(error)
                time.sleep(0.2)
    run.error(RuntimeError(f"match {match_id} did not end within {MAX_ACTIONS_PER_TABLE} actions"))


def read_feed(url: str, tournament_id: str, run: Run, stop: threading.Event) -> None:
    """Follow the tournament's events (long polls) until it is over or ``stop``; note each one's arrival."""
    after = 0
    with Client(url, timeout=60) as client:
        while not stop.is_set():
            try:
                page = client.request("GET", f"/v1/tournaments/{tournament_id}/events?after={after}&wait=20")
            except FAILURES as error:
                run.error(error)
                time.sleep(0.5)
                continue
            now = time.monotonic()
            for event in page["events"]:
                run.feed.append((now, event))
                after = max(after, int(event["seq"]))
                if event["type"] in ("tournament_finished", "tournament_cancelled"):
                    return


def sign_up_all(url: str, count: int, threads: int) -> dict[str, str]:
    """``count`` fresh accounts: name -> session token."""

    def one(i: int) -> tuple[str, str]:
        name = f"bench{i:04d}"
        with Client(url, timeout=60) as client:
            return name, str(client.create_account(name, PASSWORD)["token"])

    with ThreadPoolExecutor(threads) as pool:
        return dict(pool.map(one, range(count)))


def enter_all(url: str, tournament_id: str, tokens: dict[str, str], threads: int) -> None:
    """Enter every account (the last entry starts a tournament that starts when full)."""

    def one(token: str) -> None:
        with Client(url, timeout=60) as client:
            client.request("PUT", f"/v1/tournaments/{tournament_id}/entry", token=token)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(one, tokens.values()))


def play_all(
    url: str, tournament_id: str, tokens: dict[str, str], args: argparse.Namespace, run: Run, kill: Callable[[], None]
) -> dict[str, Any]:
    """Play every round's tables as they are seated until the tournament is over; its last state."""
    done: set[str] = set()
    killed = False
    deadline = time.monotonic() + args.timeout
    with Client(url, timeout=60) as client, ThreadPoolExecutor(args.threads) as pool:
        while time.monotonic() < deadline:
            state = client.request("GET", f"/v1/tournaments/{tournament_id}")
            if state["status"] in ("finished", "cancelled"):
                return dict(state)
            tables = [t for r in state["rounds"] for t in r["tables"] if t["match_id"] not in done]
            if not tables:
                time.sleep(0.02)
                continue
            round_no = state["rounds"][-1]["number"]
            progress(f"round {round_no}: {len(tables)} tables")
            futures = [(t, pool.submit(play_table, url, t, tokens, run)) for t in tables]
            for index, (table, future) in enumerate(futures):
                future.result()
                done.add(table["match_id"])
                if not killed and round_no == args.kill_round and index + 1 >= len(futures) // 2:
                    killed = True
                    kill()
    raise TimeoutError("the tournament did not finish in time")


def seating_figures(state: dict[str, Any], run: Run) -> tuple[list[float | None], list[float | None]]:
    """Per round from 2: seconds from the previous round's last table's end to the new round's seating, as the
    clients saw it and as the server's own feed times say."""
    client_side: list[float | None] = []
    server_side: list[float | None] = []
    feed = [e for _, e in run.feed]
    for previous, current in zip(state["rounds"], state["rounds"][1:], strict=False):
        ends = [run.ended_at.get(t["match_id"]) for t in previous["tables"]]
        heard = run.seated_at(current["number"])
        known = [e for e in ends if e is not None]
        client_side.append(None if heard is None or not known else round(heard - max(known), 3))
        table_ends = [e["at"] for e in feed if e["type"] == "table_ended" and e["round"] == previous["number"]]
        seated = [e["at"] for e in feed if e["type"] == "round_seated" and e["round"] == current["number"]]
        server_side.append(
            None if not table_ends or not seated else round(_seconds(seated[0]) - max(map(_seconds, table_ends)), 3)
        )
    return client_side, server_side


def _seconds(at: Any) -> float:
    """A feed time (RFC 3339 text or epoch seconds) in epoch seconds."""
    if isinstance(at, int | float):
        return float(at)
    return datetime.fromisoformat(str(at).replace("Z", "+00:00")).timestamp()


def check(state: dict[str, Any], standings: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Lost and doubled tables, and the standings' count, from the tournament's final state."""
    planned = -(-args.entrants // args.players)
    ids = [t["match_id"] for r in state["rounds"] for t in r["tables"]]
    doubled = (len(ids) - len(set(ids))) + sum(max(0, len(r["tables"]) - planned) for r in state["rounds"])
    lost = sum(1 for r in state["rounds"] for t in r["tables"] if not t["ended"])
    lost += sum(max(0, args.rounds - int(s["matches"])) for s in standings["standings"])
    ranks = sorted(int(s["rank"]) for s in standings["standings"])
    return {
        "rounds_played": len(state["rounds"]),
        "tables": [len(r["tables"]) for r in state["rounds"]],
        "tables_planned_a_round": planned,
        "doubled": doubled,
        "lost": lost,
        "standings_rank_everyone_once": ranks == list(range(1, args.entrants + 1)),
    }


def run_bench(args: argparse.Namespace, out: dict[str, Any]) -> None:
    """Start Redis and the server, run the tournament, and stop both (always)."""
    with tempfile.TemporaryDirectory(prefix="tienlen-bench-tournament-") as tmp:
        tmpdir = Path(tmp)
        redis_server = LocalRedis(tmpdir / "redis", appendonly=True)
        server: subprocess.Popen[bytes] | None = None
        log_path = tmpdir / "server.log"
        sampler: RedisSampler | None = None
        try:
            redis_server.start()
            settings = {"TIENLEN_MAX_WAITERS_PER_ADDRESS": "100000"}
            server, port = start_server(redis_server.url, args.workers, log_path, settings)
            url = base_url(port)
            progress(f"server on :{port} ({args.workers} gevent workers), redis {redis_server.url}")
            sampler = RedisSampler(redis_server.url)
            sampler.start()
            tokens = sign_up_all(url, args.entrants + 1, args.threads)
            creator = tokens.pop(next(iter(tokens)))
            body = {"name": "Bench Swiss", "format": "swiss", "players": args.players, "hands": args.hands,
                    "turn_seconds": 60, "min_entrants": args.entrants, "max_entrants": args.entrants,
                    "rounds": args.rounds, "bots": True}  # fmt: skip
            with Client(url, timeout=60) as client:
                tournament_id = str(client.request("POST", "/v1/tournaments", body, token=creator)["tournament_id"])
            progress(f"tournament {tournament_id}: {args.entrants} entrants entering")
            run = Run()
            stop = threading.Event()
            reader = threading.Thread(target=read_feed, args=(url, tournament_id, run, stop), daemon=True)
            reader.start()
            workers = children_of(server.pid)
            cpu_before = {"server_workers": sum(process_cpu_s(p) for p in workers), "redis": sampler.redis_cpu_s()}
            started = time.monotonic()
            killed: list[int] = []

            def kill() -> None:
                alive = children_of(server.pid) if server is not None else []
                if alive:
                    os.kill(alive[0], signal.SIGKILL)
                    killed.append(alive[0])
                    progress(f"killed worker {alive[0]}")

            enter_all(url, tournament_id, tokens, args.threads)
            state = play_all(url, tournament_id, tokens, args, run, kill)
            out["wall_s"] = round(time.monotonic() - started, 1)
            reader.join(timeout=30)
            stop.set()
            workers = children_of(server.pid)
            out["cpu_s"] = {
                "server_workers_alive": round(sum(process_cpu_s(p) for p in workers), 2),
                "server_workers_at_start": round(cpu_before["server_workers"], 2),
                "redis": round(sampler.redis_cpu_s() - cpu_before["redis"], 2),
            }
            with Client(url, timeout=60) as client:
                standings = client.request("GET", f"/v1/tournaments/{tournament_id}/standings")
            out["status"] = state["status"]
            out["killed_workers"] = len(killed)
            out.update(check(state, standings, args))
            client_side, server_side = seating_figures(state, run)
            out["seated_after_s"] = client_side
            out["server_seated_after_s"] = server_side
            known = [s for s in client_side if s is not None]
            out["seated_after_s_max"] = max(known) if known else None
            out["errors"], out["error_samples"], out["actions"] = run.errors, run.error_samples, run.actions
        finally:
            if sampler is not None:
                sampler.halt.set()
            shut_down(sampler, [], server, redis_server, log_path, progress)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one JSON object."""
    args = parse_args(argv)
    out: dict[str, Any] = {}
    run_bench(args, out)
    result = {
        "entrants": args.entrants,
        "rounds": args.rounds,
        "players": args.players,
        "hands": args.hands,
        **out,
        "server": {"workers": args.workers, "worker_class": "gevent"},
        "machine": {"nproc": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()},
    }
    print(json.dumps(result))
    ok = out.get("status") == "finished" and out.get("lost") == 0 and out.get("doubled") == 0
    return 0 if ok and out.get("errors") == 0 else 1


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        print("bench-tournament: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
