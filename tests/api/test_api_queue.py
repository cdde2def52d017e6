"""Quick play over the API: tickets, tables made from the queue, house bots after the fill time, leaving.

Rules checked: queueing takes an account (401) and one ticket at a time (409 already_queued); four accounts
queued for 4 seats share one match, each bound to its own seat, told `queue_matched` then `match_started`; with
a fill time of 0 one player is seated at once with house bots; a long poll of a ticket answers when it is
matched; two servers on one Redis share one queue; tickets queued and paired from many threads are each
matched exactly once; a pairing whose worker died is finished or undone; another account's ticket is not
found; a matched ticket cannot leave; bad bodies and queries are refused and change nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.accounts import PASSWORD, auth, fresh_name, session_of
from tests.support.api import json_object
from tienlen.api import create_app
from tienlen.api.services import services_of
from tienlen.bots import LEVELS
from tienlen.local_redis import LocalRedis
from tienlen.service import MatchServices
from tienlen.service.queue import RECOVER_AFTER_S

QUEUE_DB = 5  # a database of the tests' Redis no other test file uses: pools are shared by everything on one


def queue_app(redis_server: LocalRedis, fill_s: float) -> Flask:
    """An app on the queue tests' database, with the fill time given and small bots."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    settings |= {"TIENLEN_QUEUE_FILL_S": str(fill_s)}
    return create_app({"REDIS_URL": f"{redis_server.url.rsplit('/', 1)[0]}/{QUEUE_DB}", **settings})


def service_of(app: Flask) -> MatchServices:
    """The app's match service."""
    found: MatchServices = services_of(app).game
    return found


def drain(app: Flask) -> None:
    """Take every waiting ticket out of the queue (so the next test starts with an empty one)."""
    queue = service_of(app).queue.tickets
    for pool in queue.pools():
        for waiting in queue.waiting(pool):
            record = queue.get(waiting.ticket)
            if record is not None:
                queue.leave(record)


@pytest.fixture
def slow_fill(redis_server: LocalRedis) -> Iterator[Flask]:
    """An app whose queue waits a minute before house bots fill a table."""
    app = queue_app(redis_server, 60)
    drain(app)
    yield app
    drain(app)


@pytest.fixture
def no_wait(redis_server: LocalRedis) -> Iterator[Flask]:
    """An app whose queue fills a table with house bots at once."""
    app = queue_app(redis_server, 0)
    drain(app)
    yield app
    drain(app)


def enqueue(client: FlaskClient, token: str, **body: Any) -> dict[str, Any]:
    """Queue the token's account; assert 202."""
    answer = client.post("/v1/queue", json=body, headers=auth(token))
    assert answer.status_code == 202, answer.json
    return json_object(answer)


def ticket(client: FlaskClient, token: str, ticket_id: str, wait: float = 0) -> dict[str, Any]:
    """A ticket; assert 200."""
    answer = client.get(f"/v1/queue/{ticket_id}?wait={wait}", headers=auth(token))
    assert answer.status_code == 200, answer.json
    return json_object(answer)


def test_four_accounts_queued_for_four_seats_share_one_match_each_in_its_own_seat(slow_fill: Flask) -> None:
    """Rule: a full table forms as soon as enough close players wait; every ticket names the same match and a
    different seat, each seat is bound to its account (whose token acts for it), and each account hears
    match_started then queue_matched."""
    client = slow_fill.test_client()
    tokens = [session_of(client, fresh_name("q")) for _ in range(4)]
    tickets = [enqueue(client, token, players=4, rated=True) for token in tokens]
    assert [t["status"] for t in tickets[:3]] == ["waiting"] * 3
    assert tickets[3]["status"] == "matched"
    found = [ticket(client, token, t["ticket"]) for token, t in zip(tokens, tickets, strict=True)]
    match_ids = {t["match_id"] for t in found}
    assert len(match_ids) == 1 and sorted(t["seat"] for t in found) == [0, 1, 2, 3]
    (match_id,) = match_ids
    match = json_object(client.get(f"/v1/matches/{match_id}"))
    assert match["rated"] is True and all(s["account"] for s in match["seats"]) and match["status"] == "playing"
    for token, t in zip(tokens, found, strict=True):
        view = client.get(f"/v1/matches/{match_id}/view", headers=auth(token))
        assert view.status_code == 200 and json_object(view)["seat"] == t["seat"]
        told = [e["type"] for e in json_object(client.get("/v1/me/events", headers=auth(token)))["events"]]
        assert told[0] == "match_started" and told.count("queue_matched") == 1  # dealt, then the ticket confirmed


