"""``tienlen-bot`` (tienlen_client.bot) against real server processes: it plays every match its account is seated in,
unattended, with the policy it was given; accepts or declines challenges as configured; keeps a quick-play ticket
open; survives a server restart; and a policy that raises or plays illegal cards costs a turn, never the bot."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import play_match
from tienlen_client import Client
from tienlen_client.bot import Config, Runner
from tienlen_client.bot.policy import PolicyFactory, fallback_action, load_policy, lowest

from tests.clients.people import Member, new_member
from tests.support.servers import ServerStarter, stop_server
from tienlen.local_redis import LocalRedis, free_port

pytestmark = pytest.mark.xdist_group("live_server")

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"


def wait_until(check: Callable[[], Any], timeout: float = 30.0, what: str = "the condition") -> Any:
    """Ask ``check`` until it answers something true; that answer (fails the test after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def running(url: str, member: Member, policy: PolicyFactory = lambda: lowest, **options: Any) -> Iterator[Runner]:
    """A runner for ``member`` in a thread of its own, online (listed by GET /v1/bots) before the body runs;
    stopped at the end, which must take less than 10 s."""
    runner = Runner(Config(url=url, token=member.token, policy="test", **options), policy, wait_s=5)
    status: list[int] = []
    thread = threading.Thread(target=lambda: status.append(runner.run()), name="runner", daemon=True)
    thread.start()
    client = Client(url)
    wait_until(lambda: member.name in [b["name"] for b in client.bots()], what="the bot to be online")
    try:
        yield runner
    finally:
        runner.stop()
        thread.join(10)
        assert not thread.is_alive(), "the runner stopped"
    assert status == [0]


def finished_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The runner's INFO lines about finished matches."""
    return [r.getMessage() for r in caplog.records if r.name == "tienlen_bot" and " finished: " in r.getMessage()]


def house_match(client: Client, member: Member) -> str:
    """A one-hand match of ``member`` against an Easy house bot, dealt at once; its id."""
    made = client.challenge(member.token, ["easy"], 2, preset="ladder")
    return str(made["match_id"])


# ---------------------------------------------------------------------------------------------- bad policies


class Clumsy:
    """A policy class (one per match) that raises, answers nonsense, then plays cards it does not hold, then plays
    well: each of its mistakes costs it that turn's choice, never the match."""

    made = 0

    def __init__(self) -> None:
        Clumsy.made += 1
        self.turns = 0

    def act(self, view: dict[str, Any]) -> Any:
        self.turns += 1
        if self.turns == 1:
            raise RuntimeError("a bug in the policy")
        if self.turns == 2:
            return "not an action"
        if self.turns == 3:
            missing = next(card for card in ("2H", "2D", "2C", "2S", "AH") if card not in view["cards"])
            return {"type": "play", "cards": [missing]}
        return lowest(view)


def test_a_policy_that_raises_or_plays_illegal_cards_does_not_stop_the_runner(
    live_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: never crash on one bad match: a policy exception, a non-action or a refused action is logged and the
    lowest legal play is made instead; the match is played to its end, and so is the next one, with a new
    instance of the policy class for each; one INFO line per finished match."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    client = Client(live_server)
    member = new_member(client)
    Clumsy.made = 0
    with running(live_server, member, load_policy(f"{__name__}:Clumsy")) as runner:
        first = house_match(client, member)
        wait_until(lambda: runner.finished >= 1, what="the first match to be played")
        second = house_match(client, member)
        wait_until(lambda: runner.finished >= 2, what="the second match to be played")
    for match_id in (first, second):
        assert client.match(match_id)["status"] == "finished"
    assert Clumsy.made == 2 and runner.fallbacks >= 6  # three mistakes a match
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("the policy raised" in w for w in warnings)
    assert any("not an action" in w for w in warnings)
    assert any("was refused" in w for w in warnings)
    lines = finished_lines(caplog)
    assert len(lines) == 2 and {line.split()[1] for line in lines} == {first, second}
    assert all(", casual" in line and f"{member.name}*" in line for line in lines)


def test_a_match_whose_worker_failed_is_played_again_after_a_pause(
    live_server: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: a worker that fails (here its fallback too, once) is logged and its match played again by a new one
    after a pause: no your_turn would come to start it while the bot's seat is on turn."""
    from tienlen_client.bot import runner as runner_module
    from tienlen_client.bot import worker as worker_module

    caplog.set_level(logging.INFO, logger="tienlen_bot")
    monkeypatch.setattr(runner_module, "RESTART_PAUSE_S", 0.2)
    calls: list[int] = []

    def fallback_once_broken(seat: Any, view: dict[str, Any]) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the fallback failed too")
        return fallback_action(seat, view)

    monkeypatch.setattr(worker_module, "fallback_action", fallback_once_broken)

    def raises(view: dict[str, Any]) -> Any:
        raise RuntimeError("a bug in the policy")

    client = Client(live_server)
    member = new_member(client)
    with running(live_server, member, lambda: raises) as runner:
        match_id = house_match(client, member)
        wait_until(lambda: runner.finished >= 1, what="the match to be played by a second worker")
    assert client.match(match_id)["status"] == "finished"
    messages = [r.getMessage() for r in caplog.records]
    assert any("the worker failed" in m for m in messages)
    assert any("playing it again after its worker failed" in m for m in messages)


def test_a_policy_function_plays_a_match_it_was_seated_in_before_the_runner_started(
    live_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: the runner resumes from its inbox: a match that started while it was away is played when it starts."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    client = Client(live_server)
    member = new_member(client)
    match_id = house_match(client, member)
    with running(live_server, member) as runner:
        wait_until(lambda: runner.finished >= 1, what="the match to be played")
    assert client.match(match_id)["status"] == "finished"
    assert [line.split()[1] for line in finished_lines(caplog)] == [match_id]


def test_the_trained_example_policy_plays_online_unchanged_through_the_runner(
    live_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: a policy saved by train_easy.py plays through tienlen-bot as `train_easy:policy`
    (TIENLEN_POLICY_FILE names the file): every action it chooses is legal, so none is replaced."""
    from train_easy import POLICY_VARIABLE, LinearPolicy

    caplog.set_level(logging.INFO, logger="tienlen_bot")
    saved = tmp_path / "policy.npz"
    LinearPolicy.zeros().save(saved)  # untrained: uniform over the allowed actions, which is what is checked
    monkeypatch.setenv(POLICY_VARIABLE, str(saved))
    client = Client(live_server)
    member = new_member(client)
    with running(live_server, member, load_policy("train_easy:policy")) as runner:
        match_id = house_match(client, member)
        wait_until(lambda: runner.finished >= 1, what="the match to be played")
    assert runner.fallbacks == 0
    assert client.match(match_id)["status"] == "finished"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("token", ["not a token", "account scope only"])
def test_a_token_the_server_refuses_stops_the_runner_with_status_1(
    live_server: str, token: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: retrying cannot mend a refused token (401 invalid_token, 403 scope_missing): the runner says so
    and stops with exit status 1 instead of reconnecting for ever."""
    client = Client(live_server)
    if token == "account scope only":
        token = new_member(client, scopes=["account"]).token
    runner = Runner(Config(url=live_server, token=token, policy="test"), lambda: lowest)
    assert runner.run() == 1
    assert any("refused the token" in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)


# ---------------------------------------------------------------------------------------------- challenges


def test_the_runner_declines_what_it_does_not_take_accepts_the_rest_and_plays_it(
    live_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: --accept casual declines a rated challenge and accepts a casual one from another account, then plays
    its seat to the end while the challenger plays the other."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    client = Client(live_server)
    member = new_member(client)
    rival = new_member(client, kind="human")
    with running(live_server, member, accept=frozenset({"casual"})) as runner:
        rated = client.challenge(rival.token, [member.name], 2, rated=True)["challenge_id"]
        wait_until(lambda: client.challenge_status(rival.token, rated)["status"] == "declined", what="a decline")
        casual = client.challenge(rival.token, [member.name], 2, preset="ladder")["challenge_id"]
        started = wait_until(
            lambda: (c := client.challenge_status(rival.token, casual))["status"] == "started" and c,
            what="the casual challenge to start",
        )
        assert started["match_id"] is not None
        final = play_match(client.seat(started["match_id"], rival.token))
        assert final["status"] == "finished"
        wait_until(lambda: runner.finished >= 1, what="the runner to see the end")
    assert [line.split()[1] for line in finished_lines(caplog)] == [started["match_id"]]


# ---------------------------------------------------------------------------------------------- quick play


def test_the_runner_plays_three_queued_matches_then_stops(
    redis_server: LocalRedis, server_starter: ServerStarter, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: --queue 4 --max-matches 3 keeps one ticket open while not playing, plays the three tables it is
    matched to (filled with house bots at once: TIENLEN_QUEUE_FILL_S=0), logs each with its rating change, and
    stops by itself."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = server_starter(redis_server.url, port, tmp_path / "server.log", env={"TIENLEN_QUEUE_FILL_S": "0"})
    try:
        member = new_member(Client(url))
        runner = Runner(Config(url=url, token=member.token, policy="test", queue_players=4, max_matches=3,
                               preset="ladder"), lambda: lowest, wait_s=5)  # fmt: skip
        done: list[int] = []
        thread = threading.Thread(target=lambda: done.append(runner.run()), daemon=True)
        thread.start()
        thread.join(60)
        assert done == [0], "the runner stopped by itself after three matches"
    finally:
        stop_server(server)
    lines = finished_lines(caplog)
    assert len(lines) == 3 and all("rating " in line and "→" in line for line in lines), lines


@pytest.mark.parametrize("taken_before", [False, True])
def test_the_runner_keeps_one_ticket_and_leaves_the_queue_when_it_stops(live_server: str, taken_before: bool) -> None:
    """Rule: the runner holds one ticket: its own, or the one the account held when it started (409
    already_queued, then GET /v1/queue names it); a clean shutdown gives it up (DELETE /v1/queue/{ticket}), so the
    bot is not seated at a table it will not play."""
    client = Client(live_server)
    member = new_member(client)
    before = client.enqueue(member.token, 3, "ladder")["ticket"] if taken_before else None
    with running(live_server, member, queue_players=3, preset="ladder") as runner:  # alone: it waits for the fill
        ticket = wait_until(lambda: runner.ticket, what="the ticket")
        assert client.ticket(member.token, ticket)["status"] == "waiting"
    assert ticket == before or before is None
    assert client.ticket(member.token, ticket)["status"] == "left"


# ---------------------------------------------------------------------------------------------- restarts


def test_the_runner_survives_a_server_restart_and_plays_the_next_match(
    redis_server: LocalRedis, server_starter: ServerStarter, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Rule: when the server goes away and comes back (same Redis, same address), the runner reconnects to its
    inbox from the last seq it saw (back-off with jitter meanwhile), its worker finishes the match it was playing
    (its action sent to the new server), and it plays the next match it is seated in; each match logged once."""
    caplog.set_level(logging.INFO, logger="tienlen_bot")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = tmp_path / "server.log"
    server = server_starter(redis_server.url, port, log)
    thinking = threading.Event()
    restarted = threading.Event()

    def slow_at_first(view: dict[str, Any]) -> Any:
        thinking.set()
        restarted.wait(30)  # the first turn is decided across the restart
        return lowest(view)

    try:
        client = Client(url)
        member = new_member(client)
        with running(url, member, lambda: slow_at_first) as runner:
            first = house_match(client, member)
            wait_until(thinking.is_set, what="the first turn")
            stop_server(server)
            time.sleep(0.5)
            server = server_starter(redis_server.url, port, log)
            restarted.set()
            wait_until(lambda: runner.finished >= 1, timeout=30, what="the match across the restart to end")
            second = house_match(Client(url), member)
            wait_until(lambda: runner.finished >= 2, timeout=30, what="the match after the restart to be played")
            seen = runner.reader.after
        assert runner.reader.connections >= 2  # the stream was opened again, after the seq it had seen
    finally:
        stop_server(server)
    assert seen >= 6  # match_started, your_turn..., match_finished twice, every one heard once
    assert [line.split()[1] for line in finished_lines(caplog)] == [first, second]


# ---------------------------------------------------------------------------------------------- the console script


def test_the_console_script_plays_until_max_matches_and_stops_cleanly_on_sigterm(live_server: str) -> None:
    """Rule: `python -m tienlen_client.bot` (the `tienlen-bot` script) takes the token from TIENLEN_TOKEN and a
    policy from a file (path.py:name): with --max-matches 1 it exits 0 after one finished match, logging one line
    for it; without, SIGTERM stops it with status 0 and it is no longer reading its inbox."""
    client = Client(live_server)
    member = new_member(client)
    policy = CLIENTS.parent.parent / "tests" / "clients" / "bot_policies.py"
    env = {**os.environ, "TIENLEN_TOKEN": member.token, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-m", "tienlen_client.bot", "--url", live_server, "--policy", f"{policy}:lowest_first"]
    bot = subprocess.Popen([*command, "--max-matches", "1"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        wait_until(lambda: member.name in [b["name"] for b in client.bots()], what="the bot to be online")
        match_id = house_match(client, member)
        _, err = bot.communicate(timeout=60)
    finally:
        bot.kill()
    assert bot.returncode == 0, err[-2000:]
    lines = [line for line in err.splitlines() if " finished: " in line]
    assert len(lines) == 1 and f"match {match_id} finished: seat 0 of 2" in lines[0] and "INFO" in lines[0]
    bot = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert bot.stderr is not None
        first = bot.stderr.readline()  # written once its signal handlers are set
        assert "tienlen-bot on " in first, first
        time.sleep(0.5)  # reading its inbox by now
        bot.send_signal(signal.SIGTERM)
        _, err = bot.communicate(timeout=10)
    finally:
        bot.kill()
    assert bot.returncode == 0 and err.rstrip().endswith("stopped"), err[-2000:]
