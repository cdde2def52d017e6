"""The spectator leak scan: every byte a spectator can receive over whole matches, scanned against the hands not yet
public at that moment.

Matches of several presets, with remote seats and bots, over a table of seeds, are played to the end. After every
write (a remote seat's action and the bots' replies) the scan reads what a spectator can read: the public match
(``GET /v1/matches/{id}``), the event pages (``GET .../events``), the bytes of an open stream (``GET .../stream``,
read as they come) and the live table (``GET /v1/live``). At that moment the secret cards are those in the seats'
hands (the server's record: bots' hands included). Rule held: no secret card appears anywhere, except in what a
hand that is over shows (its ``hand_shown`` event and the match's ``hands[].dealt``), and those only for hands that
are over; an event of a hand that is over is public whole. A planted leak (a ``hand_shown`` of the hand in play)
is caught.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator
from typing import Any, cast

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import auth
from tienlen.api.services import services_of
from tienlen.engine import Event, HandStarted, format_mask
from tienlen.events import HandShown
from tienlen.service import writer
from tienlen.service.shown import with_hands_shown
from tienlen.store.records import MatchRecord

CARD = re.compile(rb'"((?:10|[3-9JQKA2])[SCDH])"')
# (preset, rules, seats: "r" remote, or a bot level)
TABLES = [
    ("standard", {"preset": "standard", "hands": 2}, ["r", "easy", "r", "medium"]),
    ("classic", {"preset": "classic", "hands": 2}, ["r", "r", "easy"]),
    ("ladder", {"preset": "ladder"}, ["r", "easy"]),
    ("standard-2", {"preset": "standard", "hands": 3}, ["r", "r"]),
]
SEEDS = [1, 2, 3]


class Leak(AssertionError):
    """A secret card in a spectator's bytes."""


def secret_cards(record: MatchRecord) -> set[str]:
    """The cards in the seats' hands now (none once the match is over)."""
    engine = record.engine
    if engine is None or record.status != "playing":
        return set()
    return {card for hand in engine.hands for card in format_mask(hand)}


def scan_bytes(payload: bytes, secret: set[str], where: str) -> None:
    """Fail when a quoted card of ``secret`` is anywhere in ``payload``."""
    found = {m.decode() for m in CARD.findall(payload)} & secret
    if found:
        raise Leak(f"{where}: {sorted(found)} of hands in play")


def scan_events(events: list[dict[str, Any]], record: MatchRecord, secret: set[str], where: str) -> None:
    """Scan events in order: those of hands that are over are public; a hand_shown must be of a hand over."""
    engine = record.engine
    current = 0 if engine is None else engine.hand_number
    over = record.status == "finished"
    hand = 0
    for event in events:
        if event["type"] == "hand_started":
            hand = event["hand_number"]
        if event["type"] == "hand_shown":
            if not over and event["hand_number"] >= current:
                raise Leak(f"{where}: hand_shown of hand {event['hand_number']} while it is played")
            continue
        if not over and hand >= current:  # an event of the hand in play
            scan_bytes(json.dumps(event).encode(), secret, f"{where} {event['type']}")


def scan_state(state: dict[str, Any], record: MatchRecord, secret: set[str], where: str) -> None:
    """Scan the public match: a completed hand's deal is public, and only completed hands may have one."""
    engine = record.engine
    completed = 0 if engine is None else len(engine.completed)
    rest = dict(state)
    for hand in state["hands"]:
        if hand["hand_number"] > completed:
            raise Leak(f"{where}: the deal of hand {hand['hand_number']} before it is over")
    rest["hands"] = [{k: v for k, v in hand.items() if k != "dealt"} for hand in state["hands"]]
    scan_bytes(json.dumps(rest).encode(), secret, where)


class Spectator:
    """A spectator's stream, read as it comes: its events parsed from the SSE bytes, each frame kept raw too."""

    def __init__(self, client: FlaskClient, match_id: str) -> None:
        self.response = client.get(f"/v1/matches/{match_id}/stream", buffered=False)
        assert self.response.status_code == 200
        self._chunks: Iterator[bytes] = iter(cast(Iterable[bytes], self.response.response))
        self.last_seq = 0
        self.ended = False

    def read_through(self, seq: int) -> list[tuple[bytes, dict[str, Any]]]:
        """Every frame (raw, parsed) up to event ``seq``."""
        frames: list[tuple[bytes, dict[str, Any]]] = []
        while self.last_seq < seq and not self.ended:
            try:
                chunk = next(self._chunks)
            except StopIteration:
                self.ended = True
                break
            for frame in chunk.split(b"\n\n"):
                data = [line[6:] for line in frame.split(b"\n") if line.startswith(b"data: ")]
                if data:
                    event = json.loads(data[0])
                    frames.append((frame, event))
                    self.last_seq = event["seq"]
        return frames

    def close(self) -> None:
        self.response.close()


