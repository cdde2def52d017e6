"""The Python client's moderator calls against a real server process with a moderator token: the open reports
(typed, with their ids), dismissing one, removing a message, muting and unmuting an account's chat, featuring a
match on the live table, closing an account, and the audit list of those acts page by page; refusals raised as an
ApiError with their reason."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, OpenReport

from tests.clients.people import new_member
from tests.support.servers import MODERATOR_TOKEN as MODERATOR

pytestmark = pytest.mark.xdist_group("live_server")


def test_a_moderator_works_through_the_reports_and_finds_each_act_in_the_audit(social_server: str) -> None:
    """Rule: with the moderator token the client lists the open reports, dismisses one (its message stays) and
    removes another's message (its report closes), mutes and unmutes an account's chat, features and unfeatures a
    match, closes an account; the audit list names each act, newest first, over two pages."""
    client = Client(social_server)
    host, watcher, first, second = (new_member(client) for _ in range(4))
    seats = [{"name": host.name}, {"name": "Bot", "bot": "easy"}]
    match_id = client.create_match(seats, token=host.token)["match_id"]
    kept = client.chat(match_id, watcher.token, "kept words", room="spectators")
    removed = client.chat(match_id, watcher.token, "removed words", room="spectators")
    client.report(match_id, kept["seq"], first.token, "rude?")
    client.report(match_id, removed["seq"], second.token)

    def open_reports() -> list[OpenReport]:
        return [r for r in client.reports(MODERATOR, limit=100)["reports"] if r["match_id"] == match_id]

    reported = open_reports()
    assert [(r["message"]["text"], r["reporter"], r["why"]) for r in reported] == [
        ("kept words", first.name, "rude?"),
        ("removed words", second.name, None),
    ]
    client.dismiss_report(MODERATOR, reported[0]["id"])
    client.remove_message(MODERATOR, match_id, removed["seq"])
    assert open_reports() == []
    assert [m["text"] for m in client.chat_messages(match_id)] == ["kept words", ""]

    mute = client.mute_chat(MODERATOR, watcher.name, 5)
    assert mute["name"] == watcher.name and mute["until"]
    with pytest.raises(ApiError) as muted:
        client.chat(match_id, watcher.token, "let me speak", room="spectators")
    assert (muted.value.status, muted.value.reason) == (403, "chat_muted")
    client.unmute_chat(MODERATOR, watcher.name)
    client.chat(match_id, watcher.token, "free again", room="spectators")

    client.feature_match(MODERATOR, match_id)
    assert client.send("GET", "/v1/live").json()["match"]["match_id"] == match_id
    client.unfeature_match(MODERATOR)
    client.close_account(MODERATOR, second.name)
    with pytest.raises(ApiError) as closed:
        client.me(second.token)
    assert closed.value.status == 401

    page = client.audit(MODERATOR, limit=4)
    assert page["next_cursor"] is not None
    rest = client.audit(MODERATOR, limit=3, cursor=page["next_cursor"])
    acts = [(a["act"], a["target"]) for a in page["acts"] + rest["acts"]]
    assert acts == [
        ("account_closed", second.name),
        ("match_unfeatured", "live"),
        ("match_featured", match_id),
        ("chat_unmuted", watcher.name),
        ("chat_muted", watcher.name),
        ("message_removed", f"{match_id}/{removed['seq']}"),
        ("report_dismissed", f"{match_id}/{kept['seq']}"),
    ]
    assert rest["acts"][-1]["detail"] == f"reported by {first.name}"


def test_the_moderator_calls_raise_their_refusals(social_server: str) -> None:
    """Rule: another token is 403 not_moderator on every moderator call; a report dismissed already (or never
    made) is 404 report_not_found, a message removed already 404 message_not_found, an unknown account 404
    player_not_found."""
    client = Client(social_server)
    member = new_member(client)
    refusals: list[Callable[[str], object]] = [
        lambda token: client.reports(token),
        lambda token: client.audit(token),
        lambda token: client.mute_chat(token, member.name, 1),
        lambda token: client.unmute_chat(token, member.name),
        lambda token: client.close_account(token, member.name),
        lambda token: client.dismiss_report(token, "nothing"),
        lambda token: client.unfeature_match(token),
    ]
    for call in refusals:
        with pytest.raises(ApiError) as refused:
            call(member.token)
        assert (refused.value.status, refused.value.reason) == (403, "not_moderator")
    match_id = client.create_match([{"name": member.name}, {"name": "Bot", "bot": "easy"}], token=member.token)[
        "match_id"
    ]
    said = client.chat(match_id, member.token, "hello")
    client.remove_message(MODERATOR, match_id, said["seq"])
    missing: list[tuple[Callable[[], object], str]] = [
        (lambda: client.dismiss_report(MODERATOR, f"{match_id}:{said['seq']}:nobody"), "report_not_found"),
        (lambda: client.remove_message(MODERATOR, match_id, said["seq"]), "message_not_found"),
        (lambda: client.mute_chat(MODERATOR, "nobody" + member.name, 1), "player_not_found"),
    ]
    for act, reason in missing:
        with pytest.raises(ApiError) as refused_404:
            act()
        assert (refused_404.value.status, refused_404.value.reason) == (404, reason)
    assert client.me(member.token)["name"] == member.name
