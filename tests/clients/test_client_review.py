"""The Python client's ``review(match_id, wait=True)``: it asks again while the review is pending or running.

Rules checked: with ``wait`` the client polls ``GET /v1/matches/{id}/review`` until the answer is ``done``; without
it the first answer (the 202 progress) is returned; a refusal (409 ``match_not_finished``) is raised.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tienlen_client import ApiError, Client

from tests.clients.proxies import running
from tests.clients.stub import Answer, StubServer, refusal

PENDING = {"status": "pending", "progress": {"done": 0, "total": 0}}
RUNNING = {"status": "running", "progress": {"done": 40, "total": 90}}
DONE = {"match_id": "m1", "status": "done", "progress": {"done": 90, "total": 90}, "thresholds": {}, "seats": []}


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    with running(server):
        yield server


def test_review_waits_until_done(stub: StubServer) -> None:
    stub.script = [Answer(202, PENDING), Answer(202, RUNNING), Answer(200, DONE)]
    assert Client(stub.url).review("m1", poll=0.01) == DONE
    assert [r.path for r in stub.received] == ["/v1/matches/m1/review"] * 3


def test_review_without_wait_answers_the_progress(stub: StubServer) -> None:
    stub.script = [Answer(202, RUNNING)]
    assert Client(stub.url).review("m1", wait=False) == RUNNING


def test_review_before_the_end_is_refused(stub: StubServer) -> None:
    stub.script = [refusal(409, "match_not_finished")]
    with pytest.raises(ApiError) as raised:
        Client(stub.url).review("m1")
    assert raised.value.status == 409
