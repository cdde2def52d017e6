"""How the client reads a player's history over the wire, against a scripted stub: the export is read one line at a
time as it comes, asking for it is retried as a read is, a refusal or a cut answer raises, and the match list is
followed page by page. (The calls against a real server are in test_client_history.py.)"""

from __future__ import annotations

import datetime
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from tienlen_client import ApiError, Client, ConnectionFailed

from tests.clients.proxies import running
from tests.clients.stub import DROP, Answer, Lines, StubServer, refusal

REPLAYS: list[dict[str, Any]] = [
    {"format": "tienlen-replay/1", "match_id": "m2", "ended_at": "2026-12-02T10:00:00Z"},
    {"format": "tienlen-replay/1", "match_id": "m1", "ended_at": "2026-12-01T10:00:00Z"},
]


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    with running(server):
        yield server


def _client(stub: StubServer, pauses: list[float]) -> Client:
    """A client of the stub whose pauses between attempts are recorded, not slept."""
    return Client(stub.url, 10.0, sleep=pauses.append)


def test_the_export_yields_each_line_as_it_comes_without_waiting_for_the_end(stub: StubServer) -> None:
    """Rule: export() decodes a line as soon as it has come; the rest of the answer is read only when asked for."""
    stub.script = [Lines(REPLAYS, hold_s=3)]
    since = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
    started = time.monotonic()
    with _client(stub, []).export("Ann B", since=since, until="2026-12-03T00:00:00Z") as export:
        assert next(export) == REPLAYS[0]
        assert time.monotonic() - started < 2, "the first line waited for the end of the answer"
        assert list(export) == REPLAYS[1:]
    assert export.yielded == 2 and export.ended
    (request,) = stub.received
    assert request.path == (
        "/v1/players/Ann%20B/matches/export?since=2026-12-01T00%3A00%3A00%2B00%3A00&until=2026-12-03T00%3A00%3A00Z"
    )
    assert request.headers["accept"] == "application/x-ndjson"


def test_the_export_is_asked_for_again_after_a_drop_and_a_503(stub: StubServer) -> None:
    """Rule: asking for the export is retried as a read is (a dropped connection, a 503), with pauses between."""
    stub.script = [DROP, refusal(503, "store_unavailable"), Lines(REPLAYS)]
    pauses: list[float] = []
    assert list(_client(stub, pauses).export("ann")) == REPLAYS
    assert len(stub.received) == 3 and len(pauses) == 2


def test_a_refused_export_raises_its_reason_and_is_not_retried(stub: StubServer) -> None:
    """Rule: a 404 player_not_found (any 4xx but 429) raises ApiError at the first next(), after one request."""
    stub.script = [refusal(404, "player_not_found")]
    export = _client(stub, []).export("nobody")
    assert stub.received == [], "nothing is sent before the first replay is asked for"
    with pytest.raises(ApiError) as refused:
        next(export)
    assert (refused.value.status, refused.value.reason) == (404, "player_not_found")
    assert refused.value.request == "GET /v1/players/nobody/matches/export" and len(stub.received) == 1


def test_an_export_cut_in_the_middle_raises_connection_failed_after_the_lines_that_came(stub: StubServer) -> None:
    """Rule: an answer cut before its end raises ConnectionFailed; the lines before it were yielded (yielded)."""
    stub.script = [Lines(REPLAYS, end=False)]
    export = _client(stub, []).export("ann")
    got: list[dict[str, Any]] = []
    with pytest.raises(ConnectionFailed) as cut:
        got.extend(export)
    assert got == REPLAYS and export.yielded == 2 and export.ended
    assert "broke off after 2 lines" in str(cut.value)


def test_an_export_bound_without_a_time_zone_is_refused_before_anything_is_sent(stub: StubServer) -> None:
    """Rule: since/until as a naive datetime is a ValueError (RFC 3339 needs an offset)."""
    with pytest.raises(ValueError, match="time zone"):
        _client(stub, []).export("ann", until=datetime.datetime(2026, 12, 1))
    assert stub.received == []


def test_all_player_matches_follows_next_cursor_to_the_last_page(stub: StubServer) -> None:
    """Rule: all_player_matches() asks page after page with each next_cursor, and stops at a null one."""
    first = [{"match_id": "m3"}, {"match_id": "m2"}]
    stub.script = [
        Answer(200, {"matches": first, "next_cursor": "c/1"}),
        Answer(200, {"matches": [{"match_id": "m1"}], "next_cursor": None}),
    ]
    matches = _client(stub, []).all_player_matches("Ann", page_size=2)
    assert stub.received == [], "nothing is asked before the first match is"
    assert [m["match_id"] for m in matches] == ["m3", "m2", "m1"]
    assert [r.path for r in stub.received] == [
        "/v1/players/Ann/matches?limit=2",
        "/v1/players/Ann/matches?limit=2&cursor=c%2F1",
    ]
