"""The Python client's challenge calls against a real server process: a challenge between two accounts read,
accepted (the match starts, the account's token plays its seat), declined and withdrawn; refusals come back as
ApiError with their reason."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client

from tests.clients.people import Member, new_member

pytestmark = pytest.mark.xdist_group("live_server")


def online(client: Client) -> Member:
    """A new account listening to its inbox (so it can be challenged)."""
    member = new_member(client, kind="human")
    assert client.send("GET", "/v1/me/events", token=member.token).status == 200
    return member


def test_a_challenge_between_two_accounts_is_read_accepted_and_played_with_the_accounts_tokens(
    live_server: str,
) -> None:
    client = Client(live_server)
    sender, friend = online(client), online(client)
    made = client.challenge(sender.token, [friend.name], 2, preset="ladder")
    assert made["status"] == "pending" and made["from"] == sender.name and made["to"] == [friend.name]
    assert client.challenge_status(friend.token, made["challenge_id"]) == made
    started = client.accept_challenge(friend.token, made["challenge_id"])
    assert started["status"] == "started" and started["match_id"] is not None and started["tokens"] == []
    assert client.accept_challenge(friend.token, made["challenge_id"]) == started, "an accept sent again"
    assert client.seat(started["match_id"], friend.token).view()["seat"] == 1
    assert client.seat(started["match_id"], sender.token).view()["seat"] == 0


def test_a_challenge_declined_or_withdrawn_is_closed(live_server: str) -> None:
    client = Client(live_server)
    sender, friend = online(client), online(client)
    declined = client.decline_challenge(friend.token, client.challenge(sender.token, [friend.name])["challenge_id"])
    assert declined["status"] == "declined" and declined["declined_by"] == friend.name
    challenge_id = client.challenge(sender.token, [friend.name])["challenge_id"]
    client.withdraw_challenge(sender.token, challenge_id)
    assert client.challenge_status(sender.token, challenge_id)["status"] == "withdrawn"
    with pytest.raises(ApiError) as refused:
        client.withdraw_challenge(sender.token, challenge_id)
    assert (refused.value.status, refused.value.reason, refused.value.attempts) == (409, "challenge_closed", 1)
    with pytest.raises(ApiError) as refused:
        client.accept_challenge(sender.token, challenge_id)
    assert (refused.value.status, refused.value.reason) == (403, "not_challenged")
