"""Faults with real processes: Redis paused, Redis killed and restarted on its AOF, a worker killed under load.

What each checks: with the default rate limits on, every answer while Redis
is paused comes within 1.5 s (scaled by a loaded machine's load),
``store_unavailable`` means nothing changed and an ``outcome_unknown`` action
retried with its ``Idempotency-Key`` is applied exactly once; no acknowledged
action is lost; retries with the same key apply an action exactly once. Each
test also checks that its fault really cut requests, so it cannot pass
without meeting it.
"""

from __future__ import annotations

import collections
import functools
import itertools
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.http import Reply, call, children
from tests.support.pace import paced
from tests.support.servers import ServerStarter
from tienlen.local_redis import LocalRedis, free_port

# every answer while Redis is paused, on a quiet machine; scaled by the machine's load (tests/support/pace.py: 1.6 s
# seen at three times the cores), never near a pause's length, which an answer waiting for Redis would take
FAST_503_S = 1.5
PAUSE_S = 3.0
ENOUGH_ACKNOWLEDGED = 10  # the fault tests check more acknowledged actions than this, each applied once
DEFAULT_LIMITS = {"TIENLEN_RATE_LIMITS": ""}  # the defaults: what a server runs with unless told otherwise


@contextmanager
def serving(
    redis_server: LocalRedis,
    tmp_path: Path,
    starter: ServerStarter,
    workers: int = 1,
    env: dict[str, str] | None = None,
) -> Iterator[str]:
    """A real server on ``redis_server``; its base URL."""
    port = free_port()
    process = starter(redis_server.url, port, tmp_path / "server.log", args=("--workers", str(workers)), env=env)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


def against_bots(base: str, bot: str = "easy", hands: int = 1) -> tuple[str, str]:
    """A match of a remote seat against three bots: its id and the seat's token."""
    seats = [{"name": "Me"}, *({"name": f"B{i}", "bot": bot} for i in range(3))]
    created = call("POST", f"{base}/v1/matches", {"seats": seats, "rules": {"preset": "standard", "hands": hands}})
    assert created.status == 201, created
    return created.body["match_id"], created.body["tokens"][0]["token"]


def next_action(base: str, match_id: str, token: str) -> dict[str, Any] | None:
    """The remote seat's next action (its first legal play, else a pass); None when the match is over."""
    legal = call("GET", f"{base}/v1/matches/{match_id}/legal", token=token)
    if legal.status != 200:
        return None
    plays = legal.body["plays"]
    if plays:
        return {"type": "play", "cards": plays[0]["cards"]}
    return {"type": "pass"} if legal.body["can_pass"] else None


def act_until_acknowledged(
    base: str, match_id: str, token: str, body: dict[str, Any], key: str, cut: list[Reply] | None = None
) -> Reply:
    """POST the action, retrying with the same key on 5xx and broken connections until an answer comes.

    Every answer that was cut (status 0) or failed (5xx) goes to ``cut``.
    """
    deadline = time.monotonic() + 30
    while True:
        url = f"{base}/v1/matches/{match_id}/actions"
        reply = call("POST", url, body, token=token, headers={"Idempotency-Key": key})
        if reply.status == 0 or reply.status >= 500:
            if cut is not None:
                cut.append(reply)
            if time.monotonic() < deadline:
                time.sleep(0.1)
                continue
        return reply


def all_events(base: str, match_id: str) -> list[dict[str, Any]]:
    """Every event of the match, page after page."""
    found: list[dict[str, Any]] = []
    while True:
        page = call("GET", f"{base}/v1/matches/{match_id}/events?after={len(found)}")
        assert page.status == 200, page
        found += page.body["events"]
        if not page.body["events"] or len(found) >= page.body["last_seq"]:
            return found


# ----- Redis paused (SIGSTOP) with the default rate limits on ----------------------------------


@dataclass
class Sent:
    """One request a player sent: what, when it started (monotonic), how it went."""

    what: str
    started: float
    reply: Reply


