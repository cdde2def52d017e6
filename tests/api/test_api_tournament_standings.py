"""Standings written again, independently of the server's code, from the kept matches (the players' histories) for
the formats beside Swiss (whose check is in test_api_tournament_play.py): duplicate's matchpoints and arena's streak,
each with its tiebreaks, equal the server's standings (issue 43: "standings recomputed independently from the kept
matches equal the server's, for every format")."""

from __future__ import annotations

import time
from collections import defaultdict
from functools import partial

from flask.testing import FlaskClient

from tests.api.test_api_tournament_play import entrants, kept_tables, play_open_arena_table, play_rounds, run
from tests.support.accounts import PASSWORD, auth
from tests.support.api import json_object
from tests.support.lifecycle import service_of


def ranked(order: list[str], key: dict[str, tuple[float, ...]]) -> list[str]:
    """Names best first by ``key`` (higher first), the entrant number (join order) breaking what is left."""
    return sorted(order, key=lambda n: (*(-k for k in key[n]), order.index(n)))


def test_duplicate_standings_are_the_matchpoints_of_each_hand_against_its_other_holders(client: FlaskClient) -> None:
    """Rule (duplicate): each hand held scores (holders beaten on its points + half those tied) / (holders - 1);
    the score is their sum, `percent` their mean x 100; ties broken by total raw points, then firsts."""
    players = entrants(client, 8)
    body = {"name": "Dup again", "format": "duplicate", "players": 4, "hands": 1, "deals": 3}
    tid = run(client, body | {"min_entrants": 8, "max_entrants": 8}, players)
    state = play_rounds(client, tid, players)
    assert state["status"] == "finished" and len(state["rounds"]) == 3
    tables = kept_tables(client, state, players)
    rounds = [r["number"] for r in state["rounds"] for _ in r["tables"]]
    # each (round = deal, seat = hand): its holders and the points each made with it
    holders: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    raw: dict[str, int] = defaultdict(int)
    firsts: dict[str, int] = defaultdict(int)
    for round_no, table in zip(rounds, tables, strict=True):
        for seat, name in enumerate(table["names"]):
            assert name is not None  # duplicate seats full tables only
            holders[(round_no, seat)].append((name, table["points"][seat]))
            raw[name] += table["points"][seat]
            firsts[name] += table["places"][seat] == 1
    score: dict[str, float] = defaultdict(float)
    held: dict[str, int] = defaultdict(int)
    for group in holders.values():
        for name, points in group:
            beaten = sum(1 for other, p in group if other != name and p < points)
            tied = sum(1 for other, p in group if other != name and p == points)
            score[name] += (beaten + tied / 2) / (len(group) - 1) if len(group) > 1 else 0.5
            held[name] += 1
    order = [e["name"] for e in sorted(state["entrants"], key=lambda e: e["number"])]
    mine = ranked(order, {n: (score[n], raw[n], firsts[n]) for n in order})
    server = json_object(client.get(f"/v1/tournaments/{tid}/standings"))["standings"]
    assert [s["name"] for s in server] == mine
    for s in server:
        name = s["name"]
        assert abs(s["score"] - score[name]) < 1e-9
        assert abs(s["percent"] - 100 * score[name] / held[name]) < 1e-6
        assert s["tiebreaks"][:2] == [float(raw[name]), float(firsts[name])]
        assert s["matches"] == 3
    # each entrant's placing is kept in its account's list (a profile's tournaments)
    for s in server:
        placings = json_object(client.get(f"/v1/players/{s['name'].upper()}/tournaments"))["placings"]
        assert placings[0]["tournament_id"] == tid and placings[0]["place"] == s["rank"]
        assert placings[0]["entrants"] == 8 and placings[0]["format"] == "duplicate" and placings[0]["players"] == 4
        assert abs(placings[0]["score"] - s["score"]) < 1e-9 and placings[0]["name"] == "Dup again"


def test_a_players_tournaments_are_refused_for_an_unknown_name_and_a_bad_limit(client: FlaskClient) -> None:
    """Rule: `GET /v1/players/{name}/tournaments` answers 404 `player_not_found` for a name nobody has, 422
    `invalid_request` for a limit outside 1 to 100, and an empty list for a player who finished none."""
    assert client.get("/v1/players/nobody-at-all/tournaments").get_json()["reason"] == "player_not_found"
    name = next(iter(entrants(client, 1)))
    for limit in ("0", "101", "x"):
        answer = client.get(f"/v1/players/{name}/tournaments?limit={limit}")
        assert answer.status_code == 422 and answer.get_json()["reason"] == "invalid_request"
    assert json_object(client.get(f"/v1/players/{name}/tournaments"))["placings"] == []


