"""Tournaments as a resource: create, list, get, enter, withdraw, cancel, and every refusal (a clear 4xx with a
reason, nothing changed)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import json_object
from tests.support.lifecycle import service_of


def terms(**changed: Any) -> dict[str, Any]:
    """Swiss terms that start when full (4 entrants at one table of 4), changed as given."""
    base: dict[str, Any] = {"name": "Sunday Swiss", "format": "swiss", "players": 4, "hands": 1, "rounds": 1}
    base |= {"min_entrants": 4, "max_entrants": 4, "turn_seconds": 30}
    return base | changed


def account(client: FlaskClient, kind: str = "human") -> str:
    """A fresh account's session token."""
    return str(sign_up(client, fresh_name("t"), kind=kind)["token"])


def create(client: FlaskClient, token: str, **changed: Any) -> dict[str, Any]:
    """Create a tournament; assert 201."""
    answer = client.post("/v1/tournaments", json=terms(**changed), headers=auth(token))
    assert answer.status_code == 201, answer.json
    return json_object(answer)


def refused(answer: Any) -> tuple[int, str]:
    """Status and reason of a refusal."""
    return answer.status_code, answer.get_json()["reason"]


def test_a_created_tournament_is_open_listed_and_read_by_anyone(client: FlaskClient) -> None:
    """Rule: a tournament is created open with its terms; the open list shows it; anyone reads it (no token)."""
    token = account(client)
    created = create(client, token, starts_at="2100-01-01T00:00:00Z", min_entrants=4, max_entrants=8)
    assert created["status"] == "open" and created["terms"]["format"] == "swiss" and created["entrants"] == []
    assert created["terms"]["starts_at"].startswith("2100-01-01") and created["deal_secret"] is None
    assert len(created["deal_commitment"]) == 64
    tid = created["tournament_id"]
    read = json_object(client.get(f"/v1/tournaments/{tid}"))
    assert read["tournament_id"] == tid and read["you"] is None and read["entered"] is False
    listed = json_object(client.get("/v1/tournaments?status=open&limit=100"))
    assert tid in [t["tournament_id"] for t in listed["tournaments"]]