def scan_moment(
    client: FlaskClient, app: Flask, match_id: str, spectator: Spectator, seen: list[dict[str, Any]]
) -> None:
    """Everything a spectator can read now, scanned against the hands in play now."""
    record = services_of(app).game.core.get(match_id)
    secret = secret_cards(record)
    state = client.get(f"/v1/matches/{match_id}")
    scan_state(state.get_json(), record, secret, "GET match")
    page = client.get(f"/v1/matches/{match_id}/events", query_string={"after": 0, "watcher": "scan"}).get_json()
    scan_events(page["events"], record, secret, "GET events")
    frames = spectator.read_through(record.last_seq)
    seen.extend(event for _, event in frames)
    scan_events(seen, record, secret, "stream")
    for raw, event in frames:
        if event["type"] != "hand_shown" and not event_over(event, seen, record):
            scan_bytes(raw, secret, "stream bytes")
    live = client.get("/v1/live")
    assert not CARD.findall(live.get_data()), "the live table holds no card at all"


def event_over(event: dict[str, Any], seen: list[dict[str, Any]], record: MatchRecord) -> bool:
    """Whether the event belongs to a hand that is over (or the match is)."""
    if record.status == "finished" or record.engine is None:
        return True
    hand = 0
    for earlier in seen:
        if earlier["type"] == "hand_started":
            hand = earlier["hand_number"]
        if earlier is event:
            break
    return hand < record.engine.hand_number


def play_and_scan(client: FlaskClient, app: Flask, rules: dict[str, Any], seats: list[str], seed: int) -> int:
    """Play one match to its end, scanning after every write; how many moments were scanned."""
    rng = random.Random(seed)
    body = [{"name": f"P{i}"} if kind == "r" else {"name": f"B{i}", "bot": kind} for i, kind in enumerate(seats)]
    created = client.post("/v1/matches", json={"seats": body, "rules": rules, "seed": seed}).get_json()
    match_id = created["match_id"]
    tokens = {t["seat"]: t["token"] for t in created["tokens"]}
    spectator = Spectator(client, match_id)
    seen: list[dict[str, Any]] = []
    moments = 0
    try:
        while True:
            scan_moment(client, app, match_id, spectator, seen)
            moments += 1
            state = client.get(f"/v1/matches/{match_id}").get_json()
            if state["status"] != "playing":
                break
            seat = state["turn"]
            legal = client.get(f"/v1/matches/{match_id}/legal", headers=auth(tokens[seat])).get_json()
            options = [{"type": "play", "cards": p["cards"]} for p in legal["plays"]]
            if legal["can_pass"]:
                options.append({"type": "pass"})
            answer = client.post(
                f"/v1/matches/{match_id}/actions", json=rng.choice(options), headers=auth(tokens[seat])
            )
            assert answer.status_code == 200, answer.json
    finally:
        spectator.close()
    assert any(e["type"] == "hand_shown" for e in seen), "the scan saw the hands shown"
    return moments


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("name", "rules", "seats"), TABLES, ids=[t[0] for t in TABLES])
def test_no_byte_a_spectator_receives_shows_a_card_of_a_hand_in_play(
    app: Flask, client: FlaskClient, name: str, rules: dict[str, Any], seats: list[str], seed: int
) -> None:
    """Rule: over whole matches, no byte of the public match, the event pages, a spectator's stream or the live
    table holds a card of a hand in play; a hand's cards show only once it is over."""
    assert play_and_scan(client, app, rules, seats, seed) > 1, name


def test_the_scan_catches_a_planted_leak(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: the scan can fail: a server that shows each hand's cards as it is dealt is caught."""
    shown = with_hands_shown

    def leaky(record: MatchRecord, events: list[Event]) -> list[Event]:
        out = shown(record, events)
        engine = record.engine
        assert engine is not None
        if any(isinstance(e, HandStarted) for e in events):
            out.append(HandShown(engine.hand_number, tuple(engine.hands)))  # the hand in play
        return out

    monkeypatch.setattr(writer, "with_hands_shown", leaky)
    with pytest.raises(Leak):
        play_and_scan(client, app, {"preset": "standard", "hands": 2}, ["r", "easy"], 5)


@pytest.mark.parametrize(
    ("payload", "leaks"),
    [
        (b'{"cards":["3S","4C"]}', True),
        (b'{"cards":["10H"]}', True),
        (b'{"name":"3S player"}', False),
        (b'{"cards":["5D"]}', False),
    ],
)
def test_the_byte_scan_finds_a_quoted_secret_card(payload: bytes, leaks: bool) -> None:
    """Rule: a quoted card of the secret set anywhere in the bytes is a leak; other cards and text are not."""
    secret = {"3S", "10H", "2D"}
    if leaks:
        with pytest.raises(Leak):
            scan_bytes(payload, secret, "case")
    else:
        scan_bytes(payload, secret, "case")
