"""Tournaments played to the end through the API by remote clients (each plays its lowest legal play): Swiss,
duplicate and arena; standings recomputed independently from the kept matches equal the server's; seating again
after a worker died mid-round makes every table once."""

from __future__ import annotations

import random
import time
from collections import defaultdict
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import Api, OwnAddressClient, json_object
from tests.support.lifecycle import lowest, play_out, service_of
from tienlen.api import create_app
from tienlen.engine import Match, resolve_rules
from tienlen.local_redis import LocalRedis


def entrants(client: FlaskClient, count: int) -> dict[str, str]:
    """``count`` fresh accounts: name -> session token."""
    found = {}
    for _ in range(count):
        name = fresh_name("e")
        found[name] = str(sign_up(client, name)["token"])
    return found


def run(client: FlaskClient, body: dict[str, Any], players: dict[str, str]) -> str:
    """Create a "when full" tournament and enter every player (the last entry starts it); its id."""
    creator = str(sign_up(client, fresh_name("c"))["token"])
    created = client.post("/v1/tournaments", json=body, headers=auth(creator))
    assert created.status_code == 201, created.json
    tid = str(json_object(created)["tournament_id"])
    for token in players.values():
        assert client.put(f"/v1/tournaments/{tid}/entry", headers=auth(token)).status_code == 201
    return tid


def play_rounds(client: FlaskClient, tid: str, players: dict[str, str], most: int = 20) -> dict[str, Any]:
    """Play every table of the tournament out (lowest plays) until it is finished; its last state."""
    api = Api(client)
    for _ in range(most):
        state = json_object(client.get(f"/v1/tournaments/{tid}"))
        if state["status"] != "running":
            return state
        for rnd in state["rounds"]:
            for table in rnd["tables"]:
                if table["ended"]:
                    continue
                tokens = {seat: players[s["name"]] for seat, s in enumerate(table["sitters"]) if not s["house"]}
                play_table(api, table["match_id"], tokens)
        service_of(client.application).tournaments.rounds.check(tid)  # as the sweeper does, were a record lost
    raise AssertionError("the tournament did not finish")


def play_table(api: Api, match_id: str, tokens: dict[int, str]) -> None:
    """The table's remote seats play their lowest plays until the match is over (read by a seat: a duplicate
    table is not watchable)."""
    reader = next(iter(tokens.values()))
    while (view := api.view(match_id, reader))["status"] == "playing":
        token = tokens[view["turn"]]
        answer = api.act(match_id, token, lowest(api.view(match_id, token)))
        assert answer.status_code == 200, answer.json


def kept_tables(client: FlaskClient, state: dict[str, Any], players: dict[str, str]) -> list[dict[str, Any]]:
    """Each table's kept match as its players' histories show it: (round, sitters' names, places, points)."""
    kept: dict[str, dict[str, Any]] = {}
    for name in players:
        page = json_object(client.get(f"/v1/players/{name}/matches?limit=100"))
        for match in page["matches"]:
            kept[match["match_id"]] = match
    tables = []
    for rnd in state["rounds"]:
        for table in rnd["tables"]:
            match = kept[table["match_id"]]
            seats = sorted(match["seats"], key=lambda s: s["seat"])
            tables.append(
                {
                    "names": [None if s["house"] else s["name"] for s in table["sitters"]],
                    "places": [s["place"] for s in seats],
                    "points": [s["points"] for s in seats],
                }
            )
    return tables


def swiss_standings(tables: list[dict[str, Any]], order: list[str]) -> list[tuple[str, float, list[float]]]:
    """Swiss standings written again from the kept tables: place points, then Buchholz, points, firsts, number."""
    score: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    firsts: dict[str, int] = defaultdict(int)
    for table in tables:
        size = len(table["names"])
        for seat, name in enumerate(table["names"]):
            if name is not None:
                score[name] += size - table["places"][seat]
                points[name] += table["points"][seat]
                firsts[name] += table["places"][seat] == 1
    buchholz: dict[str, int] = defaultdict(int)
    for table in tables:
        names = [n for n in table["names"] if n is not None]
        for name in names:
            buchholz[name] += sum(score[m] for m in names if m != name)
    ranked = sorted(order, key=lambda n: (-score[n], -buchholz[n], -points[n], -firsts[n], order.index(n)))
    return [(n, float(score[n]), [float(buchholz[n]), float(points[n]), float(firsts[n])]) for n in ranked]