def test_with_a_fill_time_of_zero_one_player_is_seated_at_once_with_house_bots(no_wait: Flask) -> None:
    """Rule: after the fill time (0 here) the seats nobody took go to one house bot level."""
    client = no_wait.test_client()
    token = session_of(client, fresh_name("q"))
    made = enqueue(client, token, players=3, preset="classic", rated=False)
    assert made["status"] == "matched" and made["seat"] == 0 and made["preset"] == "classic"
    match = json_object(client.get(f"/v1/matches/{made['match_id']}"))
    bots = [s["bot"] for s in match["seats"][1:]]
    assert len(match["seats"]) == 3 and bots[0] in LEVELS and bots[0] == bots[1]
    assert match["rated"] is False


def test_a_queued_match_is_fair_dealt_with_the_tickets_entropy(no_wait: Flask) -> None:
    """Rule: a quick-play match shows its fair deal's commitment (no secret while played) and each player's entropy
    given when queuing; entropy that is not 0 to 64 printable ASCII characters is 422 invalid_request, no ticket."""
    client = no_wait.test_client()
    token = session_of(client, fresh_name("q"))
    bad = client.post("/v1/queue", json={"players": 2, "rated": False, "entropy": "x" * 65}, headers=auth(token))
    assert (bad.status_code, json_object(bad)["reason"]) == (422, "invalid_request")
    made = enqueue(client, token, players=2, rated=False, entropy="q-7f3a")
    assert made["status"] == "matched"
    fair = json_object(client.get(f"/v1/matches/{made['match_id']}"))["fair_deal"]
    assert fair["protocol"] == "tienlen-deal/1" and len(fair["commitment"]) == 64 and fair["secret"] is None
    assert fair["entropy"] == ["q-7f3a", ""], "the player's entropy; the house bot gives none"


def test_a_long_poll_of_a_ticket_answers_when_it_is_matched(slow_fill: Flask) -> None:
    """Rule: GET /v1/queue/{ticket}?wait= answers as soon as the ticket is matched, not at the wait's end."""
    client = slow_fill.test_client()
    tokens = [session_of(client, fresh_name("q")) for _ in range(2)]
    first = enqueue(client, tokens[0], players=2)
    answers: list[dict[str, Any]] = []

    def poll() -> None:
        answers.append(ticket(slow_fill.test_client(), tokens[0], first["ticket"], wait=10))

    waiter = threading.Thread(target=poll)
    started = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    enqueue(client, tokens[1], players=2)
    waiter.join(10)
    assert answers and answers[0]["status"] == "matched" and time.monotonic() - started < 5


def test_two_servers_on_one_redis_share_one_queue(redis_server: LocalRedis, slow_fill: Flask) -> None:
    """Rule: tickets queued on two servers sit at one table (the queue is in Redis, not in a process)."""
    other = queue_app(redis_server, 60)
    a, b = slow_fill.test_client(), other.test_client()
    tokens = [session_of(a, fresh_name("q")) for _ in range(2)]
    first = enqueue(a, tokens[0], players=2, preset="ladder")
    second = enqueue(b, tokens[1], players=2, preset="ladder")
    assert second["status"] == "matched"
    assert ticket(a, tokens[0], first["ticket"])["match_id"] == second["match_id"]


