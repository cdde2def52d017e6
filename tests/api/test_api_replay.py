"""Replays: ``GET /v1/matches/{id}/replay`` and ``tienlen replay`` refereeing it again.

Every preset and player count is played to its end through the API (one
remote seat playing its lowest play, bots in the others); its replay, played
through the engine from the seed, gives the match's own scores and winner.
A replay changed anywhere is refused, naming the first thing that does not hold.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tienlen_client.botkit import lowest_play

from tests.support.api import Api, json_object
from tienlen.engine import PRESET_NAMES, Scoring, resolve_rules
from tienlen.replay import FORMAT, ReplayError, referee

BOTS = ("easy", "medium", "easy")


def _play_to_the_end(api: Api, preset: str, players: int, seed: int, **create: Any) -> tuple[str, dict[str, Any]]:
    """Create a match of two hands where the preset scores them (seat 0 remote, bots elsewhere) and play it out."""
    seats = [{"name": "Remote"}] + [{"name": f"Bot {n}", "bot": BOTS[n - 1]} for n in range(1, players)]
    scored = resolve_rules({"preset": preset, "players": players}).scoring is not Scoring.NONE
    rules = {"preset": preset, "hands": 2 if scored else 1}
    created = api.create(seats=seats, rules=rules, seed=seed, **create)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    for _ in range(400):
        view = api.view(match_id, token)
        if view["status"] == "finished":
            return match_id, api.public(match_id)
        assert view["turn"] == 0, "bots reply before the answer, so the remote seat is on turn"
        cards = lowest_play(view)
        body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        response = api.act(match_id, token, body)
        assert response.status_code == 200, response.json
    raise AssertionError(f"match {match_id} did not end")


def _scores(match: dict[str, Any]) -> list[int]:
    return [seat["score"] for seat in match["seats"]]


def _replay(api: Api, match_id: str) -> dict[str, Any]:
    response = api.client.get(f"/v1/matches/{match_id}/replay")
    assert response.status_code == 200, response.json
    return json_object(response)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_replay_of_every_preset_and_player_count_reproduces_the_result(api: Api, preset: str, players: int) -> None:
    match_id, match = _play_to_the_end(api, preset, players, seed=100 + players)
    replay = _replay(api, match_id)
    assert replay["format"] == FORMAT
    assert replay["seed"] == 100 + players
    assert replay["rules"]["preset"] == preset and replay["rules"]["players"] == players
    assert [seat["bot"] for seat in replay["seats"]] == [None, *BOTS[: players - 1]]
    assert [hand["hand_number"] for hand in replay["hands"]] == list(range(1, match["hand_number"] + 1))
    assert match["hand_number"] >= replay["rules"]["hands"], "every hand was played (and any tie-break hand)"
    assert replay["result"] == {"scores": _scores(match), "winner": match["winner"], "abandoned": False}
    found = referee(replay)
    assert (list(found.scores), found.winner, found.abandoned) == (_scores(match), match["winner"], False)
    dealt = [len(cards) for cards in replay["hands"][0]["deal"]]
    assert dealt == [13] * players, "each seat's whole deal is in the replay"


def test_a_replay_of_a_match_created_with_its_own_first_deal_reproduces_it(api: Api) -> None:
    deal = [["3S", "4S", "5S", "6S", "7S"], ["3C", "4C", "5C", "6C", "8C"]]
    match_id, match = _play_to_the_end(api, "standard", 2, seed=5, deal=deal)
    replay = _replay(api, match_id)
    assert replay["hands"][0]["deal"] == deal
    found = referee(replay)
    assert (list(found.scores), found.winner) == (_scores(match), match["winner"])


def test_a_replay_of_an_abandoned_match_reproduces_it_without_a_winner(api: Api) -> None:
    seats = [{"name": "Remote"}, {"name": "Bot", "bot": "easy"}, {"name": "Bot 2", "bot": "easy"}]
    created = api.create(seats=seats, rules={"hands": 1}, seed=9)
    match_id, token = created["match_id"], created["tokens"][0]["token"]
    view = api.view(match_id, token)
    cards = lowest_play(view)
    assert cards is not None
    assert api.act(match_id, token, {"type": "play", "cards": cards}).status_code == 200
    left = api.client.post(f"/v1/matches/{match_id}/leave", headers=api.auth(token))
    assert left.status_code == 200, left.json
    match = api.public(match_id)
    assert (match["status"], match["winner"]) == ("finished", None)
    replay = _replay(api, match_id)
    assert replay["result"]["abandoned"] is True
    found = referee(replay)
    assert found.abandoned and found.winner is None and list(found.scores) == _scores(match)


def test_no_replay_before_the_end_and_none_of_an_unknown_match(api: Api) -> None:
    created = api.create(seats=[{"name": "A"}, {"name": "B", "bot": "easy"}], seed=1)
    response = api.client.get(f"/v1/matches/{created['match_id']}/replay")
    assert (response.status_code, json_object(response)["reason"]) == (409, "match_not_finished")
    assert set(json_object(response)) == {"code", "status", "message", "reason"}, "only the error: no deal, no hand"
    response = api.client.get("/v1/matches/0123456789abcdef0123/replay")
    assert (response.status_code, json_object(response)["reason"]) == (404, "match_not_found")


# ----- a changed replay is refused ------------------------------------------------------


def _first_play(replay: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in replay["hands"][0]["actions"] if a["type"] == "play")


def _swap_cards_between_first_two_seats(replay: dict[str, Any]) -> None:
    deal = replay["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]


def _other_seat_acts(replay: dict[str, Any]) -> None:
    action = replay["hands"][0]["actions"][1]
    action["seat"] = (action["seat"] + 1) % replay["rules"]["players"]


def _play_cards_not_held(replay: dict[str, Any]) -> None:
    play = _first_play(replay)
    held = set(replay["hands"][0]["deal"][play["seat"]])
    play["cards"] = [next(c for other in replay["hands"][0]["deal"] for c in other if c not in held)]


def _drop_last_action(replay: dict[str, Any]) -> None:
    replay["hands"][-1]["actions"].pop()


def _raise_a_score(replay: dict[str, Any]) -> None:
    replay["result"]["scores"][0] += 1


def _name_another_winner(replay: dict[str, Any]) -> None:
    winner = replay["result"]["winner"]
    replay["result"]["winner"] = 1 if winner in (0, None) else 0


def _another_seed(replay: dict[str, Any]) -> None:
    replay["seed"] += 1
    # the first hand keeps its deal (a replay may carry the deal a match was created with): hand 2 differs


TAMPERINGS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a card moved between two deals", _swap_cards_between_first_two_seats, "hand 1, action"),
    ("an action by a seat not on turn", _other_seat_acts, "hand 1, action 2:"),
    ("a play of cards the seat does not hold", _play_cards_not_held, "hand 1, action"),
    ("the last action dropped", _drop_last_action, "before the match does"),
    ("a score raised", _raise_a_score, "the result says"),
    ("another winner named", _name_another_winner, "the result says"),
    ("another seed", _another_seed, "hand 2: the deal is not the one the seed gives"),
    ("another format", lambda r: r.update(format="tienlen-replay/0"), "not a tienlen-replay/1 replay"),
    ("no hands", lambda r: r.update(hands=[]), "at least one hand"),
    ("a hand that is not an object", lambda r: r["hands"].append(7), "every hand must be objects"),
    ("an action that is not an object", lambda r: r["hands"][0]["actions"].insert(0, "pass"), "hand 1, action 1:"),
    ("cards that are not card texts", lambda r: _first_play(r).update(cards=[3]), "cards must be a list"),
    ("an unknown rule", lambda r: r["rules"].update(bombs="nuclear"), "header is not valid"),
]


@pytest.fixture(scope="module")
def finished_replay(redis_server: Any) -> dict[str, Any]:
    """One finished 4-seat, two-hand standard match's replay (shared by the tampering cases)."""
    from flask import Flask

    from tienlen.api import create_app

    app: Flask = create_app({"TESTING": True, "REDIS_URL": redis_server.url})
    match_id, _ = _play_to_the_end(Api(app.test_client()), "standard", 4, seed=77)
    return _replay(Api(app.test_client()), match_id)


