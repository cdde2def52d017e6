"""The remote players of ``bench/http_load.py``: keep-alive HTTP clients playing whole matches.

Every seat of a four-seat match is a remote client with its own token; the
seat on turn plays its lowest legal play, worked out from its own view with
``tienlen_client.botkit.lowest_play`` (or, with ``ask_legal``, read from
``GET .../legal``), and passes when it has none. The HTTP client is the
project's own (``clients/python/tienlen_client``); only the timing of the
actions is the benchmark's.
"""

from __future__ import annotations

import http.client
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The project's Python client lives in clients/python (not an installed package);
# appended, so it never shadows anything. mypy finds it through mypy_path.
sys.path.append(str(Path(__file__).resolve().parents[1] / "clients" / "python"))

from tienlen_client import ApiError, Client, Seat
from tienlen_client.botkit import lowest_play

__all__ = [
    "FAILURES",
    "HOST",
    "MAX_ACTIONS_PER_MATCH",
    "MAX_ERRORS",
    "Client",
    "MatchFailed",
    "RemoteMatch",
    "WorkerStats",
    "action_worker",
    "base_url",
    "ceiling_worker",
    "create_match",
    "play_match",
]

HOST = "127.0.0.1"
SEAT_NAMES = ("A", "B", "C", "D")
MAX_ACTIONS_PER_MATCH = 5000  # a safety bound: a stuck match is abandoned as an error
MAX_ERRORS = 1000  # stop early rather than spin on a broken server

FAILURES = (ApiError, OSError, http.client.HTTPException, KeyError, TypeError, ValueError)
"""What a worker counts as an error and goes on after: refusals, broken connections, odd answers."""


class MatchFailed(Exception):
    """A match went somewhere it cannot: no seat on turn, a seat that can neither play nor pass, no end."""


def base_url(port: int) -> str:
    """The server's URL on this machine."""
    return f"http://{HOST}:{port}"


@dataclass
class ErrorCount:
    """The errors a client thread met: how many, and the first few messages."""

    errors: int = 0
    error_samples: list[str] = field(default_factory=list)

    def error(self, error: BaseException) -> None:
        """Count an error and keep the first few messages."""
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(f"{type(error).__name__}: {error}")


@dataclass
class WorkerStats(ErrorCount):
    """What one client thread measured."""

    action_latencies_s: list[float] = field(default_factory=list)
    requests: int = 0
    matches_finished: int = 0
    matches_started: int = 0


def choose_from_view(view: dict[str, Any]) -> list[str] | None:
    """The lowest legal play worked out from the seat's own view, or None (a pass) when it has none."""
    cards = lowest_play(view)
    if cards is None and view["table"] is None:
        raise MatchFailed(f"seat {view['seat']} leads but has no legal play")
    return cards


def choose_by_asking(seat: Seat, stats: WorkerStats) -> list[str] | None:
    """The first (lowest) play of ``GET .../legal``, or None (a pass) when it lists none."""
    legal = seat.legal()
    stats.requests += 1
    if legal["plays"]:
        return list(legal["plays"][0]["cards"])
    if legal["can_pass"]:
        return None
    raise MatchFailed(f"match {seat.match_id}: the seat on turn can neither play nor pass")


class RemoteMatch:
    """A four-seat match whose every seat is a remote client; :meth:`act` plays the seat on turn.

    Each seat remembers its own cards from the last view it was sent (its own
    action's answer, or ``GET .../view`` once per hand when a new hand was
    dealt while others acted); the public part comes from the latest answer.
    """

    def __init__(self, client: Client, created: dict[str, Any], stats: WorkerStats, ask_legal: bool) -> None:
        """Take over the match of a ``POST /v1/matches`` answer."""
        self.client = client
        self.match_id: str = created["match_id"]
        self.seats = {int(entry["seat"]): client.seat(self.match_id, entry["token"]) for entry in created["tokens"]}
        self.state: dict[str, Any] = created["match"]
        self.stats = stats
        self.ask_legal = ask_legal
        self.actions = 0
        self._own: dict[int, dict[str, Any]] = {}  # seat -> its last view's hand_number, cards and start_card

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return bool(self.state.get("status") == "finished")

    def act(self) -> tuple[float, float]:
        """Play the seat on turn's lowest play (or pass); answer when the POST was sent and answered (monotonic)."""
        state = self.state
        turn = state.get("turn")
        if turn is None:
            raise MatchFailed(f"match {self.match_id}: status {state.get('status')!r} but no seat on turn")
        seat = self.seats[int(turn)]
        if self.ask_legal:
            cards = choose_by_asking(seat, self.stats)
        else:
            if self._own.get(turn, {}).get("hand_number") != state["hand_number"]:
                self._own[turn] = seat.view()
                self.stats.requests += 1
            mine = self._own[turn]
            cards = choose_from_view(state | {"seat": turn, "cards": mine["cards"], "start_card": mine["start_card"]})
        sent = time.monotonic()
        started = time.perf_counter()
        self.state = seat.pass_turn() if cards is None else seat.play(cards)
        self.stats.action_latencies_s.append(time.perf_counter() - started)
        answered = time.monotonic()
        self.stats.requests += 1
        self.actions += 1
        self._own[turn] = self.state
        return sent, answered


def create_match(
    client: Client, seed: int, stats: WorkerStats, ask_legal: bool, rules: dict[str, Any] | None = None
) -> RemoteMatch:
    """``POST /v1/matches`` with four remote seats, ready to be played."""
    created = client.create_match([{"name": name} for name in SEAT_NAMES], rules=rules, seed=seed)
    stats.requests += 1
    stats.matches_started += 1
    return RemoteMatch(client, created, stats, ask_legal)


def play_match(client: Client, seed: int, deadline: float, stats: WorkerStats, ask_legal: bool) -> None:
    """Create a match and play it to the end (or until the deadline), every seat over HTTP (:class:`RemoteMatch`)."""
    match = create_match(client, seed, stats, ask_legal)
    for _ in range(MAX_ACTIONS_PER_MATCH):
        if match.finished:
            stats.matches_finished += 1
            return
        if time.monotonic() >= deadline:
            return
        match.act()
    raise MatchFailed(f"match {match.match_id}: not finished after {MAX_ACTIONS_PER_MATCH} actions")


def action_worker(
    seed: int, client: Client, ask_legal: bool, deadline: float, stats: WorkerStats, stop: threading.Event
) -> None:
    """Play matches back to back until the deadline."""
    while time.monotonic() < deadline and not stop.is_set():
        seed += 1
        try:
            play_match(client, seed, deadline, stats, ask_legal)
        except (MatchFailed, *FAILURES) as error:
            stats.error(error)
            if stats.errors >= MAX_ERRORS:
                stop.set()


def ceiling_worker(client: Client, deadline: float, stats: WorkerStats, stop: threading.Event) -> None:
    """GET /healthz back to back until the deadline."""
    while time.monotonic() < deadline and not stop.is_set():
        try:
            client.health()
            stats.requests += 1
        except FAILURES as error:
            stats.error(error)
            if stats.errors >= MAX_ERRORS:
                stop.set()