def test_arena_standings_double_a_first_after_two_firsts_in_a_row(client: FlaskClient) -> None:
    """Rule (arena): place points (table size - place) a match, a first place doubled after two firsts in a row
    until a match not won; ties broken by the mean place points a match (without the bonus), then firsts."""
    service = service_of(client.application)
    rounds = service.tournaments.rounds
    players = entrants(client, 4)
    body = {"name": "Arena again", "format": "arena", "players": 4, "hands": 1, "window_s": 600}
    tid = run(client, body | {"min_entrants": 4, "max_entrants": 4}, players)
    start = time.time()
    play_open_table = partial(play_open_arena_table, client, tid, players)

    try:
        for moved in (31, 62, 93, 124):  # the four wait 30 s at every table: seated together again
            play_open_table()
            service.core.now = partial(float.__add__, start, float(moved))
            rounds.pair_arena(tid)
        service.core.now = lambda: start + 700  # the window is over: the last table's end finishes it
        play_open_table()
    finally:
        service.core.now = time.time
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert state["status"] == "finished"
    tables = kept_tables(client, state, players)
    assert len(tables) == 5
    score: dict[str, int] = defaultdict(int)
    plain: dict[str, int] = defaultdict(int)
    firsts: dict[str, int] = defaultdict(int)
    streak: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    for table in tables:  # in the order they were seated (every entrant sits at each)
        size = len(table["names"])
        for seat, name in enumerate(table["names"]):
            place_points = size - table["places"][seat]
            first = table["places"][seat] == 1
            score[name] += place_points * (2 if first and streak[name] >= 2 else 1)
            streak[name] = streak[name] + 1 if first else 0
            plain[name] += place_points
            firsts[name] += first
            played[name] += 1
    order = [e["name"] for e in sorted(state["entrants"], key=lambda e: e["number"])]
    mine = ranked(order, {n: (score[n], plain[n] / played[n], firsts[n]) for n in order})
    server = json_object(client.get(f"/v1/tournaments/{tid}/standings"))["standings"]
    assert [s["name"] for s in server] == mine
    for s in server:
        name = s["name"]
        assert s["score"] == score[name] and s["matches"] == played[name] == 5
        assert abs(s["tiebreaks"][0] - plain[name] / played[name]) < 1e-9 and s["tiebreaks"][1] == firsts[name]


def test_a_rated_tournament_moves_each_entrants_rating_once_a_match(client: FlaskClient) -> None:
    """Rule: the matches of a rated tournament are rated: each entrant's rating at the table size counts each of
    its matches once (the sweeper's checks after the end settle nothing again); an unrated one moves none."""
    service = service_of(client.application)
    for rated in (True, False):
        players = entrants(client, 4)
        body = {"name": "Rated" if rated else "Casual", "format": "swiss", "players": 2, "hands": 1, "rounds": 2}
        tid = run(client, body | {"min_entrants": 4, "max_entrants": 4, "rated": rated}, players)
        state = play_rounds(client, tid, players)
        assert state["status"] == "finished"
        service.tournaments.rounds.check(tid)  # as a sweeper would again: nothing more is settled
        for name in players:
            ratings = json_object(client.get(f"/v1/players/{name}"))["ratings"]
            at_two = [r for r in ratings if r["players"] == 2]
            assert [r["games"] for r in at_two] == ([2] if rated else []), (name, ratings)
            kept = json_object(client.get(f"/v1/players/{name}/matches"))["matches"]
            assert len(kept) == 2 and all(m["rated"] is rated for m in kept)


def test_a_deleted_account_leaves_no_name_in_its_tournaments(client: FlaskClient) -> None:
    """Rule: deleting an account takes its name out of every tournament it created or entered (entrants, tables,
    results, creator: shown as "(deleted)"), its placings go; the standings still rank every entrant."""
    players = entrants(client, 4)
    body = {"name": "Gone", "format": "swiss", "players": 2, "hands": 1, "rounds": 1}
    tid = run(client, body | {"min_entrants": 4, "max_entrants": 4}, players)
    assert play_rounds(client, tid, players)["status"] == "finished"
    gone, token = next(iter(players.items()))
    assert json_object(client.get(f"/v1/players/{gone}/tournaments"))["placings"]
    assert client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(token)).status_code == 204
    for path in (f"/v1/tournaments/{tid}", f"/v1/tournaments/{tid}/standings", f"/v1/tournaments/{tid}/events"):
        text = client.get(path).get_data(as_text=True)
        assert gone not in text, path
    state = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert sum(e["name"] == "(deleted)" for e in state["entrants"]) == 1
    sitters = [s["name"] for r in state["rounds"] for t in r["tables"] for s in t["sitters"]]
    assert sitters.count("(deleted)") == 1
    standings = json_object(client.get(f"/v1/tournaments/{tid}/standings"))["standings"]
    assert sorted(s["rank"] for s in standings) == [1, 2, 3, 4]
    assert client.get(f"/v1/players/{gone}/tournaments").status_code == 404