@dataclass
class Paused:
    """What the players of the paused-Redis test saw, shared by their threads."""

    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    sent: list[Sent] = field(default_factory=list)
    acknowledged: list[tuple[str, Reply]] = field(default_factory=list)  # (match, 200 answer), one per action
    unavailable: list[tuple[str, str]] = field(default_factory=list)  # (match, key) answered store_unavailable
    caught: list[str] = field(default_factory=list)  # keys of actions answered outcome_unknown
    unknown: list[tuple[str, str, Reply, Reply]] = field(default_factory=list)  # (match, key, retry, 2nd retry)
    failures: list[str] = field(default_factory=list)

    def timed(self, what: str, send: Callable[[], Reply]) -> Reply:
        started = time.monotonic()
        reply = send()
        self.sent.append(Sent(what, started, reply))
        return reply


def until_answered(send: Callable[[], Reply], within_s: float = 30) -> Reply:
    """``send()`` again every 0.1 s while it is cut or answers 5xx (the store is away), for up to ``within_s``."""
    deadline = time.monotonic() + within_s
    reply = send()
    while (reply.status == 0 or reply.status >= 500) and time.monotonic() < deadline:
        time.sleep(0.1)
        reply = send()
    return reply


def keep_playing(run: Paused) -> None:
    """Play matches against Medium bots until told to stop: each action with a new key, handled by its answer.

    ``store_unavailable``: noted, and the next action is worked out afresh.
    ``outcome_unknown``: retried with the same key until the store answers,
    then once more (the kept answer must come back the same).
    """
    base = run.base
    match_id, token = "", ""
    while not run.stop.is_set():
        if not match_id:
            seats = [{"name": "Me"}, *({"name": f"B{i}", "bot": "medium"} for i in range(3))]
            body = {"seats": seats, "rules": {"preset": "standard", "hands": 6}}
            created = run.timed("create", functools.partial(call, "POST", f"{base}/v1/matches", body))
            if created.status == 201:
                match_id, token = created.body["match_id"], created.body["tokens"][0]["token"]
            else:
                time.sleep(0.05)
            continue
        url = f"{base}/v1/matches/{match_id}"
        legal = run.timed("legal", functools.partial(call, "GET", f"{url}/legal", token=token))
        if legal.status != 200:
            time.sleep(0.05)
            continue
        plays = legal.body["plays"]
        action = {"type": "play", "cards": plays[0]["cards"]} if plays else {"type": "pass"}
        if not plays and not legal.body["can_pass"]:
            match_id = ""  # over
            continue
        key = str(uuid.uuid4())

        def act(key: str = key, action: dict[str, Any] = action, url: str = url, token: str = token) -> Reply:
            return call("POST", f"{url}/actions", action, token=token, headers={"Idempotency-Key": key})

        reply = run.timed("action", act)
        if reply.status == 200:
            run.acknowledged.append((match_id, reply))
        elif reply.reason == "store_unavailable":
            run.unavailable.append((match_id, key))
            time.sleep(0.05)
        elif reply.reason == "outcome_unknown":
            run.caught.append(key)
            retry = until_answered(act)
            if retry.status != 200:
                run.failures.append(f"an outcome_unknown action retried with its key answered {retry}")
                return
            run.acknowledged.append((match_id, retry))
            run.unknown.append((match_id, key, retry, until_answered(act)))
        elif reply.status == 429:
            time.sleep(float(reply.headers.get("retry-after", "1")))
        else:
            run.failures.append(f"an action answered {reply}")
            return


