"""The example bot's command line and the end of a match's stream.

A refusal or an unreachable server is one line on standard error and exit status 1, never a
traceback; ``match_ended``, ``match_abandoned`` and ``match_cancelled`` each end a stream, and a
cancelled match ends the bot.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import MatchCancelled, main, play_match
from tienlen_client import FINAL_EVENTS, Client, EventStream

from tests.clients.proxies import running
from tests.clients.stub import Answer, Stream, StubServer
from tienlen.local_redis import free_port

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = ROOT / "clients" / "python"
BOT = [sys.executable, str(CLIENTS / "lowest_bot.py")]

pytestmark = pytest.mark.xdist_group("live_server")


def _run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*BOT, *args], capture_output=True, text=True, timeout=timeout)


def test_the_bot_joining_a_full_match_prints_the_reason_and_message_and_exits_1(live_server: str) -> None:
    client = Client(live_server)
    created = client.create_match([{"name": "Ann"}, {"open": True}], rules={"hands": 1})
    client.join(created["match_id"], "Bo")
    done = _run(live_server, created["match_id"], "--join", "Robo")
    assert done.returncode == 1
    assert done.stderr == "refused: 409 match_full: no seat of this match is open\n"
    assert done.stdout == ""


def test_the_bot_with_a_token_the_match_does_not_know_prints_the_refusal_and_exits_1(live_server: str) -> None:
    created = Client(live_server).create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}])
    done = _run(live_server, created["match_id"], "not-a-token")
    assert done.returncode == 1
    assert done.stderr.startswith("refused: 401 invalid_token: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_the_bot_prints_one_line_and_exits_1_when_the_server_cannot_be_reached() -> None:
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    started = time.monotonic()
    done = _run(url, "0123456789abcdef0123", "--join", "Robo")
    assert done.returncode == 1
    assert done.stderr.startswith(f"connection failed: no answer from {url} (POST /v1/matches/")
    assert "after 5 attempts" in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert 0.5 < time.monotonic() - started < 30, "retried with pauses, then gave up"


@pytest.mark.parametrize("url", ["ftp://127.0.0.1", "http://h/x?y=1"])
def test_a_base_url_the_client_cannot_use_is_a_usage_error(url: str) -> None:
    done = _run(url, "m", "t")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "error:" in done.stderr


def _wait_for_seat(client: Client, match_id: str, seat: int) -> None:
    deadline = time.monotonic() + 30
    while not client.match(match_id)["seats"][seat].get("name"):
        assert time.monotonic() < deadline, "the bot never joined"
        time.sleep(0.05)


@pytest.mark.parametrize("mode", [[], ["--long-poll"]], ids=["stream", "long-poll"])
def test_the_bot_stops_when_its_waiting_match_is_cancelled(live_server: str, mode: list[str]) -> None:
    client = Client(live_server)
    created = client.create_match([{"name": "Ann"}, {"open": True}, {"open": True}])
    match_id = created["match_id"]
    argv = [*BOT, live_server, match_id, "--join", "Robo", *mode]
    bot = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_seat(client, match_id, 1)
        time.sleep(0.3)  # let it start waiting for events
        client.seat(match_id, created["tokens"][0]["token"]).cancel()
        out, err = bot.communicate(timeout=30)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert (bot.returncode, err) == (0, "")
    assert out == f"match cancelled before it was dealt: {match_id}\n"


@pytest.mark.parametrize("long_poll", [False, True], ids=["stream", "long-poll"])
def test_play_match_raises_match_cancelled_for_a_cancelled_match(live_server: str, long_poll: bool) -> None:
    client = Client(live_server)
    created = client.create_match([{"name": "Ann"}, {"open": True}, {"open": True}])
    token = client.join(created["match_id"], "Bo")["token"]
    errors: list[BaseException] = []

    def run() -> None:
        try:
            play_match(Client(live_server).seat(created["match_id"], token), wait=10, long_poll=long_poll)
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    time.sleep(0.3)
    client.seat(created["match_id"], created["tokens"][0]["token"]).cancel()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert len(errors) == 1 and isinstance(errors[0], MatchCancelled), errors


# ---------------------------------------------------------------------------- the end of a stream


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    with running(server):
        yield server


ENDINGS = ["match_ended", "match_abandoned", "match_cancelled"]


def test_the_final_events_are_the_contracts_events_that_end_a_match() -> None:
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    types = set(contract["components"]["schemas"]["Event"]["discriminator"]["mapping"])
    assert set(ENDINGS) <= types and set(ENDINGS) == FINAL_EVENTS


@pytest.mark.parametrize("final", ENDINGS)
def test_a_stream_ends_at_once_after_each_final_event(stub: StubServer, final: str) -> None:
    events: list[dict[str, Any]] = [{"seq": 1, "type": "seat_joined"}, {"seq": 2, "type": final}]
    stub.script = [Stream(events, hold_s=10)]  # the connection stays open after the final event
    started = time.monotonic()
    stream = EventStream(stub.url, "m", read_timeout=20)
    assert list(stream) == events
    assert time.monotonic() - started < 3, "it did not wait for more after the final event"
    assert stream.ended and stream.connections == 1 and stream.last_type == final
    assert [r.path for r in stub.received] == ["/v1/matches/m/stream?after=0"]


def test_a_stream_answered_204_ends_without_an_event(stub: StubServer) -> None:
    stub.script = [Answer(204)]  # the server's answer for a finished match with nothing after ``after``
    stream = EventStream(stub.url, "m", after=40, sleep=lambda s: None)
    assert list(stream) == []
    assert stream.ended and stream.connections == 1 and stream.last_event_id == 40
    assert [r.path for r in stub.received] == ["/v1/matches/m/stream?after=40"]


def test_follow_on_a_real_server_ends_at_match_cancelled_and_at_match_abandoned(live_server: str) -> None:
    client = Client(live_server)
    waiting = client.create_match([{"name": "Ann"}, {"open": True}])
    got: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    stream = client.follow(waiting["match_id"])

    def follow() -> None:
        try:
            got.extend(stream)
        except BaseException as error:  # e.g. a 404 from asking for the cancelled match again
            errors.append(error)

    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    time.sleep(0.3)
    Client(live_server).seat(waiting["match_id"], waiting["tokens"][0]["token"]).cancel()
    follower.join(timeout=20)
    assert not follower.is_alive() and not errors, errors
    assert got[-1]["type"] == "match_cancelled" and stream.ended

    dealt = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], rules={"hands": 1}, seed=2)
    ann = client.seat(dealt["match_id"], dealt["tokens"][0]["token"])
    left = ann.leave()
    assert left["status"] == "finished" and left["winner"] is None
    events = list(client.follow(dealt["match_id"]))
    assert events[-1]["type"] == "match_abandoned"


def test_main_reports_an_abandoned_match_without_a_winner(stub: StubServer, capsys: pytest.CaptureFixture[str]) -> None:
    finished = {"status": "finished", "seat": 0, "turn": None, "last_seq": 9, "winner": None, "winners": []}
    finished["seats"] = [{"score": 0}, {"score": 0}]
    stub.script = [Answer(200, finished)]
    assert main([stub.url, "m", "tok"]) == 0
    assert capsys.readouterr().out == "match abandoned: no winner, scores [0, 0]\n"