def test_the_list_pages_with_a_cursor(client: FlaskClient) -> None:
    """Rule: pages of `limit` follow each other by `next_cursor` without repeats."""
    ids = set()
    for _ in range(2):
        token = account(client)
        for _ in range(3):
            ids.add(create(client, token, starts_at="2099-06-01T00:00:00Z")["tournament_id"])
    seen: list[str] = []
    cursor = None
    while True:
        query = "/v1/tournaments?status=open&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = json_object(client.get(query))
        seen += [t["tournament_id"] for t in page["tournaments"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) and ids <= set(seen)


def test_entering_and_withdrawing_before_the_start(client: FlaskClient) -> None:
    """Rule: PUT entry is 201 when entered now, 200 again; DELETE withdraws (204); a second withdrawal 409; the
    list read with the entrant's token says `entered` until it withdraws (false for everyone without a token)."""
    creator = account(client)
    tid = create(client, creator, starts_at="2100-01-01T00:00:00Z", max_entrants=8)["tournament_id"]
    player = account(client)
    first = client.put(f"/v1/tournaments/{tid}/entry", headers=auth(player))
    assert first.status_code == 201 and json_object(first)["entered"] is True
    again = client.put(f"/v1/tournaments/{tid}/entry", headers=auth(player))
    assert again.status_code == 200 and len(json_object(again)["entrants"]) == 1
    listed = json_object(client.get("/v1/tournaments?status=open&limit=100", headers=auth(player)))["tournaments"]
    assert [t["entered"] for t in listed if t["tournament_id"] == tid] == [True]  # the list says so with a token
    assert not any(
        t["entered"] for t in json_object(client.get("/v1/tournaments?status=open&limit=100"))["tournaments"]
    )
    assert client.delete(f"/v1/tournaments/{tid}/entry", headers=auth(player)).status_code == 204
    listed = json_object(client.get("/v1/tournaments?status=open&limit=100", headers=auth(player)))["tournaments"]
    assert [t["entered"] for t in listed if t["tournament_id"] == tid] == [False]
    read = json_object(client.get(f"/v1/tournaments/{tid}", headers=auth(player)))
    assert read["entered"] is False and read["entrants"][0]["withdrawn"] is True
    assert refused(client.delete(f"/v1/tournaments/{tid}/entry", headers=auth(player))) == (409, "not_entered")
    events = json_object(client.get(f"/v1/tournaments/{tid}/events"))["events"]
    assert [e["type"] for e in events] == ["entrant_joined", "entrant_left"]


def test_filling_a_when_full_tournament_starts_it_and_seats_round_one(client: FlaskClient) -> None:
    """Rule: the entry that reaches max_entrants starts a "when full" tournament: running, round 1 seated, each
    entrant told `tournament_started` and `tournament_table_ready` (with its seat), its table in `you`."""
    creator = account(client)
    tid = create(client, creator)["tournament_id"]
    players = [account(client) for _ in range(4)]
    for token in players:
        assert client.put(f"/v1/tournaments/{tid}/entry", headers=auth(token)).status_code == 201
    read = json_object(client.get(f"/v1/tournaments/{tid}", headers=auth(players[0])))
    assert read["status"] == "running" and len(read["rounds"]) == 1 and read["rounds"][0]["seated"]
    table = read["rounds"][0]["tables"][0]
    assert read["you"]["match_id"] == table["match_id"]
    inbox = json_object(client.get("/v1/me/events", headers=auth(players[0])))["events"]
    types = [e["type"] for e in inbox]
    assert "tournament_started" in types and "tournament_table_ready" in types
    ready = next(e for e in inbox if e["type"] == "tournament_table_ready")
    assert ready["match_id"] == table["match_id"] and ready["round"] == 1
    assert client.get(f"/v1/matches/{table['match_id']}").status_code == 200
    late = account(client)
    assert refused(client.put(f"/v1/tournaments/{tid}/entry", headers=auth(late))) == (409, "tournament_not_open")
    assert refused(client.delete(f"/v1/tournaments/{tid}", headers=auth(creator))) == (409, "tournament_not_open")
    assert refused(client.delete(f"/v1/tournaments/{tid}/entry", headers=auth(players[1]))) == (
        409,
        "tournament_not_open",
    )


def test_the_creator_cancels_before_the_start_and_entrants_are_told(client: FlaskClient) -> None:
    """Rule: DELETE by the creator cancels an open tournament (204, listed cancelled, entrants told); anyone
    else 403 not_creator."""
    creator, player, other = account(client), account(client), account(client)
    tid = create(client, creator, starts_at="2100-01-01T00:00:00Z", max_entrants=8)["tournament_id"]
    client.put(f"/v1/tournaments/{tid}/entry", headers=auth(player))
    assert refused(client.delete(f"/v1/tournaments/{tid}", headers=auth(other))) == (403, "not_creator")
    assert client.delete(f"/v1/tournaments/{tid}", headers=auth(creator)).status_code == 204
    assert json_object(client.get(f"/v1/tournaments/{tid}"))["status"] == "cancelled"
    listed = json_object(client.get("/v1/tournaments?status=cancelled&limit=100"))["tournaments"]
    assert tid in [t["tournament_id"] for t in listed]
    inbox = json_object(client.get("/v1/me/events", headers=auth(player)))["events"]
    assert {"type": "tournament_cancelled", "why": "creator"}.items() <= inbox[-1].items()


def test_too_few_entrants_at_the_start_time_cancels(client: FlaskClient) -> None:
    """Rule: at starts_at with fewer than min_entrants the sweeper cancels the tournament (cause too_few_entrants)."""
    from tests.support.lifecycle import service_of

    creator, player = account(client), account(client)
    soon = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 2))
    tid = create(client, creator, starts_at=soon, max_entrants=8)["tournament_id"]
    client.put(f"/v1/tournaments/{tid}/entry", headers=auth(player))
    service = service_of(client.application)
    service.core.now = lambda: time.time() + 10
    service.tournaments.rounds._next_sweep = 0
    service.tournaments.sweep()
    assert json_object(client.get(f"/v1/tournaments/{tid}"))["status"] == "cancelled"
    events = json_object(client.get(f"/v1/tournaments/{tid}/events"))["events"]
    assert events[-1]["type"] == "tournament_cancelled" and events[-1]["cause"] == "too_few_entrants"