def check_applied_once(base: str, acknowledged: list[tuple[str, Reply]]) -> int:
    """Each match's stream holds the remote seat's acknowledged actions, each once, as answered, and no other.

    So an action answered ``store_unavailable`` was never applied (it would be
    one more), and one answered ``outcome_unknown`` and retried with its key was
    applied once. Answers the number of actions checked.
    """
    by_match: dict[str, list[Reply]] = {}
    for match_id, reply in acknowledged:
        by_match.setdefault(match_id, []).append(reply)
    for match_id, replies in by_match.items():
        stream = all_events(base, match_id)
        assert [e["seq"] for e in stream] == list(range(1, len(stream) + 1))
        by_seq = {event["seq"]: event for event in stream}
        for reply in replies:
            for event in reply.body["events"]:
                assert by_seq.get(event["seq"]) == event, f"acknowledged event lost or changed: {event}"
        mine = [e for e in stream if e["type"] in ("played", "passed") and e.get("seat") == 0]
        assert len(mine) == len(replies), f"{len(replies)} actions acknowledged, {len(mine)} applied in {match_id}"
    return len(acknowledged)


PAUSES_AT_MOST = 12


@pytest.mark.xdist_group("faults")
def test_paused_redis_with_default_limits_answers_503_fast_and_503s_say_what_happened(
    tmp_path: Path, server_starter: ServerStarter, record_property: Callable[[str, object], None]
) -> None:
    """Rule: while Redis is paused under load every answer comes within 1.5 s (more on a loaded machine); after it
    resumes no ``store_unavailable`` action was applied and each ``outcome_unknown`` one, retried with its key, once."""
    with (
        LocalRedis(tmp_path / "redis") as redis_server,
        serving(redis_server, tmp_path, server_starter, env=DEFAULT_LIMITS) as base,
    ):
        assert redis_server.pid is not None
        run = Paused(base)
        players = [threading.Thread(target=keep_playing, args=(run,)) for _ in range(6)]
        for player in players:
            player.start()
        pauses: list[tuple[float, float]] = []
        health: list[Reply] = []
        try:
            # until a pause catches an action between its read and its commit: alone, the first pause does here,
            # but the moment is narrow, and with the pure Python engine under the whole suite's load five pauses
            # once caught none (27 actions answered during them); the pauses stop as soon as both are seen
            for _ in range(PAUSES_AT_MOST):
                time.sleep(0.7)
                paused_at = time.monotonic()
                os.kill(redis_server.pid, signal.SIGSTOP)
                try:
                    while time.monotonic() < paused_at + PAUSE_S:
                        health.append(call("GET", f"{base}/healthz"))
                        time.sleep(0.2)
                finally:
                    os.kill(redis_server.pid, signal.SIGCONT)
                pauses.append((paused_at, time.monotonic()))
                if run.caught and run.unavailable:
                    break
            time.sleep(0.5)
            until_acknowledged(run.acknowledged, ENOUGH_ACKNOWLEDGED)
        finally:
            run.stop.set()
            for player in players:
                player.join(timeout=60)
        assert not run.failures, run.failures

        during = [s for s in run.sent if any(a < s.started + s.reply.seconds and s.started < b for a, b in pauses)]
        reasons = collections.Counter(f"{s.what} {s.reply.status} {s.reply.reason or ''}".strip() for s in during)
        record_property("answers_while_paused", dict(reasons))
        slowest = max(during, key=lambda s: s.reply.seconds)
        record_property("slowest_while_paused", f"{slowest.what} {slowest.reply.reason} {slowest.reply.seconds:.3f} s")
        fast_s = paced(FAST_503_S, cap_s=PAUSE_S - 0.5)
        slow = [s for s in during if s.reply.seconds >= fast_s]
        assert not slow, f"answers slower than {fast_s:.2f} s while Redis was paused: {slow[:5]} (all: {reasons})"
        for reply in health:
            assert reply.status == 503 and reply.reason == "store_unavailable", reply
            assert reply.seconds < fast_s, f"/healthz took {reply.seconds:.2f} s while Redis was paused"
        assert any(s.reply.status == 503 for s in during), reasons
        assert {s.reply.reason for s in during if s.reply.status == 503} <= {"store_unavailable", "outcome_unknown"}
        assert run.unavailable, f"no action answered store_unavailable in {len(pauses)} pauses: {reasons}"
        assert run.caught, f"no action was caught between its read and its commit in {len(pauses)} pauses: {reasons}"
        assert len(run.unknown) == len(run.caught), "every outcome_unknown action was retried with its key"

        assert call("GET", f"{base}/healthz").status == 200, "the server recovers once Redis answers again"
        assert check_applied_once(base, run.acknowledged) > ENOUGH_ACKNOWLEDGED
        for _match_id, _key, retry, again in run.unknown:
            assert again.status == 200 and again.body["events"] == retry.body["events"], "the kept answer, again"