def test_a_swiss_of_8_at_tables_of_4_is_played_to_the_end_and_its_standings_recomputed(client: FlaskClient) -> None:
    """Rule: a Swiss of 8 entrants, 2 rounds at tables of 4, played by remote clients: every round seated as the
    last table of the one before ends, finished after its rounds, each entrant told its place; the standings
    recomputed from the kept matches (players' histories) equal the server's."""
    players = entrants(client, 8)
    body = {"name": "Swiss 8", "format": "swiss", "players": 4, "hands": 1, "rounds": 2}
    tid = run(client, body | {"min_entrants": 8, "max_entrants": 8}, players)
    state = play_rounds(client, tid, players)
    assert state["status"] == "finished" and [r["number"] for r in state["rounds"]] == [1, 2]
    assert all(len(r["tables"]) == 2 and all(t["ended"] for t in r["tables"]) for r in state["rounds"])
    assert state["deal_secret"] is not None
    server = json_object(client.get(f"/v1/tournaments/{tid}/standings"))
    assert server["final"] is True
    order = [e["name"] for e in sorted(state["entrants"], key=lambda e: e["number"])]
    mine = swiss_standings(kept_tables(client, state, players), order)
    assert [(s["name"], s["score"], s["tiebreaks"][:3]) for s in server["standings"]] == [
        (n, sc, tb) for n, sc, tb in mine
    ]
    assert [s["rank"] for s in server["standings"]] == list(range(1, 9))
    feed = [e["type"] for e in json_object(client.get(f"/v1/tournaments/{tid}/events?after=0"))["events"]]
    assert feed.count("round_seated") == 2 and feed.count("table_ended") == 4 and feed[-1] == "tournament_finished"
    first = server["standings"][0]["name"]
    inbox = json_object(client.get("/v1/me/events", headers=auth(players[first])))["events"]
    assert {"type": "tournament_finished", "tournament_id": tid, "place": 1}.items() <= inbox[-1].items()


def test_byes_are_filled_by_house_bots_marked_as_such(client: FlaskClient) -> None:
    """Rule: 6 entrants at tables of 4: the shortfall is filled by house bots (`house`, `bot`), played out."""
    players = entrants(client, 6)
    body = {"name": "Swiss 6", "format": "swiss", "players": 4, "hands": 1, "rounds": 1}
    tid = run(client, body | {"min_entrants": 6, "max_entrants": 6}, players)
    state = play_rounds(client, tid, players)
    sitters = [s for t in state["rounds"][0]["tables"] for s in t["sitters"]]
    assert sum(s["house"] for s in sitters) == 2 and all(s["bot"] for s in sitters if s["house"])
    assert state["status"] == "finished"


def test_the_same_seed_deals_the_same_cards_hand_after_hand_whatever_is_played() -> None:
    """Rule (duplicate's ground): two matches of one seed deal the same hands, hand after hand, however played."""
    rules = resolve_rules({"preset": "standard", "hands": 3}, players=4)
    deals: list[list[list[int]]] = []
    for strategy in (0, 1):
        match, _ = Match.new(rules, random.Random(1234))
        rng = random.Random(strategy)
        dealt = [list(match.hands)]
        while match.outcome is None:
            legal = match.legal_masks()
            before = match.hand_number
            seat = match.turn
            assert seat is not None
            if not legal:
                match.pass_turn(seat)
            else:
                match.play(seat, legal[0] if strategy == 0 else rng.choice(legal))
            if match.hand_number != before and match.outcome is None:
                dealt.append(list(match.hands))
        deals.append(dealt)
    assert min(len(deals[0]), len(deals[1])) >= 3 and deals[0][:3] == deals[1][:3]