@pytest.mark.parametrize(("change", "tamper", "message"), TAMPERINGS, ids=[t[0] for t in TAMPERINGS])
def test_a_changed_replay_is_refused_naming_the_first_thing_that_does_not_hold(
    finished_replay: dict[str, Any], change: str, tamper: Callable[[dict[str, Any]], None], message: str
) -> None:
    assert referee(finished_replay).hands == len(finished_replay["hands"]) >= 2, "the untouched replay is accepted"
    changed = copy.deepcopy(finished_replay)
    tamper(changed)
    assert changed != finished_replay, change
    with pytest.raises(ReplayError) as refused:
        referee(changed)
    assert message in str(refused.value), str(refused.value)


# ----- the command line --------------------------------------------------------------------


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tienlen", "replay", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_the_replay_command_referees_a_file_and_stdin(finished_replay: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    path.write_text(json.dumps(finished_replay), encoding="utf-8")
    done = _cli(str(path))
    assert done.returncode == 0, done.stderr
    scores = " ".join(str(s) for s in finished_replay["result"]["scores"])
    assert done.stdout.startswith(f"every action legal: {len(finished_replay['hands'])} hands, ")
    assert done.stdout.rstrip().endswith(f"scores {scores}")
    assert _cli("-", stdin=json.dumps(finished_replay)).stdout == done.stdout


def test_the_replay_command_exits_1_naming_the_first_illegal_action(finished_replay: dict[str, Any]) -> None:
    changed = copy.deepcopy(finished_replay)
    _other_seat_acts(changed)
    done = _cli("-", stdin=json.dumps(changed))
    assert done.returncode == 1
    assert done.stderr.startswith("tienlen replay: refused: hand 1, action 2: seat "), done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (["-"], "{not json", 1, "is not JSON"),
        (["-"], "[" * 100_000, 1, "is not JSON"),
        (["/nonexistent/match.json"], None, 2, "cannot read /nonexistent/match.json"),
    ],
    ids=["not JSON", "nested too deep", "missing file"],
)
def test_the_replay_command_refuses_what_it_cannot_read(
    args: list[str], stdin: str | None, code: int, message: str
) -> None:
    done = _cli(*args, stdin=stdin)
    assert done.returncode == code and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
