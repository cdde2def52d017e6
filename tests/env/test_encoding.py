"""The observation encoding (tienlen.env.encoding): fixed, documented, and the same from either view.

Rule (docs/env.md, "The observation"): the encoding has the documented fields, in order, 220 numbers
in [0, 1]; it reads only what the server's JSON seat view carries, so encoding the JSON view a
remote seat gets from the server gives exactly the numbers the environment gives for the engine's
seat view of the same position.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tienlen_client.botkit import view_legal_masks

from tests.env.positions import SETUPS, random_positions
from tests.support.api import Api, json_object
from tienlen.engine import Match, cards_mask, resolve_rules, seat_view
from tienlen.env.encoding import (
    FIELD,
    FIELDS,
    OBS_SIZE,
    SEAT_FEATURES,
    encode,
    encode_json,
    encode_view,
    facts_of_json,
    facts_of_view,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "env.md"


def test_the_fields_follow_each_other_and_docs_env_md_lists_each_with_its_indices() -> None:
    """Rule: the fields tile 0..OBS_SIZE in order, and docs/env.md's table gives each one's first index,
    size and meaning as the code does."""
    assert OBS_SIZE == 220
    assert [f.start for f in FIELDS] == [0] + [f.stop for f in FIELDS[:-1]]
    rows = re.findall(r"^\| `(\w+)` \| (\d+)–(\d+) \| (.+) \|$", DOC.read_text(encoding="utf-8"), flags=re.M)
    assert [(name, int(first), int(last)) for name, first, last, _ in rows] == [
        (f.name, f.start, f.stop - 1) for f in FIELDS
    ]
    assert [about for *_, about in rows] == [f.about for f in FIELDS]


@pytest.mark.parametrize(("preset", "players"), SETUPS)
def test_every_observation_is_in_bounds_and_says_what_the_view_says(preset: str, players: int) -> None:
    """Rule: every number is in [0, 1]; the hand, the table and the seat slots read back as the view's."""
    for match in random_positions(preset, players, matches=3, seed=players):
        for seat in range(players):
            _check_encoding(match, seat, players)


def _check_encoding(match: Match, seat: int, players: int) -> None:
    """The seat's encoding: float32 in [0, 1], and its hand, table and seat slots read back as the view's."""
    view = seat_view(match, seat)
    x = encode_view(view)
    assert x.dtype == np.float32 and x.shape == (OBS_SIZE,)
    assert x.min() >= 0 and x.max() <= 1
    hand = FIELD["hand"]
    assert sum(1 << c for c in np.flatnonzero(x[hand.start : hand.stop])) == view.hand
    table = FIELD["table"]
    assert sum(1 << c for c in np.flatnonzero(x[table.start : table.stop])) == (
        0 if view.table is None else view.table.mask
    )
    slots = x[FIELD["seats"].start : FIELD["seats"].stop].reshape(-1, len(SEAT_FEATURES))
    for other in range(players):
        slot = slots[(other - seat) % players]
        assert slot[0] == 1 and slot[1] == pytest.approx(view.cards_left[other] / 13)
        assert slot[2] == view.public.passed(other) and slot[6] == (match.turn == other)
    assert not slots[players:].any()
    assert x[FIELD["my_turn"].start] == (match.turn == seat)


def _play_remote_seat(api: Api, preset: str, players: int, seed: int) -> tuple[str, list[dict[str, Any]]]:
    """A match over the API, seat 0 remote picking random legal actions from its JSON view, bots elsewhere;
    its id and every JSON view the remote seat acted on."""
    seats = [{"name": "Remote"}] + [{"name": f"Bot {n}", "bot": ("easy", "medium")[n % 2]} for n in range(1, players)]
    hands = 1 if resolve_rules({"preset": preset}).scoring.value == "none" else 2
    created = api.create(seats=seats, rules={"preset": preset, "hands": hands}, seed=seed)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    for _ in range(400):
        view = api.view(match_id, token)
        if view["status"] == "finished":
            return match_id, seen
        seen.append(view)
        legal = view_legal_masks(view)
        pick = rng.randrange(len(legal) + (view["table"] is not None))
        if pick < len(legal):
            cards = [c for c in view["cards"] if cards_mask([c]) & legal[pick]]
            body: dict[str, Any] = {"type": "play", "cards": cards}
        else:
            body = {"type": "pass"}
        assert api.act(match_id, token, body).status_code == 200
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("preset", "players"), [("standard", 4), ("classic", 3), ("ladder", 2)])
def test_the_servers_json_view_encodes_exactly_as_the_engines_view_of_the_same_position(
    api: Api, preset: str, players: int
) -> None:
    """Rule: at every turn of a remote seat, facts_of_json of the view the server sent equals facts_of_view of
    the engine's seat view at that point of the match (replayed from its replay), and so do the encodings."""
    match_id, seen = _play_remote_seat(api, preset, players, seed=30 + players)
    response = api.client.get(f"/v1/matches/{match_id}/replay")
    replay = json_object(response)
    match, _ = Match.new(resolve_rules(replay["rules"]), random.Random(replay["seed"]), replay["hands"][0]["deal"])
    turns = iter(seen)
    compared = 0
    for hand in replay["hands"]:
        for action in hand["actions"]:
            if match.turn == 0:
                sent = next(turns)
                assert facts_of_json(sent) == facts_of_view(seat_view(match, 0))
                assert np.array_equal(encode_json(sent), encode_view(seat_view(match, 0)))
                compared += 1
            seat = action["seat"]
            if action["type"] == "pass":
                match.pass_turn(seat)
            else:
                match.play(seat, action["cards"])
    assert match.outcome is not None and compared == len(seen) > 5


def test_encode_is_one_function_of_the_facts() -> None:
    """Rule: encode_view and encode_json are encode of their facts (no second encoding anywhere)."""
    match, _ = Match.new(resolve_rules({}), random.Random(1))
    view = seat_view(match, 2)
    assert np.array_equal(encode_view(view), encode(facts_of_view(view)))
