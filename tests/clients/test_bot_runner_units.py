"""``tienlen-bot``'s parts without a server: its back-off, its command line, loading a policy, the shape of an
action, and its inbox reader falling back to the long poll when the stream keeps failing (against a scripted stub)."""

from __future__ import annotations

import queue
import random
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client.bot import Backoff, Config, PolicyError, load_policy, parse_config
from tienlen_client.bot.config import parse_accept
from tienlen_client.bot.policy import is_action
from tienlen_client.bot.reader import Heard, InboxReader, Refused

from tests.clients.stub import Answer, Slow, StubServer, refusal

POLICIES = Path(__file__).resolve().parent / "bot_policies.py"

# ---------------------------------------------------------------------------------------------- back-off


@pytest.mark.parametrize(
    ("first", "cap", "failures", "ceiling"),
    [(0.5, 30, 1, 0.5), (0.5, 30, 2, 1.0), (0.5, 30, 4, 4.0), (0.5, 30, 7, 30.0), (0.5, 30, 1000, 30.0), (1, 1, 3, 1)],
)
def test_the_back_off_doubles_with_each_failure_up_to_its_cap(
    first: float, cap: float, failures: int, ceiling: float
) -> None:
    """Rule: capped exponential back-off: the n-th failure in a row waits at most min(cap, first * 2^(n-1))."""
    assert Backoff(first, cap).ceiling(failures) == ceiling


@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=40))
def test_each_pause_is_jittered_between_half_and_all_of_its_ceiling(seed: int, failures: int) -> None:
    """Rule: jitter: every pause lies in [ceiling/2, ceiling], so bots that failed together come back apart."""
    backoff = Backoff(0.5, 30.0, rng=random.Random(seed))
    for n in range(1, failures + 1):
        pause = backoff.next_pause()
        assert backoff.ceiling(n) / 2 <= pause <= backoff.ceiling(n)
    assert backoff.failures == failures


def test_a_success_starts_the_back_off_again_from_its_first_pause() -> None:
    backoff = Backoff(0.5, 30.0, rng=random.Random(1))
    for _ in range(6):
        backoff.next_pause()
    backoff.reset()
    assert backoff.next_pause() <= 0.5 and backoff.failures == 1


@pytest.mark.parametrize(("first", "cap"), [(0, 1), (-1, 5), (2, 1)])
def test_a_back_off_without_a_positive_first_pause_under_its_cap_is_refused(first: float, cap: float) -> None:
    with pytest.raises(ValueError):
        Backoff(first, cap)


# ---------------------------------------------------------------------------------------------- the command line


def test_the_console_script_tienlen_bot_is_the_runners_main() -> None:
    """Rule: pyproject.toml installs `tienlen-bot` as tienlen_client.bot:main (what `python -m tienlen_client.bot`
    runs too)."""
    import importlib
    import tomllib

    import tienlen_client.bot

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    scripts = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = scripts["tienlen-bot"].partition(":")
    assert getattr(importlib.import_module(module), name) is tienlen_client.bot.main


BASE = ["--policy", "mybot:policy"]


@pytest.mark.parametrize(
    ("argv", "environ", "expected"),
    [
        (BASE, {"TIENLEN_TOKEN": "T"}, Config("http://127.0.0.1:8000", "T", "mybot:policy")),
        ([*BASE, "--token", "A", "--url", "https://x.example/t"], {"TIENLEN_TOKEN": "T"},
         Config("https://x.example/t", "A", "mybot:policy")),
        (BASE, {"TIENLEN_TOKEN": "T", "TIENLEN_URL": "http://h:1"}, Config("http://h:1", "T", "mybot:policy")),
        ([*BASE, "--accept", "none"], {"TIENLEN_TOKEN": "T"},
         Config("http://127.0.0.1:8000", "T", "mybot:policy", accept=frozenset())),
        ([*BASE, "--accept", "Casual", "--queue", "4", "--casual", "--preset", "ladder", "--max-matches", "3",
          "--log-level", "debug"], {"TIENLEN_TOKEN": "T"},
         Config("http://127.0.0.1:8000", "T", "mybot:policy", frozenset({"casual"}), 4, True, "ladder", 3, "DEBUG")),
        (["--policy", "bots/my_bot.py:Player"], {"TIENLEN_TOKEN": "T"},
         Config("http://127.0.0.1:8000", "T", "bots/my_bot.py:Player")),
    ],
)  # fmt: skip
def test_the_command_line_is_read_into_a_config(argv: list[str], environ: dict[str, str], expected: Config) -> None:
    """Rule: the token comes from --token, else TIENLEN_TOKEN; the URL from --url, else TIENLEN_URL, else
    http://127.0.0.1:8000; the other options as given, their defaults otherwise (accept rated and casual, no
    queue, run forever, INFO)."""
    assert parse_config(argv, environ) == expected


