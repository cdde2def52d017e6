"""The Python client's tournament calls against a real server process: create (typed, the server's defaults for
what is not given), list (a page, every page), read with and without a token, enter (201 then 200), withdraw,
cancel; the events as a page, long-polled to the end and streamed to the end; the start when full with its
tables, the caller's seat and the inbox's `tournament_table_ready`; the standings; refusals as ApiError reasons."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client

from tests.clients.people import new_member

pytestmark = pytest.mark.xdist_group("live_server")

LATER = "2100-01-01T00:00:00Z"


def test_a_tournament_is_created_listed_entered_withdrawn_and_cancelled(live_server: str) -> None:
    """Rule: each call answers its typed JSON: created open with the defaults, listed among the open ones (a page
    and every page), `entered` for the caller who entered, 201 then 200 for an entry, withdraw and cancel 204;
    its feed tells each step, and the long poll and the stream both end with `tournament_cancelled`."""
    client = Client(live_server)
    creator, player = new_member(client), new_member(client)
    made = client.create_tournament(creator.token, "Client cup", "swiss", rounds=2, starts_at=LATER, max_entrants=8)
    tid = made["tournament_id"]
    assert (made["status"], made["terms"]["players"], made["terms"]["rounds"]) == ("open", 4, 2)
    assert made["terms"]["hands"] == 1 and made["terms"]["max_entrants"] == 8 and made["entrants"] == []
    page = client.tournaments("open", limit=100)
    assert tid in [t["tournament_id"] for t in page["tournaments"]]
    assert tid in [t["tournament_id"] for t in client.all_tournaments("open", page_size=2)]
    entered = client.enter_tournament(player.token, tid)
    assert entered["entered"] is True and [e["name"] for e in entered["entrants"]] == [player.name]
    assert entered["entrants"][0]["bot"] is True  # the test accounts are bot accounts: shown as bots
    assert client.enter_tournament(player.token, tid)["entered"] is True  # 200: entered already
    assert client.tournament(tid, player.token)["entered"] is True
    assert client.tournament(tid)["entered"] is False
    client.withdraw_from_tournament(player.token, tid)
    assert client.tournament(tid, player.token)["entered"] is False
    client.cancel_tournament(creator.token, tid)
    assert client.tournament(tid)["status"] == "cancelled"
    kinds = [e["type"] for e in client.all_tournament_events(tid, wait=1)]
    assert kinds == ["entrant_joined", "entrant_left", "tournament_cancelled"]
    with client.follow_tournament(tid) as stream:
        streamed = [e["type"] for e in stream]
    assert streamed == kinds
    first = client.tournament_events(tid)
    assert first["last_seq"] == first["events"][-1]["seq"] and len(first["events"]) == 3
    assert client.tournament_events(tid, after=first["last_seq"])["events"] == []


def test_a_tournament_full_starts_seats_its_entrants_and_tells_them(live_server: str) -> None:
    """Rule: the entry that fills a tournament without `starts_at` starts it: round 1's table is seated, each
    entrant's `you` names its match and seat, its inbox hears `tournament_table_ready` with the same, the stream
    followed from the start tells `tournament_started` and `round_seated`; the standings rank every entrant."""
    client = Client(live_server)
    creator = new_member(client)
    people = [new_member(client) for _ in range(2)]
    tid = client.create_tournament(creator.token, "Pair", "swiss", players=2, rounds=1, max_entrants=2)["tournament_id"]
    heard: list[str] = []
    stream = client.follow_tournament(tid)

    def listen() -> None:
        for event in stream:
            heard.append(event["type"])
            if event["type"] == "round_seated":
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    for person in people:
        client.enter_tournament(person.token, tid)
    listener.join(20)
    stream.close()
    assert heard[-2:] == ["tournament_started", "round_seated"] and heard.count("entrant_joined") == 2
    now = client.tournament(tid, people[0].token)
    assert now["status"] == "running" and now["started_at"] is not None
    (table,) = now["rounds"][0]["tables"]
    assert [s["name"] for s in table["sitters"]] in ([p.name for p in people], [p.name for p in people[::-1]])
    for person in people:
        you = client.tournament(tid, person.token)["you"]
        assert you is not None and you["match_id"] == table["match_id"] and you["round"] == 1
        ready = [e for e in client.my_events(person.token)["events"] if e["type"] == "tournament_table_ready"]
        assert [(e["tournament_id"], e["match_id"], e["seat"]) for e in ready] == [(tid, you["match_id"], you["seat"])]
        assert table["sitters"][you["seat"]]["name"] == person.name
    standings = client.standings(tid)
    assert standings["final"] is False and sorted(s["rank"] for s in standings["standings"]) == [1, 2]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("bad_terms", (422, "bad_terms")),
        ("unknown", (404, "tournament_not_found")),
        ("not_entered", (409, "not_entered")),
        ("not_creator", (403, "not_creator")),
    ],
)
def test_a_refusal_raises_its_reason(live_server: str, call: str, expected: tuple[int, str]) -> None:
    """Rule: every refusal is an ApiError with the server's status and reason: terms that do not hold (a Swiss
    without rounds), an unknown tournament, withdrawing without an entry, cancelling another's tournament."""
    client = Client(live_server)
    me, other = new_member(client), new_member(client)
    tid = client.create_tournament(other.token, "Theirs", "swiss", rounds=1, starts_at=LATER)["tournament_id"]
    with pytest.raises(ApiError) as refused:
        if call == "bad_terms":
            client.create_tournament(me.token, "No rounds", "swiss")
        elif call == "unknown":
            client.tournament("0" * 20)
        elif call == "not_entered":
            client.withdraw_from_tournament(me.token, tid)
        else:
            client.cancel_tournament(me.token, tid)
    assert (refused.value.status, refused.value.reason) == expected
