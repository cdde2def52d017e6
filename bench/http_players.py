"""The remote players of ``bench/http.py``: keep-alive HTTP clients playing whole matches.

Every seat of a four-seat match is a remote client with its own token; the
seat on turn plays its lowest legal play, worked out from its own view with
the engine's ``view_legal_masks`` (or, with ``ask_legal``, read from
``GET .../legal``), and passes when it has none.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tienlen.botkit import view_legal_masks
from tienlen.engine import classify, format_mask, play_order

HOST = "127.0.0.1"
SEAT_NAMES = ("A", "B", "C", "D")
MAX_ACTIONS_PER_MATCH = 5000  # a safety bound: a stuck match is abandoned as an error
MAX_ERRORS = 1000  # stop early rather than spin on a broken server


class RequestFailed(Exception):
    """A request failed at the connection level or answered an unexpected status."""


@dataclass
class WorkerStats:
    """What one client thread measured."""

    action_latencies_s: list[float] = field(default_factory=list)
    requests: int = 0
    matches_finished: int = 0
    matches_started: int = 0
    errors: int = 0
    error_samples: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        """Count an error and keep the first few messages."""
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(message)


class Client:
    """One keep-alive HTTP/1.1 connection to the server, reopened after a failure."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        """Remember the address; connect lazily."""
        self.host = host
        self.port = port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: Any = None, token: str | None = None, expect: int = 200) -> Any:
        """Send a request and return the decoded JSON body.

        Raises:
            RequestFailed: on a connection error or a status other than ``expect``.
        """
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        headers = {"Accept": "application/json"}
        payload: bytes | None = None
        if body is not None:
            payload = json.dumps(body, separators=(",", ":")).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        try:
            self.conn.request(method, path, body=payload, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            raise RequestFailed(f"{method} {path}: {type(error).__name__}: {error}") from error
        if response.will_close:
            self.close()
        if response.status != expect:
            raise RequestFailed(f"{method} {path}: HTTP {response.status}: {data[:300]!r}")
        return json.loads(data) if data else None

    def close(self) -> None:
        """Close the connection (the next request opens a new one)."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def choose_from_view(view: dict[str, Any]) -> dict[str, Any]:
    """The lowest legal play worked out from the seat's own view, or a pass when it has none."""
    masks = view_legal_masks(view)
    if masks:
        lowest = min((c for c in map(classify, masks) if c is not None), key=play_order)
        return {"type": "play", "cards": format_mask(lowest.mask)}
    if view["table"] is None:
        raise RequestFailed(f"seat {view['seat']} leads but has no legal play")
    return {"type": "pass"}


def choose_by_asking(client: Client, match_id: str, token: str, stats: WorkerStats) -> dict[str, Any]:
    """The first (lowest) play of ``GET .../legal``, or a pass when it lists none."""
    legal = client.request("GET", f"/v1/matches/{match_id}/legal", token=token)
    stats.requests += 1
    if legal["plays"]:
        return {"type": "play", "cards": legal["plays"][0]["cards"]}
    if legal["can_pass"]:
        return {"type": "pass"}
    raise RequestFailed(f"match {match_id}: the seat on turn can neither play nor pass")


def play_match(client: Client, seed: int, deadline: float, stats: WorkerStats, ask_legal: bool) -> None:
    """Create a match and play it to the end (or until the deadline), every seat over HTTP.

    Each seat remembers its own cards from the last view it was sent (its own
    action's answer, or ``GET .../view`` once per hand when a new hand was
    dealt while others acted); the public part comes from the latest answer.
    """
    created = client.request(
        "POST",
        "/v1/matches",
        {"seats": [{"name": name} for name in SEAT_NAMES], "seed": seed},
        expect=201,
    )
    stats.requests += 1
    stats.matches_started += 1
    match_id: str = created["match_id"]
    tokens: dict[int, str] = {int(entry["seat"]): entry["token"] for entry in created["tokens"]}
    own: dict[int, dict[str, Any]] = {}  # seat -> its last view's hand_number, cards and start_card
    state: dict[str, Any] = created["match"]
    for _ in range(MAX_ACTIONS_PER_MATCH):
        if state.get("status") == "finished":
            stats.matches_finished += 1
            return
        if time.monotonic() >= deadline:
            return
        turn = state.get("turn")
        if turn is None:
            raise RequestFailed(f"match {match_id}: status {state.get('status')!r} but no seat on turn")
        token = tokens[int(turn)]
        if ask_legal:
            action = choose_by_asking(client, match_id, token, stats)
        else:
            if own.get(turn, {}).get("hand_number") != state["hand_number"]:
                own[turn] = client.request("GET", f"/v1/matches/{match_id}/view", token=token)
                stats.requests += 1
            mine = own[turn]
            action = choose_from_view(state | {"seat": turn, "cards": mine["cards"], "start_card": mine["start_card"]})
        started = time.perf_counter()
        state = client.request("POST", f"/v1/matches/{match_id}/actions", action, token=token)
        stats.action_latencies_s.append(time.perf_counter() - started)
        stats.requests += 1
        own[turn] = state
    raise RequestFailed(f"match {match_id}: not finished after {MAX_ACTIONS_PER_MATCH} actions")


def action_worker(
    seed: int, client: Client, ask_legal: bool, deadline: float, stats: WorkerStats, stop: threading.Event
) -> None:
    """Play matches back to back until the deadline."""
    while time.monotonic() < deadline and not stop.is_set():
        seed += 1
        try:
            play_match(client, seed, deadline, stats, ask_legal)
        except (RequestFailed, KeyError, TypeError, ValueError) as error:
            stats.error(str(error))
            if stats.errors >= MAX_ERRORS:
                stop.set()


def ceiling_worker(client: Client, deadline: float, stats: WorkerStats, stop: threading.Event) -> None:
    """GET /healthz back to back until the deadline."""
    while time.monotonic() < deadline and not stop.is_set():
        try:
            client.request("GET", "/healthz")
            stats.requests += 1
        except (RequestFailed, ValueError) as error:
            stats.error(str(error))
            if stats.errors >= MAX_ERRORS:
                stop.set()
