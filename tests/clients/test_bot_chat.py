"""The bot runner's chat hook: a policy's ``chat`` (or its module's ``on_chat``) hears the table's messages and
the match's end, and what it answers is said in the seats' room."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from tienlen_client import Client
from tienlen_client.bot.examples import Polite
from tienlen_client.bot.policy import Action, chat_hook, load_policy, lowest
from tienlen_client.bot.worker import MatchWorker
from tienlen_client.botkit import lowest_play
from tienlen_client.seat import Seat

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")


def test_a_policy_finds_its_chat_hook() -> None:
    """Rule: a class policy's hook is its instance's ``chat``; a function policy's is its module's ``on_chat``;
    a policy without one has none."""
    polite = load_policy("tienlen_client.bot.examples:Polite")()
    polite_hook = chat_hook(polite)
    assert polite_hook is not None and polite_hook({"type": "match_ended"}) == {"phrase": "good_game"}
    assert chat_hook(lowest) is None
    talker = load_policy("tests/clients/bot_policies.py:lowest_first")()
    hook = chat_hook(talker)
    assert hook is not None and hook({"type": "chat_said", "text": "ping"}) == "pong"


def test_the_bot_answers_at_the_table_and_says_good_game_at_the_end(live_server: str) -> None:
    """Rule: a bot whose policy has a chat hook answers a seat's greeting and says the `good_game` phrase at the
    end, in the seats' room, through the same API (a spectator's messages it hears too, but answers none)."""
    client = Client(live_server)
    bot = new_member(client)
    created = client.create_match([{"name": "Bot"}, {"name": "Human"}], seed=7, token=bot.token)
    match_id = created["match_id"]
    human = client.seat(match_id, next(t["token"] for t in created["tokens"] if t["seat"] == 1))
    stopping = threading.Event()
    worker = MatchWorker(live_server, bot.token, match_id, lambda: Polite().act, stopping, wait_s=2)
    worker.start()
    deadline = time.monotonic() + 60
    greeted = False
    while worker.is_alive() and time.monotonic() < deadline:
        view = human.view()
        if view["status"] == "finished":
            break
        if view["turn"] != 1:
            time.sleep(0.05)
            continue
        if not greeted and worker.seat is not None:  # the worker waits on the events: it hears what follows
            human.chat("hello there")
            greeted = True
            time.sleep(0.5)
        cards = lowest_play(view)
        human.act({"type": "play", "cards": cards} if cards else {"type": "pass"})
    worker.join(30)
    assert worker.outcome == "finished", worker.outcome
    said = [(m["from"]["seat"], m["text"], m["phrase"]) for m in client.chat_messages(match_id, bot.token)]
    assert (1, "hello there", None) in said
    assert (0, "Hello Human!", None) in said
    assert said[-1] == (0, "Good game", "good_game")
    assert worker.said == 2, said


class SlowListener:
    """Plays the lowest legal play, the first time only once let go; records every message it hears."""

    def __init__(self, thinking: threading.Event, go: threading.Event) -> None:
        self.thinking, self.go = thinking, go
        self.heard: list[str] = []

    def act(self, view: dict[str, Any]) -> Action:
        """Think (wait for the test) on the first turn, then the lowest legal play."""
        if not self.thinking.is_set():
            self.thinking.set()
            self.go.wait(20)
        return lowest(view)

    def chat(self, message: dict[str, Any]) -> None:
        """Record what it hears; say nothing."""
        if message["type"] == "chat_said":
            self.heard.append(str(message["text"]))


def test_the_bot_hears_what_was_said_while_it_was_acting(live_server: str) -> None:
    """Rule: a message said while the bot chooses its play (it is not waiting on the events then) still reaches
    its chat hook once, after its action."""
    client = Client(live_server)
    bot = new_member(client)
    created = client.create_match([{"name": "Bot"}, {"name": "Human"}], seed=7, token=bot.token)
    match_id = created["match_id"]
    human = client.seat(match_id, next(t["token"] for t in created["tokens"] if t["seat"] == 1))
    thinking, go = threading.Event(), threading.Event()
    listener = SlowListener(thinking, go)
    stopping = threading.Event()
    worker = MatchWorker(live_server, bot.token, match_id, lambda: listener.act, stopping, wait_s=2)
    worker.start()
    deadline = time.monotonic() + 60
    while not thinking.is_set():  # the human plays until the bot is on turn and thinking
        assert time.monotonic() < deadline and worker.is_alive()
        view = human.view()
        if view["turn"] == 1:
            cards = lowest_play(view)
            human.act({"type": "play", "cards": cards} if cards else {"type": "pass"})
        time.sleep(0.05)
    human.chat("said while you think")
    go.set()
    while worker.is_alive() and time.monotonic() < deadline:
        view = human.view()
        if view["status"] == "finished":
            break
        if view["turn"] == 1:
            cards = lowest_play(view)
            human.act({"type": "play", "cards": cards} if cards else {"type": "pass"})
        time.sleep(0.05)
    stopping.set()
    worker.join(30)
    assert listener.heard.count("said while you think") == 1, listener.heard


def test_the_bot_waits_quietly_past_messages_it_does_not_read(
    live_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: messages its account does not read (a spectator it blocks) do not wake the bot over and over: while it
    waits for its turn, its long polls go on after them (a few calls, not a busy loop), and it hears the next
    message it may read once."""
    client = Client(live_server)
    bot, troll = new_member(client), new_member(client)
    client.block(bot.token, troll.name)
    created = client.create_match([{"name": "Bot"}, {"name": "Human"}], seed=7, token=bot.token)
    match_id = created["match_id"]
    human = client.seat(match_id, next(t["token"] for t in created["tokens"] if t["seat"] == 1))
    polls: list[float] = []
    real_events = Seat.events

    def counted(seat: Seat, after: int = 0, wait: float = 0) -> dict[str, Any]:
        if wait:
            polls.append(wait)
        return real_events(seat, after, wait)

    monkeypatch.setattr(Seat, "events", counted)
    listener = SlowListener(threading.Event(), threading.Event())
    listener.thinking.set()  # no pause: it plays at once
    stopping = threading.Event()
    worker = MatchWorker(live_server, bot.token, match_id, lambda: listener.act, stopping, wait_s=2)
    worker.start()
    deadline = time.monotonic() + 30
    while human.view()["turn"] != 1 or not polls:  # the bot waits on its events: the human is on turn
        assert time.monotonic() < deadline and worker.is_alive()
        time.sleep(0.05)
    client.chat(match_id, troll.token, "unread noise", room="spectators")
    before = len(polls)
    time.sleep(1.5)
    quiet = len(polls) - before
    human.chat("read this")
    time.sleep(0.5)
    stopping.set()
    worker.interrupt()
    worker.join(30)
    assert quiet <= 2, f"{quiet} long polls in 1.5 s past a message the bot does not read"
    assert listener.heard == ["read this"], listener.heard