def test_a_duplicate_event_deals_every_table_of_a_round_the_same_cards(client: FlaskClient) -> None:
    """Rule: in a duplicate event every table of a round gets the same deals (one seed from the tournament's
    secret, its digest committed at the creation, the secret shown at the end); standings come out ranked."""
    players = entrants(client, 8)
    body = {"name": "Dup 8", "format": "duplicate", "players": 4, "hands": 1, "deals": 2}
    tid = run(client, body | {"min_entrants": 8, "max_entrants": 8}, players)
    state = play_rounds(client, tid, players)
    assert state["status"] == "finished" and len(state["rounds"]) == 2
    import hashlib

    secret = bytes.fromhex(state["deal_secret"])
    assert hashlib.sha256(secret).hexdigest() == state["deal_commitment"]
    stranger = str(sign_up(client, fresh_name("s"))["token"])
    for rnd in state["rounds"]:
        for t in rnd["tables"]:  # another table of the round may still play its deals: seats only
            assert client.get(f"/v1/matches/{t['match_id']}/replay", headers=auth(stranger)).status_code == 403
        replays = [
            json_object(
                client.get(f"/v1/matches/{t['match_id']}/replay", headers=auth(players[t["sitters"][0]["name"]]))
            )
            for t in rnd["tables"]
        ]
        assert len({str(r["hands"][0]["deal"]) for r in replays}) == 1, rnd["number"]
        seed = int.from_bytes(hashlib.sha256(secret + rnd["number"].to_bytes(4, "big")).digest()[:8], "big") >> 1
        assert {r["seed"] for r in replays} == {seed}
        assert all(t["deals"] == [rnd["number"] - 1] for t in rnd["tables"])
    server = json_object(client.get(f"/v1/tournaments/{tid}/standings"))["standings"]
    assert sorted(s["name"] for s in server) == sorted(players) and all(s["percent"] is not None for s in server)


def seating_cut_short(client: FlaskClient, name: str) -> tuple[str, dict[str, str]]:
    """A one-round Swiss of 8 at tables of 4 whose seating died after its first table (the worker killed): its
    id and its players' tokens by name."""
    service = service_of(client.application)
    rounds = service.tournaments.rounds
    made: list[str] = []

    def die_after_first(match_id: str, _number: int) -> None:
        made.append(match_id)
        if len(made) == 2:
            raise SystemExit("the worker died")

    players = entrants(client, 8)
    body = {"name": name, "format": "swiss", "players": 4, "hands": 1, "rounds": 1}
    rounds.on_table_made = die_after_first
    try:
        with pytest.raises(SystemExit):
            run(client, body | {"min_entrants": 8, "max_entrants": 8}, players)
    finally:
        rounds.on_table_made = None
    return next(iter(service.tournaments.store.listed("running", None, 1000, newest=True)))[0], players