@pytest.mark.parametrize(
    ("argv", "environ", "complaint"),
    [
        (BASE, {}, "give a token"),
        (["--token", "T"], {}, "--policy"),
        (["--token", "T", "--policy", "mybot"], {}, "MODULE:NAME"),
        (["--token", "T", "--policy", "mybot:"], {}, "MODULE:NAME"),
        ([*BASE, "--accept", "blitz"], {"TIENLEN_TOKEN": "T"}, "rated, casual"),
        ([*BASE, "--accept", "rated,none"], {"TIENLEN_TOKEN": "T"}, "rated, casual"),
        ([*BASE, "--queue", "5"], {"TIENLEN_TOKEN": "T"}, "2 to 4"),
        ([*BASE, "--queue", "four"], {"TIENLEN_TOKEN": "T"}, "2 to 4"),
        ([*BASE, "--max-matches", "0"], {"TIENLEN_TOKEN": "T"}, "at least 1"),
        ([*BASE, "--casual"], {"TIENLEN_TOKEN": "T"}, "options of --queue"),
        ([*BASE, "--log-level", "loud"], {"TIENLEN_TOKEN": "T"}, "invalid choice"),
    ],
)
def test_a_bad_command_line_exits_2_with_a_message(
    argv: list[str], environ: dict[str, str], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_config(argv, environ)
    assert exited.value.code == 2
    assert complaint in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "kinds"),
    [("rated,casual", {"rated", "casual"}), ("casual, rated", {"rated", "casual"}), ("RATED", {"rated"}),
     ("none", set()), ("casual", {"casual"})],
)  # fmt: skip
def test_accept_names_the_kinds_of_challenge_taken(text: str, kinds: set[str]) -> None:
    assert parse_accept(text) == kinds
    assert Config("u", "t", "p", accept=frozenset(kinds)).accepts(rated=True) is ("rated" in kinds)


# ---------------------------------------------------------------------------------------------- policies


class Counter:
    """A policy class: a new instance for each match, counting its own turns."""

    def __init__(self) -> None:
        self.turns = 0

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        self.turns += 1
        return {"type": "pass", "turns": self.turns}


def test_a_policy_function_is_used_as_it_is_and_a_class_is_made_once_per_match() -> None:
    """Rule: --policy names a function policy(view) (the same one for every match) or a class whose act(view)
    plays: one new instance per match, so it may keep what it learns during that match."""
    function = load_policy("tienlen_client.bot.policy:lowest")
    assert function() is function()
    made = load_policy(f"{__name__}:Counter")
    one, two = made(), made()
    assert [one({}), one({}), two({})] == [{"type": "pass", "turns": n} for n in (1, 2, 1)]


def test_a_policy_is_loaded_from_a_file_path_too() -> None:
    policy = load_policy(f"{POLICIES}:lowest_first")()
    assert policy.__name__ == "lowest_first"


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ("no_such_module_here:policy", "no module"),
        ("tienlen_client.bot.policy:nothing", "has no"),
        ("tienlen_client.bot.policy:__doc__", "neither a function nor a class"),
        (f"{__name__}:Config", r"no act\(view\)"),
        ("/no/such/file.py:policy", "no file"),
        ("policy", "MODULE:NAME"),
    ],
)
def test_a_policy_that_cannot_be_loaded_is_refused_with_a_reason(spec: str, complaint: str) -> None:
    with pytest.raises(PolicyError, match=complaint):
        load_policy(spec)


