"""The Python client's history calls against a real server process: a player's profile, its matches page by page
and all of them, and the export of its replays read line by line, each line a replay that referees; every refusal
raises ``ApiError`` with its reason; the typed answers have the contract's fields."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import lowest_from_legal, play_match
from tienlen_client import ApiError, Client, KeptMatch, KeptPage, KeptSeat, Player

from tests.clients.people import PASSWORD, Member, new_member
from tienlen.replay import referee

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.xdist_group("live_server")


def _play(client: Client, member: Member, seed: int) -> str:
    """One finished one-hand match of ``member`` (seat 0, with its token) against an Easy bot; its id."""
    seats = [{"type": "remote", "name": "me"}, {"type": "bot", "name": "Bo", "bot": "easy"}]
    created = client.create_match(seats, rules={"hands": 1}, seed=seed, token=member.token)
    final = play_match(client.seat(created["match_id"], member.token), choose=lowest_from_legal)
    assert final["status"] == "finished"
    return str(created["match_id"])


@pytest.fixture(scope="module")
def played(live_server: str) -> tuple[Member, list[str]]:
    """An account that played three matches, and their ids, oldest first."""
    client = Client(live_server)
    member = new_member(client)
    return member, [_play(client, member, seed) for seed in (31, 32, 33)]


def test_a_players_profile_counts_its_kept_matches(live_server: str, played: tuple[Member, list[str]]) -> None:
    """Rule: player(name), in any case, answers the account's name, kind, joined_at, games and wins, typed Player."""
    member, ids = played
    profile = Client(live_server).player(member.name.upper())
    assert set(profile) == Player.__required_keys__
    assert (profile["name"], profile["kind"], profile["games"]) == (member.name, "bot", len(ids))
    assert 0 <= profile["wins"] <= len(ids) and profile["joined_at"]


def test_a_players_matches_come_newest_first_page_by_page(live_server: str, played: tuple[Member, list[str]]) -> None:
    """Rule: player_matches pages with limit and next_cursor, newest first; all_player_matches follows every page."""
    member, ids = played
    client = Client(live_server)
    page = client.player_matches(member.name, limit=2)
    assert set(page) == KeptPage.__required_keys__
    assert [m["match_id"] for m in page["matches"]] == ids[:0:-1] and page["next_cursor"] is not None
    rest = client.player_matches(member.name, cursor=page["next_cursor"], limit=2)
    assert [m["match_id"] for m in rest["matches"]] == ids[:1] and rest["next_cursor"] is None
    kept = rest["matches"][0]
    assert set(kept) == KeptMatch.__required_keys__ and all(set(s) == KeptSeat.__required_keys__ for s in kept["seats"])
    assert (kept["seat"], kept["hands"], kept["abandoned"], kept["rules"]["hands"]) == (0, 1, False, 1)
    mine, bot = kept["seats"]
    assert (mine["name"], mine["account"], mine["bot"]) == (member.name, True, None)
    assert (bot["name"], bot["account"], bot["bot"]) == ("Bo", False, "easy")
    assert {mine["place"], bot["place"]} == {1, 2}
    assert [m["match_id"] for m in client.all_player_matches(member.name, page_size=1)] == ids[::-1]


def test_the_export_is_every_kept_replay_newest_first_and_each_referees(
    live_server: str, played: tuple[Member, list[str]]
) -> None:
    """Rule: export(name) yields one replay a line, newest first, with match_id and ended_at, each refereed as the
    match went; since <= ended_at < until bounds it."""
    member, ids = played
    client = Client(live_server)
    with client.export(member.name) as export:
        replays = list(export)
    assert [r["match_id"] for r in replays] == ids[::-1]
    for replay in replays:
        assert replay["format"] == "tienlen-replay/1" and referee(replay).hands == 1
        assert replay["ended_at"] == next(
            m["ended_at"] for m in client.all_player_matches(member.name) if m["match_id"] == replay["match_id"]
        )
    middle = replays[1]["ended_at"]
    assert [r["match_id"] for r in client.export(member.name, since=middle)] == ids[:0:-1]
    assert [r["match_id"] for r in client.export(member.name, until=middle)] == ids[:1]


def test_an_unknown_player_is_404_player_not_found_for_each_history_call(live_server: str) -> None:
    """Rule: the profile, the match list and the export of a name no account has answer 404 player_not_found."""
    client = Client(live_server)
    calls: list[Any] = [
        lambda: client.player("nobody-here"),
        lambda: client.player_matches("nobody-here"),
        lambda: next(client.export("nobody-here")),
        lambda: next(client.all_player_matches("nobody-here")),
    ]
    for call in calls:
        with pytest.raises(ApiError) as missing:
            call()
        assert (missing.value.status, missing.value.reason) == (404, "player_not_found")


def test_bad_history_queries_are_422_invalid_request(live_server: str, played: tuple[Member, list[str]]) -> None:
    """Rule: a limit outside 1..100, a cursor the server did not give and a since that is no date-time are 422."""
    member, _ = played
    client = Client(live_server)
    calls: list[Any] = [
        lambda: client.player_matches(member.name, limit=0),
        lambda: client.player_matches(member.name, limit=101),
        lambda: client.player_matches(member.name, cursor="not-a-cursor"),
        lambda: next(client.export(member.name, since="yesterday")),
    ]
    for call in calls:
        with pytest.raises(ApiError) as refused:
            call()
        assert (refused.value.status, refused.value.reason) == (422, "invalid_request")


def test_a_deleted_accounts_history_is_gone_and_its_seats_read_deleted(live_server: str) -> None:
    """Rule: after delete_account the profile is 404, and the other seat's kept match names it (deleted)."""
    client = Client(live_server)
    gone, other = new_member(client), new_member(client)
    seats: list[dict[str, Any]] = [{"type": "remote", "name": "me"}, {"type": "open", "open": True}]
    created = client.create_match(seats, rules={"hands": 1}, token=gone.token)
    client.join(created["match_id"], token=other.token)
    players = [
        threading.Thread(target=play_match, args=(Client(live_server).seat(created["match_id"], m.token),))
        for m in (gone, other)
    ]
    for player in players:
        player.start()
    for player in players:
        player.join(timeout=120)
    assert client.match(created["match_id"])["status"] == "finished"
    client.delete_account(gone.session, PASSWORD)
    with pytest.raises(ApiError) as missing:
        client.player(gone.name)
    assert missing.value.reason == "player_not_found"
    (kept,) = client.player_matches(other.name)["matches"]
    assert kept["match_id"] == created["match_id"] and kept["seats"][0]["name"] == "(deleted)"


def _schema(name: str) -> dict[str, Any]:
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    found: dict[str, Any] = contract["components"]["schemas"][name]
    return found


@pytest.mark.parametrize(
    ("typed", "schema"), [(Player, "Player"), (KeptPage, "KeptPage"), (KeptMatch, "KeptMatch"), (KeptSeat, "KeptSeat")]
)
def test_the_history_types_have_the_contracts_fields(typed: Any, schema: str) -> None:
    """Rule: each typed answer of the history calls has exactly the fields of the contract's schema, all required."""
    fields = _schema(schema)
    assert typed.__required_keys__ == set(fields["properties"]) == set(fields["required"])
