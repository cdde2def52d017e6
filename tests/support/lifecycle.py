"""Helpers of the match-lifecycle tests: playing a match out, reading its events, a hand-moved service clock."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from tienlen_client.botkit import lowest_play

from tests.support.api import Api, json_object
from tienlen.api.services import services_of
from tienlen.service import MatchServices


def lowest(view: dict[str, Any]) -> dict[str, Any]:
    """The body of the seat's lowest legal play, or a pass."""
    cards = lowest_play(view)
    return {"type": "pass"} if cards is None else {"type": "play", "cards": cards}


def play_turn(api: Api, match_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The seat on turn plays its lowest play; the answer."""
    seat = api.public(match_id)["turn"]
    answer = api.act(match_id, tokens[seat], lowest(api.view(match_id, tokens[seat])))
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def play_out(api: Api, match_id: str, tokens: dict[int, str]) -> None:
    """Every remote seat plays its lowest play until the match is over."""
    while api.public(match_id)["status"] == "playing":
        play_turn(api, match_id, tokens)


def events(client: FlaskClient, match_id: str, after: int = 0) -> list[dict[str, Any]]:
    """Every event after ``after``."""
    found: list[dict[str, Any]] = json_object(client.get(f"/v1/matches/{match_id}/events?after={after}"))["events"]
    return found


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    """Seat → token of a created match."""
    return {entry["seat"]: entry["token"] for entry in created["tokens"]}


class Clock:
    """A hand-moved clock for the service, so that turn clocks run out when a test says."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def service_of(app: Flask) -> MatchServices:
    """The app's match service."""
    service: MatchServices = services_of(app).game
    return service


def rfc3339(text: str) -> float:
    """Epoch seconds of an RFC 3339 UTC time the API wrote."""
    assert text.endswith("Z"), text
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