# ----- Redis killed and restarted, a worker killed ----------------------------------------------


def play_for(
    base: str,
    until: threading.Event,
    keys: Iterator[int],
    acknowledged: list[tuple[str, Reply]],
    failures: list[str],
    cut: list[Reply],
) -> None:
    """Play matches against bots until ``until`` is set, each action retried with its key until answered.

    An answer other than 200 to an action (a retry judged again, say) goes to
    ``failures``; every answer that was cut or failed (status 0 or 5xx), to ``cut``.
    """
    match_id, token = "", ""
    while not until.is_set():
        body = next_action(base, match_id, token) if match_id else None
        if body is None:
            try:
                match_id, token = against_bots(base)
            except AssertionError:
                time.sleep(0.1)  # the store or the worker is down: try again
            continue
        reply = act_until_acknowledged(base, match_id, token, body, f"k{next(keys)}", cut)
        if reply.status != 200:
            failures.append(f"an action (retried with its key) was refused: {reply}")
            return
        acknowledged.append((match_id, reply))


def both_workers(pid: int, timeout: float = 30.0) -> list[int]:
    """The two workers of the server ``pid`` once both are up (gunicorn starts one again after a kill)."""
    deadline = time.monotonic() + timeout
    while len(workers := children(pid)) != 2:
        assert time.monotonic() < deadline, f"the server has {len(workers)} workers, not 2, after {timeout} s"
        time.sleep(0.1)
    return workers


def check_acknowledged(base: str, acknowledged: list[tuple[str, Reply]]) -> int:
    """Every event of every acknowledged answer is in its match's stream, once, as answered; the actions seen."""
    return check_applied_once(base, acknowledged)