REFUSED_TERMS = [
    ({"rounds": None}, "rounds"),
    ({"window_s": 120.0}, "window_s"),
    ({"players": 4, "min_entrants": 2}, "min_entrants"),
    ({"format": "duplicate", "rounds": None, "deals": 3, "hands": 2}, "deals"),
    ({"format": "duplicate", "rounds": None, "deals": 2, "max_entrants": 6, "min_entrants": 4}, "max_entrants"),
    ({"preset": "ladder", "hands": 3}, "preset"),
    ({"starts_at": "2001-01-01T00:00:00Z"}, "starts_at"),
]


@pytest.mark.parametrize(("changed", "field"), REFUSED_TERMS)
def test_bad_terms_are_422_bad_terms_naming_the_field(client: FlaskClient, changed: dict[str, Any], field: str) -> None:
    """Rule: terms out of bounds or inconsistent are 422 bad_terms naming the field; nothing is created."""
    token = account(client)
    answer = client.post("/v1/tournaments", json=terms(**changed), headers=auth(token))
    assert refused(answer) == (422, "bad_terms") and field in answer.get_json()["errors"]


def test_every_refusal(client: FlaskClient) -> None:
    """Rule (a table): each refusal's status and reason."""
    creator = account(client)
    for _ in range(3):
        create(client, creator, starts_at="2100-01-01T00:00:00Z")
    fourth = client.post("/v1/tournaments", json=terms(starts_at="2100-01-01T00:00:00Z"), headers=auth(creator))
    no_bots = create(client, account(client), bots=False, starts_at="2100-01-01T00:00:00Z")["tournament_id"]
    full = create(client, account(client), min_entrants=4, max_entrants=4, starts_at="2100-01-01T00:00:00Z")
    for _ in range(4):
        client.put(f"/v1/tournaments/{full['tournament_id']}/entry", headers=auth(account(client)))
    bot = account(client, kind="bot")
    unknown = "/v1/tournaments/0123456789abcdef0123"
    knockout = terms(format="knockout")
    cases = [
        (fourth, (409, "too_many_tournaments")),
        (client.post("/v1/tournaments", json=terms()), (401, "invalid_token")),
        (client.post("/v1/tournaments", json=knockout, headers=auth(creator)), (422, "invalid_request")),
        (client.get(unknown), (404, "tournament_not_found")),
        (client.put(f"{unknown}/entry", headers=auth(creator)), (404, "tournament_not_found")),
        (client.put(f"/v1/tournaments/{no_bots}/entry", headers=auth(bot)), (403, "bots_not_admitted")),
        (client.put(f"/v1/tournaments/{full['tournament_id']}/entry", headers=auth(creator)), (409, "tournament_full")),
        (client.get("/v1/tournaments?status=nope"), (422, "invalid_request")),
        (client.get("/v1/tournaments?cursor=zzz"), (422, "invalid_request")),
    ]
    for answer, expected in cases:
        assert refused(answer) == expected, (answer.request.path, answer.json)
    read = json_object(client.get(f"/v1/tournaments/{no_bots}"))
    assert read["entrants"] == []


def test_a_bot_account_enters_where_bots_are_admitted_and_is_marked(client: FlaskClient) -> None:
    """Rule: a bot account enters a tournament admitting bots and is shown as a bot."""
    tid = create(client, account(client), starts_at="2100-01-01T00:00:00Z", max_entrants=8)["tournament_id"]
    bot = account(client, kind="bot")
    entered = json_object(client.put(f"/v1/tournaments/{tid}/entry", headers=auth(bot)))
    assert entered["entrants"][0]["bot"] is True
    event = json_object(client.get(f"/v1/tournaments/{tid}/events"))["events"][-1]
    assert event["type"] == "entrant_joined" and event["bot"] is True


def test_a_long_poll_of_the_feed_answers_when_an_entrant_joins(client: FlaskClient) -> None:
    """Rule: GET .../events?after=&wait= waits for the next event and answers it at once (seq after `after`)."""
    import threading

    tid = create(client, account(client), starts_at="2100-01-01T00:00:00Z", max_entrants=8)["tournament_id"]
    player = account(client)
    joining = threading.Timer(0.3, lambda: client.application.test_client().put(
        f"/v1/tournaments/{tid}/entry", headers=auth(player)
    ))  # fmt: skip
    started = time.monotonic()
    joining.start()
    page = json_object(client.get(f"/v1/tournaments/{tid}/events?after=0&wait=10"))
    joining.join()
    assert time.monotonic() - started < 5
    assert page["last_seq"] == 1 and page["events"][0]["type"] == "entrant_joined"


