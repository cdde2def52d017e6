"""The training example (clients/python/train_easy.py): train against Easy, save, play online unchanged.

Rule (docs/env.md, "Putting a trained bot online"): the example trains a policy in the environment
for a few seconds and saves it; the saved file plays a seat of a real server's match through the
example bot's runner to the end; online it picks, from the JSON view, exactly the action it picks
in the environment from the engine's view of the same position.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import play_match
from tienlen_client import Client, Seat
from train_easy import LinearPolicy, chooser, train

from tienlen.engine import Match, cards_mask, resolve_rules, seat_view
from tienlen.env import action_mask, encode_view, play_of

CLIENTS = Path(__file__).resolve().parents[2] / "clients" / "python"
pytestmark = pytest.mark.xdist_group("live_server")
EXAMPLE = [sys.executable, str(CLIENTS / "train_easy.py")]
EASY_SEATS = [{"name": "Trained"}] + [{"name": f"Easy {n}", "bot": "easy"} for n in (1, 2, 3)]


def test_the_example_trains_saves_and_its_policy_plays_a_match_over_http_to_the_end(
    live_server: str, tmp_path: Path
) -> None:
    """Rule: `train_easy.py train` trains for a few seconds and saves a small policy; `train_easy.py play`
    plays a seat of a live server's match with it until the match ends."""
    policy = tmp_path / "policy.npz"
    trained = subprocess.run(
        [*EXAMPLE, "train", "--seconds", "3", "--out", str(policy)], capture_output=True, text=True, timeout=120
    )
    assert trained.returncode == 0, trained.stderr[-2000:]
    assert trained.stdout.startswith("trained ") and policy.stat().st_size < 1_000_000
    loaded = LinearPolicy.load(policy)
    assert np.abs(loaded.weights).sum() > 0, "training changed the weights"
    client = Client(live_server)
    created = client.create_match(EASY_SEATS, rules={"hands": 2}, seed=17)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    played = subprocess.run(
        [*EXAMPLE, "play", live_server, match_id, token, "--policy", str(policy)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert played.stdout.startswith("match over: "), played.stdout
    final = client.match(match_id)
    assert final["status"] == "finished" and len(final["hands"]) >= 2


def test_online_the_policy_picks_what_it_picks_in_the_environment(live_server: str) -> None:
    """Rule: at every turn of the seat, the cards the policy sent from its JSON view are the cards it picks
    from the engine's seat view of that position (the match replayed from its replay), through the same
    encoding, mask and decoding."""
    policy, _seen = train(1.0, seed=3)
    choose = chooser(policy)
    sent: list[list[str] | None] = []

    def recording(seat: Seat, view: dict[str, Any]) -> list[str] | None:
        cards = choose(seat, view)
        sent.append(cards)
        return cards

    client = Client(live_server)
    created = client.create_match(EASY_SEATS, rules={"hands": 1}, seed=23)
    match_id = created["match_id"]
    final = play_match(client.seat(match_id, created["tokens"][0]["token"]), choose=recording)
    assert final["status"] == "finished"
    replay = client.request("GET", f"/v1/matches/{match_id}/replay")
    match, _ = Match.new(resolve_rules(replay["rules"]), random.Random(replay["seed"]), replay["hands"][0]["deal"])
    turns = iter(sent)
    compared = 0
    for hand in replay["hands"]:
        for action in hand["actions"]:
            seat = action["seat"]
            if seat == 0:
                view = seat_view(match, 0)
                allowed = action_mask(match.legal_masks(), match.table is not None)
                expected = play_of(policy.best(encode_view(view), allowed), view.hand)
                online = next(turns)
                assert (cards_mask(online) if online else 0) == expected
                assert cards_mask(action["cards"]) == expected
                compared += 1
            if action["type"] == "pass":
                match.pass_turn(seat)
            else:
                match.play(seat, action["cards"])
    assert compared == len(sent) > 3