def test_tickets_queued_and_paired_from_many_threads_are_each_matched_once(
    redis_server: LocalRedis, slow_fill: Flask
) -> None:
    """Rule: however the pairers race (four servers' sweepers, every enqueue), no ticket is matched twice and no
    account sits in two matches: 24 accounts make exactly 6 tables of 4."""
    apps = [slow_fill, *(queue_app(redis_server, 60) for _ in range(3))]
    client = slow_fill.test_client()
    tokens = [session_of(client, fresh_name("q")) for _ in range(24)]
    stop = threading.Event()

    def sweeper(app: Flask) -> None:
        while not stop.is_set():
            service_of(app).queue.pair(force=True)

    def queue(index: int) -> None:
        enqueue(apps[index % 4].test_client(), tokens[index], players=4, preset="classic")

    sweepers = [threading.Thread(target=sweeper, args=(app,)) for app in apps]
    joiners = [threading.Thread(target=queue, args=(i,)) for i in range(24)]
    for thread in sweepers + joiners:
        thread.start()
    for thread in joiners:
        thread.join(20)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and service_of(slow_fill).queue.tickets.waiting("4:classic:1"):
        time.sleep(0.05)
    stop.set()
    for thread in sweepers:
        thread.join(10)
    seats: dict[str, list[int]] = {}
    for token in tokens:
        events = json_object(client.get("/v1/me/events", headers=auth(token)))["events"]
        matched = [e for e in events if e["type"] == "queue_matched"]
        assert len(matched) == 1, matched
        seats.setdefault(matched[0]["match_id"], []).append(matched[0]["seat"])
    assert len(seats) == 6 and all(sorted(taken) == [0, 1, 2, 3] for taken in seats.values())


def test_a_pairing_whose_worker_died_is_undone_and_its_tickets_wait_again(slow_fill: Flask) -> None:
    """Rule: tickets claimed for a match that was never stored wait again after RECOVER_AFTER_S (none is lost);
    one claimed for a match that was stored is confirmed."""
    service = service_of(slow_fill)
    client = slow_fill.test_client()
    tokens = [session_of(client, fresh_name("q")) for _ in range(2)]
    tickets = [enqueue(client, token, players=3, preset="ladder")["ticket"] for token in tokens]
    assert service.queue.tickets.claim("3:ladder:1", "m" * 22, tickets, service.core.now())  # and the worker dies here
    assert [ticket(client, t, i)["status"] for t, i in zip(tokens, tickets, strict=True)] == ["waiting"] * 2
    assert service.queue.tickets.waiting("3:ladder:1") == []
    real = service.core.now
    service.core.now = lambda: real() + RECOVER_AFTER_S + 1
    try:
        service.queue.pair(force=True)
    finally:
        service.core.now = real
    assert sorted(w.ticket for w in service.queue.tickets.waiting("3:ladder:1")) == sorted(tickets)


def test_refusals_name_their_reason_and_change_nothing(slow_fill: Flask) -> None:
    """Rule: no account 401; a second ticket 409 already_queued; another account's or an unknown ticket 404
    ticket_not_found; a matched ticket cannot leave (409 already_matched); bad bodies 422."""
    client = slow_fill.test_client()
    mine, theirs = session_of(client, fresh_name("q")), session_of(client, fresh_name("q"))
    made = enqueue(client, mine, players=4)
    cases: list[tuple[str, str, dict[str, Any] | None, dict[str, str], int, str]] = [
        ("POST", "/v1/queue", {"players": 4}, {}, 401, "invalid_token"),
        ("POST", "/v1/queue", {"players": 4}, auth(mine), 409, "already_queued"),
        ("POST", "/v1/queue", {"players": 5}, auth(theirs), 422, "invalid_request"),
        ("POST", "/v1/queue", {"preset": "nope"}, auth(theirs), 422, "invalid_request"),
        ("POST", "/v1/queue", {"rated": "yes"}, auth(theirs), 422, "invalid_request"),
        ("GET", f"/v1/queue/{made['ticket']}", None, auth(theirs), 404, "ticket_not_found"),
        ("GET", f"/v1/queue/{'x' * 16}", None, auth(mine), 404, "ticket_not_found"),
        ("GET", f"/v1/queue/{made['ticket']}?wait=31", None, auth(mine), 422, "invalid_request"),
        ("DELETE", f"/v1/queue/{made['ticket']}", None, auth(theirs), 404, "ticket_not_found"),
    ]
    for method, path, body, headers, status, reason in cases:
        answer = client.open(path, method=method, json=body, headers=headers)
        assert (answer.status_code, json_object(answer)["reason"]) == (status, reason), (method, path, body)
    assert ticket(client, mine, made["ticket"])["status"] == "waiting"
    assert client.get("/v1/queue/" + "x" * 16, headers=auth(theirs)).status_code == 404
    assert client.delete(f"/v1/queue/{made['ticket']}", headers=auth(mine)).status_code == 204
    assert ticket(client, mine, made["ticket"])["status"] == "left"
    again = enqueue(client, mine, players=2, preset="ladder")
    partner = enqueue(client, theirs, players=2, preset="ladder")
    assert partner["status"] == "matched"
    answer = client.delete(f"/v1/queue/{again['ticket']}", headers=auth(mine))
    assert (answer.status_code, json_object(answer)["reason"]) == (409, "already_matched")