@pytest.mark.xdist_group("live_server")
def test_the_feed_stream_sends_each_event_with_its_seq_and_resumes_after_last_event_id(live_server: str) -> None:
    """Rule: SSE frames of a tournament's feed carry `id: <seq>` and `event: <type>`; Last-Event-ID resumes; the
    stream ends after the event that ends the tournament, and one opened after it answers 204."""
    import json as jsonlib
    import urllib.request

    from tests.support.accounts import PASSWORD
    from tests.support.sse import SseReader

    def call(method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        data = None if body is None else jsonlib.dumps(body).encode()
        headers = {"Content-Type": "application/json"} | (auth(token) if token else {})
        request = urllib.request.Request(f"{live_server}{path}", data, headers, method=method)
        with urllib.request.urlopen(request) as answer:
            return jsonlib.loads(answer.read() or b"null")

    tokens = [
        call("POST", "/v1/accounts", body={"name": fresh_name("s"), "password": PASSWORD, "kind": "human"})["token"]
        for _ in range(3)
    ]
    tid = call("POST", "/v1/tournaments", tokens[0], terms(starts_at="2100-01-01T00:00:00Z", max_entrants=8))[
        "tournament_id"
    ]
    reader = SseReader(live_server, f"/v1/tournaments/{tid}/stream")
    assert reader.status == 200 and reader.next() is not None  # ": following"
    call("PUT", f"/v1/tournaments/{tid}/entry", tokens[1])
    call("PUT", f"/v1/tournaments/{tid}/entry", tokens[2])
    frames: list[Any] = []
    while len(frames) < 2:
        frame = reader.next()
        assert frame is not None
        if frame.id is not None:
            frames.append(frame)
    reader.close()
    assert [(f.id, f.event) for f in frames] == [("1", "entrant_joined"), ("2", "entrant_joined")]
    resumed = SseReader(live_server, f"/v1/tournaments/{tid}/stream", {"Last-Event-ID": "1"})
    frame = resumed.next()
    while frame is not None and frame.id is None:
        frame = resumed.next()
    resumed.close()
    assert frame is not None and frame.id == "2"
    # the stream ends after the event that ends the tournament; opened again after it: 204, nothing left
    following = SseReader(live_server, f"/v1/tournaments/{tid}/stream", {"Last-Event-ID": "2"})
    assert following.status == 200 and following.next() is not None  # ": following"
    call("DELETE", f"/v1/tournaments/{tid}", tokens[0])
    seen = []
    frame = following.next()
    while frame is not None:
        if frame.id is not None:
            seen.append((frame.id, frame.event))
        frame = following.next()
    following.close()
    assert seen and seen[-1][1] == "tournament_cancelled"
    after_end = SseReader(live_server, f"/v1/tournaments/{tid}/stream", {"Last-Event-ID": seen[-1][0]})
    assert after_end.status == 204
    after_end.close()


def test_an_entry_that_loses_races_waits_a_random_growing_moment_then_gets_in(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: every entry rewrites the tournament's record, so entries race; a lost race is tried again after a
    random wait whose bound doubles (1 ms, 2 ms, ... up to 50 ms), so many racers stop colliding instead of
    exhausting their attempts at once (`make bench-tournament` enters 256 accounts from 16 threads)."""
    from tienlen.service import tournament_rounds

    creator = account(client)
    tid = create(client, creator, starts_at="2100-01-01T00:00:00Z", max_entrants=8)["tournament_id"]
    store = service_of(client.application).tournaments.rounds.store
    save = store.save
    lost = iter(range(10))

    def racing(record: Any, expected: int | None) -> bool:
        return next(lost, None) is None and save(record, expected)  # ten lost races, then the real write

    bounds: list[float] = []

    def no_wait(low: float, high: float) -> float:
        bounds.append(high)
        return 0.0

    monkeypatch.setattr(store, "save", racing)
    monkeypatch.setattr(tournament_rounds._JITTER, "uniform", no_wait)
    assert client.put(f"/v1/tournaments/{tid}/entry", headers=auth(account(client))).status_code == 201
    assert bounds == [min(0.05, 0.001 * 2**n) for n in range(1, 11)]
