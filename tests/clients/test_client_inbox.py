"""The Python client's calls of a bot's one connection and of quick play, against a real server process: the inbox
read page by page and followed as a stream that resumes after a drop, the challenge settings, the bots online, a
ticket taken, read and given up, and a long poll cut from another thread."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, ConnectionFailed

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")


def test_the_inbox_is_read_page_by_page_and_followed_as_a_stream_that_resumes_after_a_drop(live_server: str) -> None:
    """Rule: a reconnecting client misses nothing: the stream resumes after the last seq it yielded
    (Last-Event-ID), giving the same events, in the same order, as the long poll."""
    client = Client(live_server)
    member = new_member(client)
    client.challenge(member.token, ["easy"], 2, preset="ladder")  # match_started, and maybe a your_turn
    page = client.my_events(member.token)
    assert page["events"][0]["type"] == "match_started" and page["last_seq"] == page["events"][-1]["seq"]
    assert client.my_events(member.token, after=page["last_seq"])["events"] == []
    with client.follow_my_events(member.token) as stream:
        told = [next(stream) for _ in range(page["last_seq"])]
        stream.disconnect()
        client.challenge(member.token, ["easy"], 2, preset="ladder")
        after_the_drop = next(stream)
    assert told == page["events"]
    assert stream.connections == 2 and after_the_drop["seq"] == page["last_seq"] + 1
    assert after_the_drop["type"] == "match_started"


def test_a_refused_token_ends_the_inbox_stream_at_once(live_server: str) -> None:
    client = Client(live_server)
    with pytest.raises(ApiError) as refused:
        next(client.follow_my_events("not a token"))
    assert (refused.value.status, refused.value.reason) == (401, "invalid_token")


def test_settings_and_the_bots_online(live_server: str) -> None:
    """Rule: the settings say which challenges the account takes (changed with the account scope, fields left out
    unchanged); a bot account that listened to its inbox is listed online with them."""
    client = Client(live_server)
    member = new_member(client)
    assert client.my_settings(member.token) == {"rated": True, "casual": True, "friends": False}
    assert client.set_my_settings(member.session, rated=False) == {"rated": False, "casual": True, "friends": False}
    with pytest.raises(ApiError) as refused:
        client.set_my_settings(member.token, casual=False)  # a personal token with scope play only
    assert (refused.value.status, refused.value.reason) == (403, "scope_missing")
    client.my_events(member.token)
    (listed,) = [bot for bot in client.bots() if bot["name"] == member.name]
    assert listed["settings"] == {"rated": False, "casual": True} and listed["ratings"] == []


def test_a_ticket_is_taken_read_and_given_up(live_server: str) -> None:
    """Rule: one ticket an account (409 already_queued; GET /v1/queue names it); it waits, then is left (204; the
    inbox says queue_left), after which a new one may be taken; another's ticket is not found."""
    client = Client(live_server)
    member, other = new_member(client), new_member(client)
    ticket = client.enqueue(member.token, players=3, preset="ladder", rated=False)
    assert (ticket["status"], ticket["players"], ticket["rated"], ticket["match_id"]) == ("waiting", 3, False, None)
    with pytest.raises(ApiError) as refused:
        client.enqueue(member.token, players=3)
    assert (refused.value.status, refused.value.reason) == (409, "already_queued")
    assert client.ticket(member.token, ticket["ticket"])["status"] == "waiting"
    assert client.my_ticket(member.token) == client.ticket(member.token, ticket["ticket"])
    with pytest.raises(ApiError) as refused:
        client.ticket(other.token, ticket["ticket"])
    assert (refused.value.status, refused.value.reason) == (404, "ticket_not_found")
    client.leave_queue(member.token, ticket["ticket"])
    assert client.ticket(member.token, ticket["ticket"])["status"] == "left"
    with pytest.raises(ApiError) as refused:
        client.my_ticket(member.token)
    assert (refused.value.status, refused.value.reason) == (404, "ticket_not_found")
    last = client.my_events(member.token)["events"][-1]
    assert (last["type"], last.get("ticket")) == ("queue_left", ticket["ticket"])
    client.leave_queue(member.token, client.enqueue(member.token, players=3, preset="ladder")["ticket"])


def test_interrupt_cuts_a_long_poll_from_another_thread_without_a_retry(live_server: str) -> None:
    client = Client(live_server)
    member = new_member(client)
    client.my_events(member.token)  # the connection is open and kept
    failures: list[BaseException] = []

    def wait() -> None:
        try:
            client.my_events(member.token, wait=20)
        except ConnectionFailed as error:
            failures.append(error)

    waiting = threading.Thread(target=wait)
    waiting.start()
    time.sleep(0.5)
    started = time.monotonic()
    client.interrupt()
    waiting.join(5)
    assert time.monotonic() - started < 2 and len(failures) == 1
    assert isinstance(failures[0], ConnectionFailed) and failures[0].attempts == 1
    assert client.my_events(member.token)["events"] == []  # the next call opens a new connection


def test_the_clients_inbox_event_types_are_the_contracts() -> None:
    """Rule: the client's InboxEventType lists exactly the OpenAPI document's (a new type is added to both)."""
    import json
    import typing
    from pathlib import Path

    from tienlen_client.inbox import InboxEventType

    spec = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
    assert list(typing.get_args(InboxEventType)) == spec["components"]["schemas"]["InboxEventType"]["enum"]
