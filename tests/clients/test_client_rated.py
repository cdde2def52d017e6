"""The Python client's rated-play calls against a real server process: a rated challenge to a house bot, played to
its end with the account's one token, moves the account's rating, which its profile and the leaderboard then show;
refusals come back as ApiError with their reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import play_match
from tienlen_client import ApiError, Client

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")


def test_a_rated_challenge_played_out_moves_the_rating_the_profile_and_board_show(live_server: str) -> None:
    client = Client(live_server)
    member = new_member(client, kind="human")
    made = client.challenge(member.token, ["easy"], 2, preset="ladder", rated=True)
    match, match_id = made["match"], made["match_id"]
    assert made["status"] == "started" and match is not None and match_id is not None
    assert match["rated"] is True and match["status"] == "playing"
    final = play_match(client.seat(match_id, member.token))
    assert final["status"] == "finished"
    ratings = client.player(member.name)["ratings"]
    assert [(r["players"], r["games"], r["provisional"]) for r in ratings] == [(2, 1, True)]
    kept = client.player_matches(member.name)["matches"][0]
    mine = kept["seats"][kept["seat"]]
    assert kept["rated"] and mine["rating_after"] == ratings[0]["rating"] and mine["rating_before"] == 1500
    names: list[str] = []
    cursor = None
    while True:
        page = client.leaderboard(players=2, kind="human", cursor=cursor, limit=100)
        names += [entry["name"] for entry in page["entries"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert member.name in names
    assert "easy" in [e["name"] for e in client.leaderboard(players=2, kind="bot", limit=100)["entries"]]


@pytest.mark.parametrize(
    ("to", "players", "status", "reason"),
    [(["nobody_here"], 2, 404, "player_not_found"), (["easy"], 5, 422, "invalid_request")],
)
def test_a_refused_challenge_raises_its_reason(
    live_server: str, to: list[str], players: int, status: int, reason: str
) -> None:
    client = Client(live_server)
    member = new_member(client)
    with pytest.raises(ApiError) as refused:
        client.challenge(member.token, to, players)
    assert (refused.value.status, refused.value.reason, refused.value.attempts) == (status, reason, 1)