def test_deleting_an_account_takes_its_waiting_ticket_out_of_the_queue(slow_fill: Flask) -> None:
    """Rule: a deleted account waits for no table: its ticket leaves its pool (nobody is seated with it)."""
    client = slow_fill.test_client()
    token = session_of(client, fresh_name("q"))
    made = enqueue(client, token, players=2, preset="classic")
    queue = service_of(slow_fill).queue.tickets
    assert [w.ticket for w in queue.waiting("2:classic:1")] == [made["ticket"]]
    gone = client.delete("/v1/me", json={"password": PASSWORD}, headers=auth(token))
    assert gone.status_code == 204, gone.json
    assert queue.waiting("2:classic:1") == []
    found = queue.get(made["ticket"])
    assert found is not None and found.status == "left"


def test_a_pairing_that_stalled_past_its_undoing_calls_its_match_off(
    slow_fill: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: when a pairing was undone (its tickets put back) before its worker stored the match, the match it
    stored anyway is deleted and the tickets keep waiting: no account sits at two tables."""
    service = service_of(slow_fill)
    client = slow_fill.test_client()
    tokens = [session_of(client, fresh_name("q")) for _ in range(2)]
    first = enqueue(client, tokens[0], players=2, preset="classic", rated=False)
    made: list[str] = []
    confirm = service.queue.tickets.confirm

    def undone_first(match_id: str, tickets: list[Any], now: float) -> bool:
        made.append(match_id)
        service.queue.tickets.put_back(match_id, "2:classic:0", [t.ticket for t in tickets])  # the recovery came first
        return confirm(match_id, tickets, now)

    monkeypatch.setattr(service.queue.tickets, "confirm", undone_first)
    second = enqueue(client, tokens[1], players=2, preset="classic", rated=False)
    assert second["status"] == "waiting" and ticket(client, tokens[0], first["ticket"])["status"] == "waiting"
    assert made and client.get(f"/v1/matches/{made[0]}").status_code == 404
    waiting = service.queue.tickets.waiting("2:classic:0")
    assert sorted(w.ticket for w in waiting) == sorted([first["ticket"], second["ticket"]])


def test_the_open_ticket_is_found_from_any_client_and_leaving_ends_a_long_poll_elsewhere(slow_fill: Flask) -> None:
    """Rule: GET /v1/queue answers the account's open ticket (404 ticket_not_found without one); leaving it from
    one client ends another client's long poll of it at once (the inbox says queue_left)."""
    client = slow_fill.test_client()
    token = session_of(client, fresh_name("q"))
    none = client.get("/v1/queue", headers=auth(token))
    assert (none.status_code, json_object(none)["reason"]) == (404, "ticket_not_found")
    made = enqueue(client, token, players=3, preset="ladder")
    assert json_object(client.get("/v1/queue", headers=auth(token)))["ticket"] == made["ticket"]
    answers: list[dict[str, Any]] = []

    def poll() -> None:
        answers.append(ticket(slow_fill.test_client(), token, made["ticket"], wait=10))

    waiter = threading.Thread(target=poll)
    started = time.monotonic()
    waiter.start()
    time.sleep(0.3)
    assert client.delete(f"/v1/queue/{made['ticket']}", headers=auth(token)).status_code == 204
    waiter.join(10)
    assert answers and answers[0]["status"] == "left" and time.monotonic() - started < 5
    assert client.get("/v1/queue", headers=auth(token)).status_code == 404
    told = [e["type"] for e in json_object(client.get("/v1/me/events", headers=auth(token)))["events"]]
    assert told == ["queue_left"]
