"""Whole matches through HTTP: every preset to the end, no hidden card ever shown."""

from __future__ import annotations

import json
import random

import pytest
from flask.testing import FlaskClient

from tests.support.api import Api, json_object


def strings_in(value: object) -> set[str]:
    """Every string anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings_in(v) for v in value)) if value else set()
    return set()


def in_play(state: dict[str, object]) -> dict[str, object]:
    """A match's state without the deals of the hands that are over (public once a hand ended: ``dealt``)."""
    hands = state["hands"]
    assert isinstance(hands, list)
    return state | {"hands": [{k: v for k, v in hand.items() if k != "dealt"} for hand in hands]}


def check_no_leak(api: Api, match_id: str, tokens: list[str]) -> dict[int, list[str]]:
    """Each view shows only its own hand; the public state shows no hand card (but the deals of hands over)."""
    hands = {seat: api.view(match_id, token)["cards"] for seat, token in enumerate(tokens)}
    held = set().union(*map(set, hands.values()))
    assert not held & strings_in(in_play(api.public(match_id))), "the public state shows a card of a hand"
    for seat, token in enumerate(tokens):
        view = in_play(api.view(match_id, token))
        others = held - set(hands[seat])
        assert not others & strings_in(view), f"seat {seat}'s view shows another seat's card"
        legal = api.legal(match_id, token)
        assert not others & strings_in(legal)
    events = json_object(api.client.get(f"/v1/matches/{match_id}/events"))["events"]
    starts = [i for i, e in enumerate(events) if e["type"] == "hand_started"]
    this_hand = events[starts[-1] :] if starts else events
    assert not held & strings_in(this_hand), "an event of this hand shows a card still in a hand"
    return hands


@pytest.mark.parametrize(
    ("preset", "players"),
    [("standard", 4), ("classic", 3), ("ladder", 2), ("ladder", 4), ("standard", 2)],
)
def test_full_match_through_http_for_every_preset(api: Api, preset: str, players: int) -> None:
    rng = random.Random(f"{preset}-{players}")
    rules: dict[str, object] = {"preset": preset}
    if preset != "ladder":
        rules["hands"] = 2
    created = api.create(seats=[{"name": f"P{i}"} for i in range(players)], rules=rules, seed=rng.randrange(10**6))
    match_id = created["match_id"]
    tokens = [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]
    state = created["match"]
    actions = 0
    while state["status"] == "playing":
        check_no_leak(api, match_id, tokens)
        seat = state["turn"]
        legal = api.legal(match_id, tokens[seat])
        for other in range(players):
            if other != seat:
                assert api.legal(match_id, tokens[other]) == {"can_pass": False, "plays": []}
        options = [{"type": "play", "cards": p["cards"]} for p in legal["plays"]]
        if legal["can_pass"]:
            options.append({"type": "pass"})
        choice = rng.choice(options)
        response = api.act(match_id, tokens[seat], choice | {"version": state["version"]})
        assert response.status_code == 200, (choice, response.json)
        answer = json_object(response)
        assert answer["version"] == state["version"] + 1
        state = answer
        actions += 1
    assert state["status"] == "finished"
    assert state["winner"] is not None or len(state["winners"]) > 1
    assert len(state["hands"]) >= (1 if preset == "ladder" else 2)
    totals = [sum(h["points"][s] for h in state["hands"]) for s in range(players)]
    assert totals == [s["score"] for s in state["seats"]]
    events = json_object(api.client.get(f"/v1/matches/{match_id}/events?after=0"))["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "match_ended"
    assert sum(e["type"] in ("played", "passed") for e in events) == actions


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bot_seats_play_until_a_remote_seat_is_on_turn(api: Api, client: FlaskClient, level: str) -> None:
    """Bot seats act on their own (after creation and after each remote action) until the remote seat
    is on turn; the remote seat acts only through its own requests; every bot seat plays."""
    created = api.create(
        seats=[{"name": "Me"}] + [{"name": f"B{i}", "bot": level} for i in (1, 2, 3)],
        rules={"hands": 1},
        seed=42,
    )
    match_id = created["match_id"]
    token = created["tokens"][0]["token"]
    state = api.view(match_id, token)
    rng = random.Random(1)
    remote_actions = 0
    while state["status"] == "playing":
        assert state["turn"] == 0, "bots play on until the remote seat is on turn"
        legal = api.legal(match_id, token)
        options = [{"type": "play", "cards": p["cards"]} for p in legal["plays"]]
        if legal["can_pass"]:
            options.append({"type": "pass"})
        response = api.act(match_id, token, rng.choice(options))
        assert response.status_code == 200, response.json
        state = json_object(response)
        remote_actions += 1
    assert state["status"] == "finished"
    events = json_object(client.get(f"/v1/matches/{match_id}/events"))["events"]
    actors = [e["seat"] for e in events if e["type"] in ("played", "passed")]
    assert actors.count(0) == remote_actions, "the remote seat acted only through its own requests"
    assert {e["seat"] for e in events if e["type"] == "played"} >= {1, 2, 3}, "every bot seat played"
    assert json.dumps(events).count("match_ended") == 1