@pytest.mark.parametrize(
    ("value", "shaped"),
    [({"type": "pass"}, True), ({"type": "play", "cards": ["3S"]}, True), ({"type": "play", "cards": []}, True),
     ({"type": "play"}, False), ({"type": "play", "cards": "3S"}, False), ({"type": "play", "cards": [3]}, False),
     (["3S"], False), (None, False), ({"type": "fold"}, False)],
)  # fmt: skip
def test_only_an_action_shaped_answer_is_sent_as_the_policys_action(value: Any, shaped: bool) -> None:
    """Rule: a policy's answer is sent only when it has an action's shape; otherwise the lowest legal play is made
    (the server still judges the cards)."""
    assert is_action(value) is shaped


# ---------------------------------------------------------------------------------------------- the inbox reader


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def event(seq: int) -> dict[str, Any]:
    """An inbox event."""
    return {"seq": seq, "type": "your_turn", "at": "2026-01-01T00:00:00Z", "match_id": "m", "seat": 0, "version": 3}


def page(*seqs: int, last: int) -> Answer:
    return Answer(200, {"events": [event(s) for s in seqs], "last_seq": last})


def notes_of(notes: queue.Queue[Any], count: int, timeout: float = 10.0) -> list[Any]:
    found: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(found) < count:
        found.append(notes.get(timeout=max(0.01, deadline - time.monotonic())))
    return found


def test_the_reader_reads_the_backlog_then_long_polls_when_the_stream_keeps_failing(stub: StubServer) -> None:
    """Rule: the bot reads what its inbox holds, then follows the stream; when the stream fails while the long poll
    answers (a proxy that does not pass it, say), twice in a row, it long-polls from the last seq it saw; nothing is
    missed or repeated, and every request carries the token."""
    stub.script = [
        page(1, last=1),  # the backlog, page after page
        page(last=1),
        refusal(404, "not_found"),  # the stream, refused
        page(2, last=2),  # the long poll answers: the stream is what fails
        refusal(404, "not_found"),
        page(last=2),  # twice: long poll from now on
        page(3, last=3),
        Slow(20, page(last=3)),
    ]
    notes: queue.Queue[Any] = queue.Queue()
    stopping = threading.Event()
    reader = InboxReader(stub.url, "T", notes, stopping)
    reader.start()
    try:
        heard = notes_of(notes, 3)
    finally:
        stopping.set()
        reader.close()
        reader.join(5)
    assert not reader.is_alive()
    assert [(type(n), [e["seq"] for e in n.events], n.backlog) for n in heard] == [
        (Heard, [1], True),
        (Heard, [2], False),
        (Heard, [3], False),
    ]
    assert reader.mode == "long_poll" and reader.after == 3
    paths = [r.path for r in stub.received]
    assert paths[:7] == [
        "/v1/me/events?after=0&wait=0",
        "/v1/me/events?after=1&wait=0",
        "/v1/me/events/stream?after=1",
        "/v1/me/events?after=1&wait=0",
        "/v1/me/events/stream?after=2",
        "/v1/me/events?after=2&wait=0",
        "/v1/me/events?after=2&wait=25.0",
    ]
    assert {r.headers["authorization"] for r in stub.received} == {"Bearer T"}


@pytest.mark.parametrize(("status", "reason"), [(401, "invalid_token"), (403, "scope_missing")])
def test_a_refused_token_stops_the_reader_with_a_note(stub: StubServer, status: int, reason: str) -> None:
    """Rule: a token the server refuses cannot get better by retrying: the reader stops and says why."""
    stub.script = [refusal(status, reason)]
    notes: queue.Queue[Any] = queue.Queue()
    reader = InboxReader(stub.url, "T", notes, threading.Event())
    reader.start()
    reader.join(5)
    (note,) = notes_of(notes, 1)
    assert isinstance(note, Refused) and reason in note.why