@pytest.fixture
def unswept(tmp_path: Path) -> Iterator[FlaskClient]:
    """A client of an app on a Redis of its own: no sweeper of another server (the live servers on the session's
    Redis run theirs) finishes a seating these tests leave cut short, or holds the lock of its check."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    with LocalRedis(tmp_path / "redis") as own:
        app = create_app({"REDIS_URL": own.url, **settings})
        app.test_client_class = OwnAddressClient
        yield app.test_client()


def test_a_worker_dead_mid_seating_leaves_every_table_made_once_by_the_sweeper(unswept: FlaskClient) -> None:
    """Rule: a seating that dies after its first table (the worker killed) is finished by the sweeper: every
    table exists once, with the planned match ids, and the round is seated."""
    client = unswept
    rounds = service_of(client.application).tournaments.rounds
    tid, players = seating_cut_short(client, "Crash")
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert state["rounds"][0]["seated"] is False
    tables = state["rounds"][0]["tables"]
    assert client.get(f"/v1/matches/{tables[1]['match_id']}").status_code == 404
    rounds.check(tid)
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert state["rounds"][0]["seated"] is True and state["rounds"][0]["tables"] == tables
    versions = [api_version(client, t["match_id"]) for t in tables]
    rounds.check(tid)  # again: nothing made twice
    assert [api_version(client, t["match_id"]) for t in tables] == versions
    assert play_rounds(client, tid, players)["status"] == "finished"


def test_a_sitter_reading_the_tournament_before_its_table_was_made_finds_its_match(unswept: FlaskClient) -> None:
    """Rule: the caller's table (``you``) is never named without its match: read between a round's planning and
    the making of its table (here the seating died first), the read makes that match, once; the sweeper then
    makes the others and nothing twice."""
    client = unswept
    rounds = service_of(client.application).tournaments.rounds
    tid, players = seating_cut_short(client, "Read early")
    tables = json_object(client.get(f"/v1/tournaments/{tid}"))["rounds"][0]["tables"]
    unmade = tables[1]
    assert client.get(f"/v1/matches/{unmade['match_id']}").status_code == 404
    sitter = unmade["sitters"][0]["name"]
    state = json_object(client.get(f"/v1/tournaments/{tid}", headers=auth(players[sitter])))
    assert state["you"] == {"round": 1, "table": unmade["number"], "match_id": unmade["match_id"], "seat": 0}
    view = client.get(f"/v1/matches/{unmade['match_id']}/view", headers=auth(players[sitter]))
    assert view.status_code == 200, view.json
    version = api_version(client, unmade["match_id"])
    json_object(client.get(f"/v1/tournaments/{tid}", headers=auth(players[sitter])))  # read again: made once
    rounds.check(tid)
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert state["rounds"][0]["seated"] is True and state["rounds"][0]["tables"] == tables
    assert api_version(client, unmade["match_id"]) == version
    assert play_rounds(client, tid, players)["status"] == "finished"


def api_version(client: FlaskClient, match_id: str) -> int:
    """The match's version now."""
    return int(json_object(client.get(f"/v1/matches/{match_id}"))["version"])


def play_open_arena_table(client: FlaskClient, tid: str, players: dict[str, str]) -> None:
    """Play the arena's table still playing out (lowest plays); then check the tournament as the sweeper does,
    were the record of its end lost (a Redis call past its timeout on a loaded machine leaves it to the sweeper,
    which a test app does not run)."""
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    table = next(t for t in state["rounds"][0]["tables"] if not t["ended"])
    play_out(Api(client), table["match_id"], {seat: players[s["name"]] for seat, s in enumerate(table["sitters"])})
    service_of(client.application).tournaments.rounds.check(tid)


def test_an_arena_seats_finishers_again_and_ends_with_its_window(client: FlaskClient) -> None:
    """Rule: in an arena a table's players wait again when it ends and are seated again (here after the 30 s
    fill time: their scores differ); once the window is over no table is made and the last one's end finishes
    it; standings rank every entrant, with every match counted."""
    service = service_of(client.application)
    rounds = service.tournaments.rounds
    players = entrants(client, 4)
    body = {"name": "Arena", "format": "arena", "players": 4, "hands": 1, "window_s": 300}
    tid = run(client, body | {"min_entrants": 4, "max_entrants": 4}, players)
    start = time.time()
    play_open_table = partial(play_open_arena_table, client, tid, players)

    try:
        for moved in (31, 62):
            play_open_table()
            service.core.now = partial(float.__add__, start, float(moved))
            rounds.pair_arena(tid)
        state = json_object(client.get(f"/v1/tournaments/{tid}"))
        assert len(state["rounds"][0]["tables"]) == 3 and state["status"] == "running"
        service.core.now = lambda: start + 400  # the window is over
        play_open_table()
        state = json_object(client.get(f"/v1/tournaments/{tid}"))
        assert state["status"] == "finished" and len(state["rounds"][0]["tables"]) == 3
    finally:
        service.core.now = time.time
    server = json_object(client.get(f"/v1/tournaments/{tid}/standings"))["standings"]
    assert sorted(s["name"] for s in server) == sorted(players) and sum(s["matches"] for s in server) == 12