def until_acknowledged(acknowledged: list[tuple[str, Reply]], count: int, timeout: float = 30.0) -> None:
    """Let the players go on until more than ``count`` actions are acknowledged (a slow machine plays fewer a
    second; the checks need enough of them to mean something), at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while len(acknowledged) <= count and time.monotonic() < deadline:
        time.sleep(0.2)


@contextmanager
def players(base: str, count: int) -> Iterator[tuple[list[tuple[str, Reply]], list[str], list[Reply]]]:
    """``count`` threads playing against bots while the block runs: (acknowledged, failures, cut), shared."""
    acknowledged: list[tuple[str, Reply]] = []
    failures: list[str] = []
    cut: list[Reply] = []
    until = threading.Event()
    keys = itertools.count()  # next() of a count is atomic: the players share it
    work = (base, until, keys, acknowledged, failures, cut)
    threads = [threading.Thread(target=play_for, args=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield acknowledged, failures, cut
    finally:
        until.set()
        for thread in threads:
            thread.join(timeout=60)


@pytest.mark.xdist_group("faults")
def test_redis_killed_and_restarted_on_its_aof_loses_no_acknowledged_action(
    tmp_path: Path, server_starter: ServerStarter, record_property: Callable[[str, object], None]
) -> None:
    redis_server = LocalRedis(tmp_path / "redis", extra_args=("--appendfsync", "always"))
    with redis_server, serving(redis_server, tmp_path, server_starter) as base:
        with players(base, 3) as (acknowledged, failures, cut):
            for _ in range(3):  # until the kill cut a request (it all but always does at once)
                time.sleep(1.5)
                assert redis_server.pid is not None
                os.kill(redis_server.pid, signal.SIGKILL)
                time.sleep(0.5)
                redis_server.restart()
                time.sleep(0.5)
                if cut:
                    break
            time.sleep(1.0)
            until_acknowledged(acknowledged, ENOUGH_ACKNOWLEDGED)
        assert not failures, failures
        record_property("requests_cut", len(cut))
        assert cut, "no request failed while Redis was down: the test did not meet its fault"
        assert {r.status for r in cut} <= {503}, [r for r in cut if r.status != 503][:3]
        assert call("GET", f"{base}/healthz").status == 200, "the server works again without a restart"
        assert check_acknowledged(base, acknowledged) > ENOUGH_ACKNOWLEDGED


@pytest.mark.xdist_group("faults")
def test_worker_killed_under_load_retries_with_the_same_key_apply_exactly_once(
    tmp_path: Path, server_starter: ServerStarter, record_property: Callable[[str, object], None]
) -> None:
    with LocalRedis(tmp_path / "redis") as redis_server:
        port = free_port()
        process = server_starter(redis_server.url, port, tmp_path / "server.log", args=("--workers", "2"))
        base = f"http://127.0.0.1:{port}"
        try:
            with players(base, 4) as (acknowledged, failures, cut):
                # until a kill cut a request in flight on the killed worker (five kills missed once: the requests
                # were elsewhere each time); each kill once gunicorn has both workers again, the older one
                for _ in range(15):
                    workers = both_workers(process.pid)
                    time.sleep(0.5)
                    os.kill(workers[0], signal.SIGKILL)
                    time.sleep(1.0)
                    if any(r.status == 0 for r in cut):
                        break
                time.sleep(1.0)
                until_acknowledged(acknowledged, ENOUGH_ACKNOWLEDGED)
            assert not failures, failures
            record_property("requests_cut", len(cut))
            assert any(r.status == 0 for r in cut), "no request was cut by the killed worker: the test missed its fault"
            assert check_acknowledged(base, acknowledged) > ENOUGH_ACKNOWLEDGED
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.mark.xdist_group("faults")
def test_the_redis_timeout_setting_is_honoured_with_the_limits_on(
    tmp_path: Path, server_starter: ServerStarter
) -> None:
    """Rule: with ``TIENLEN_REDIS_TIMEOUT=0.3`` every answer while Redis is paused is a 503 within ~0.8 s."""
    env = DEFAULT_LIMITS | {"TIENLEN_REDIS_TIMEOUT": "0.3"}
    with (
        LocalRedis(tmp_path / "redis") as redis_server,
        serving(redis_server, tmp_path, server_starter, env=env) as base,
    ):
        created = call("POST", f"{base}/v1/matches", {"seats": [{"name": n} for n in "AB"], "seed": 5})
        assert created.status == 201, created
        match_id, token = created.body["match_id"], created.body["tokens"][0]["token"]
        url = f"{base}/v1/matches/{match_id}"
        assert redis_server.pid is not None
        os.kill(redis_server.pid, signal.SIGSTOP)
        try:
            replies = {
                "health": call("GET", f"{base}/healthz"),
                "action": call("POST", f"{url}/actions", {"type": "pass"}, token=token),  # limited: counted first
                "create": call("POST", f"{base}/v1/matches", {"seats": [{"name": "A"}, {"open": True}]}),
                "match": call("GET", url),
                "view": call("GET", f"{url}/view", token=token),
            }
        finally:
            os.kill(redis_server.pid, signal.SIGCONT)
        for what, reply in replies.items():
            assert reply.status == 503 and reply.reason == "store_unavailable", (what, reply)
            assert reply.seconds < 0.8, f"{what} took {reply.seconds:.2f} s with a 0.3 s Redis timeout"
        assert replies["health"].seconds >= 0.25, "/healthz waited for Redis its 0.3 s, no more"
        assert call("GET", f"{base}/healthz").status == 200
