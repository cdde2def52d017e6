"""``Idempotency-Key`` on create and join, and the compact answers actions keep: retries answer, never apply twice.

A create or join retried with its key answers the first answer (status, match
id, seat, tokens) and changes nothing, also when the first try's commit was
applied but not confirmed (503 ``outcome_unknown``); the same key with another
body answers 422 ``idempotency_key_reused``. The store is read directly to
check that one match, or one seat, was made.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.support.api import Api, json_object
from tienlen.api.services import services_of
from tienlen.local_redis import LocalRedis
from tienlen.service.idempotency import KEPT_PER_SEAT, recall_action, remember_action
from tienlen.store import AnswerKey, OutcomeUnknownError, SeatRecord

DEAL = [
    ["3S", "4S", "5S", "6S", "9H"],
    ["3C", "3D", "4C", "4D", "5C", "5D", "2H"],
    ["7S", "7C", "8S", "2S"],
    ["QS", "QC", "QD", "QH", "KS"],
]
WAITING = {"seats": [{"name": "Ann"}, {"open": True}, {"open": True}], "listed": True}


@pytest.fixture
def direct(redis_server: LocalRedis) -> Iterator[Any]:
    """A plain Redis client on the tests' Redis, to look at what the store holds (never to change it)."""
    client: Any = redis.Redis.from_url(redis_server.url)  # redis-py's answers are loosely typed
    yield client
    client.close()


def stored_matches(direct: Any) -> int:
    """How many match records the store holds."""
    return sum(1 for _ in direct.scan_iter("tl:{*}:state", count=1000))


def create(client: FlaskClient, body: dict[str, Any], key: str) -> TestResponse:
    return client.post("/v1/matches", json=body, headers={"Idempotency-Key": key})


def join(client: FlaskClient, match_id: str, name: str, key: str) -> TestResponse:
    return client.post(f"/v1/matches/{match_id}/join", json={"name": name}, headers={"Idempotency-Key": key})


def refused(response: TestResponse, status: int, reason: str) -> dict[str, Any]:
    body = json_object(response)
    assert (response.status_code, body.get("reason")) == (status, reason), body
    return body


def unconfirmed_once(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make the store's next commit apply, then raise :class:`OutcomeUnknownError` (a reply lost on the way)."""
    store = services_of(app).game.core.store
    commit: Callable[..., bool] = store.commit
    lost: list[int] = []

    def applied_but_unconfirmed(*args: Any, **kwargs: Any) -> bool:
        done = commit(*args, **kwargs)
        if done and not lost:
            lost.append(1)
            raise OutcomeUnknownError("the reply was lost")
        return done

    monkeypatch.setattr(store, "commit", applied_but_unconfirmed)
    return lost


# ----- create ---------------------------------------------------------------------------------------


def test_a_create_retried_with_its_key_answers_the_same_match_and_tokens_and_makes_one(
    client: FlaskClient, api: Api, direct: Any
) -> None:
    key = str(uuid.uuid4())
    before = stored_matches(direct)
    first = create(client, WAITING, key)
    assert first.status_code == 201, first.json
    again = create(client, WAITING, key)
    assert again.status_code == 201
    assert json_object(again)["match_id"] == json_object(first)["match_id"]
    assert json_object(again)["tokens"] == json_object(first)["tokens"]
    assert json_object(again)["match"] == json_object(first)["match"], "nothing happened in between"
    assert stored_matches(direct) == before + 1, "one match made"
    match_id = json_object(first)["match_id"]
    assert len(list(direct.scan_iter(f"tl:{{{match_id}}}:idem:*"))) == 1, "kept under the match's hash tag"
    lobby = json_object(client.get("/v1/matches?players=3&limit=50"))["matches"]
    assert [m["match_id"] for m in lobby].count(match_id) == 1
    token = json_object(first)["tokens"][0]["token"]
    assert api.view(match_id, token)["seat"] == 0, "the replayed token is the seat's"


def test_a_create_key_with_another_body_is_refused_and_makes_nothing(client: FlaskClient, direct: Any) -> None:
    key = str(uuid.uuid4())
    assert create(client, WAITING, key).status_code == 201
    before = stored_matches(direct)
    other = create(client, WAITING | {"listed": False}, key)
    assert "another body" in refused(other, 422, "idempotency_key_reused")["message"]
    assert stored_matches(direct) == before


def test_a_create_key_sent_by_another_address_is_refused_and_makes_nothing(app: Flask, direct: Any) -> None:
    """Rule (changed: it used to make a second match for the other address): a key is bound to its caller, and
    another caller's use of it is refused, never answered and never made into a second match."""
    key = str(uuid.uuid4())
    mine, theirs = app.test_client(), app.test_client()
    theirs.environ_base["REMOTE_ADDR"] = "10.1.2.3"
    first = create(mine, WAITING, key)
    assert first.status_code == 201
    before = stored_matches(direct)
    other = refused(create(theirs, WAITING, key), 422, "idempotency_key_reused")
    assert "another caller" in other["message"]
    assert json_object(first)["tokens"][0]["token"] not in str(other), "another client never gets my tokens"
    assert stored_matches(direct) == before
    assert json_object(create(mine, WAITING, key))["tokens"] == json_object(first)["tokens"], "mine still answers"


@pytest.mark.parametrize("first_with_account", [True, False])
def test_a_key_reused_by_another_caller_from_the_same_address_is_refused(
    client: FlaskClient, direct: Any, first_with_account: bool
) -> None:
    """Rule: the caller is the account of the token sent, else the address: an account's key sent without its
    token (or an anonymous key sent with an account's token), or with another account's, is refused on create
    and on join (by id and by room code), and no token of the first answer is given."""
    from tests.support.accounts import auth, fresh_name, session_of

    mine, other = session_of(client, fresh_name()), session_of(client, fresh_name())
    first_headers = auth(mine) if first_with_account else {}
    callers = [auth(other)] + ([{}] if first_with_account else [auth(mine)])
    key = str(uuid.uuid4())
    made = client.post("/v1/matches", json=WAITING, headers=first_headers | {"Idempotency-Key": key})
    assert made.status_code == 201, made.json
    target = json_object(client.post("/v1/matches", json=WAITING))  # joined: the host may not join its own
    match_id, code = target["match_id"], target["match"]["room_code"]
    join_key = str(uuid.uuid4())
    joined = client.post(
        f"/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=first_headers | {"Idempotency-Key": join_key}
    )
    assert joined.status_code == 201, joined.json
    before = stored_matches(direct), json_object(client.get(f"/v1/matches/{match_id}"))["seats"]
    secrets = [json_object(made)["tokens"][0]["token"], json_object(joined)["token"]]
    for headers in callers:
        answers = [
            client.post("/v1/matches", json=WAITING, headers=headers | {"Idempotency-Key": key}),
            client.post(
                f"/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=headers | {"Idempotency-Key": join_key}
            ),
            client.post(f"/v1/rooms/{code}/join", json={"name": "Bo"}, headers=headers | {"Idempotency-Key": join_key}),
        ]
        for answer in answers:
            body = refused(answer, 422, "idempotency_key_reused")
            assert not any(secret in str(body) for secret in secrets)
    assert (stored_matches(direct), json_object(client.get(f"/v1/matches/{match_id}"))["seats"]) == before
    again = client.post(
        f"/v1/matches/{match_id}/join", json={"name": "Bo"}, headers=first_headers | {"Idempotency-Key": join_key}
    )
    assert again.json == joined.json, "the first caller's retry still answers"


def test_kept_answers_hold_no_token_in_clear(client: FlaskClient, direct: Any) -> None:
    """Rule: what the store keeps under a create's or a join's key holds neither the tokens nor the raw key."""
    key, join_key = "create-" + str(uuid.uuid4()), "join-" + str(uuid.uuid4())
    made = json_object(create(client, WAITING, key))
    match_id = made["match_id"]
    joined = json_object(join(client, match_id, "Bo", join_key))
    kept = [direct.get(k) for k in direct.scan_iter(f"tl:{{{match_id}}}:idem:*")]
    assert len(kept) == 2
    everything = b"".join(kept) + b"".join(direct.scan_iter(f"tl:{{{match_id}}}:*"))
    for secret in [t["token"] for t in made["tokens"]] + [joined["token"], key, join_key]:
        assert secret.encode() not in everything, "kept in clear"
    assert json_object(create(client, WAITING, key))["tokens"] == made["tokens"], "a retry opens them again"


def test_a_create_applied_but_not_confirmed_is_answered_by_its_retry(
    app: Flask, client: FlaskClient, direct: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost = unconfirmed_once(app, monkeypatch)
    key = str(uuid.uuid4())
    before = stored_matches(direct)
    body = {"seats": [{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], "seed": 3}
    refused(create(client, body, key), 503, "outcome_unknown")
    assert lost and stored_matches(direct) == before + 1, "the commit was applied"
    again = create(client, body, key)
    assert again.status_code == 201, again.json
    assert stored_matches(direct) == before + 1, "the retry made no second match"
    answer = json_object(again)
    assert answer["match"]["status"] == "playing" and answer["tokens"][0]["seat"] == 0
    view = client.get(
        f"/v1/matches/{answer['match_id']}/view", headers={"Authorization": f"Bearer {answer['tokens'][0]['token']}"}
    )
    assert view.status_code == 200, "the token of the match that was made"


def test_a_create_retried_after_its_match_was_cancelled_answers_404(client: FlaskClient, direct: Any) -> None:
    key = str(uuid.uuid4())
    first = json_object(create(client, WAITING, key))
    token = first["tokens"][0]["token"]
    cancel = client.delete(f"/v1/matches/{first['match_id']}", headers={"Authorization": f"Bearer {token}"})
    assert cancel.status_code == 204
    before = stored_matches(direct)
    refused(create(client, WAITING, key), 404, "match_not_found")
    assert stored_matches(direct) == before, "the cancelled match is not made again"


def test_a_bad_idempotency_key_is_refused_on_create_and_join(client: FlaskClient) -> None:
    refused(create(client, WAITING, "x" * 201), 422, "invalid_request")
    match_id = json_object(client.post("/v1/matches", json=WAITING))["match_id"]
    refused(join(client, match_id, "Bo", "x" * 201), 422, "invalid_request")
    assert json_object(client.get(f"/v1/matches/{match_id}"))["seats"][1]["open"], "nothing changed"


# ----- join -----------------------------------------------------------------------------------------


def test_a_join_retried_with_its_key_answers_the_same_seat_and_token_and_takes_one(
    client: FlaskClient, api: Api, direct: Any
) -> None:
    match_id = json_object(client.post("/v1/matches", json=WAITING))["match_id"]
    key = str(uuid.uuid4())
    first = join(client, match_id, "Bo", key)
    assert first.status_code == 201, first.json
    again = join(client, match_id, "Bo", key)
    assert again.status_code == 201 and again.json == first.json
    seats = api.public(match_id)["seats"]
    assert [s["open"] for s in seats] == [False, False, True], "one seat taken"
    assert len(list(direct.scan_iter(f"tl:{{{match_id}}}:idem:*"))) == 1
    refused(join(client, match_id, "Cy", key), 422, "idempotency_key_reused")
    assert api.public(match_id)["seats"] == seats, "nothing changed"
    # The last seat: the retry still answers its seat once the match is full and dealt.
    last_key = str(uuid.uuid4())
    last = join(client, match_id, "Cy", last_key)
    assert last.status_code == 201 and api.public(match_id)["status"] == "playing"
    assert join(client, match_id, "Cy", last_key).json == last.json
    refused(join(client, match_id, "Di", str(uuid.uuid4())), 409, "match_full")


def test_racing_joins_with_one_key_take_one_seat(app: Flask, api: Api) -> None:
    match_id = api.create(**WAITING)["match_id"]
    key = str(uuid.uuid4())
    barrier = threading.Barrier(8)
    answers: list[tuple[int, Any]] = []
    caller = app.test_client().environ_base["REMOTE_ADDR"]  # one caller: its eight retries come from one address

    def submit() -> None:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = caller
        barrier.wait()
        response = join(client, match_id, "Bo", key)
        answers.append((response.status_code, response.json))

    threads = [threading.Thread(target=submit) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [code for code, _ in answers] == [201] * 8, answers
    assert len({str(body) for _, body in answers}) == 1, "every racer got the one seat and token"
    assert [s["open"] for s in api.public(match_id)["seats"]] == [False, False, True]


def test_a_join_applied_but_not_confirmed_is_answered_by_its_retry(
    app: Flask, client: FlaskClient, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = api.create(**WAITING)["match_id"]
    unconfirmed_once(app, monkeypatch)
    key = str(uuid.uuid4())
    refused(join(client, match_id, "Bo", key), 503, "outcome_unknown")
    again = join(client, match_id, "Bo", key)
    assert again.status_code == 201 and json_object(again)["seat"] == 1
    assert [s["open"] for s in api.public(match_id)["seats"]] == [False, False, True], "no second seat"
    assert api.view(match_id, json_object(again)["token"])["seat"] == 1


# ----- actions: compact answers on the seat ------------------------------------------------------------


def four_remote(api: Api) -> tuple[str, list[str]]:
    created = api.create(seats=[{"name": n} for n in "ABCD"], deal=DEAL)
    return created["match_id"], [t["token"] for t in sorted(created["tokens"], key=lambda t: t["seat"])]


def test_an_action_retried_after_the_match_moved_on_answers_its_events_and_the_view_now(api: Api) -> None:
    match_id, tokens = four_remote(api)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key)
    assert first.status_code == 200
    assert api.act(match_id, tokens[1], {"type": "pass"}).status_code == 200
    again = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key)
    assert again.status_code == 200
    assert json_object(again)["events"] == json_object(first)["events"], "the same events"
    assert json_object(again)["version"] == api.public(match_id)["version"] == json_object(first)["version"] + 1
    assert json_object(again)["cards"] == json_object(first)["cards"], "the seat's cards now (unchanged since)"
    refused(api.act(match_id, tokens[0], {"type": "pass"}, **key), 422, "idempotency_key_reused")


def test_an_action_applied_but_not_confirmed_is_applied_once_by_its_retry(
    app: Flask, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, tokens = four_remote(api)
    unconfirmed_once(app, monkeypatch)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    refused(api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key), 503, "outcome_unknown")
    again = api.act(match_id, tokens[0], {"type": "play", "cards": ["3S"]}, **key)
    assert again.status_code == 200, again.json
    assert [e["type"] for e in json_object(again)["events"]] == ["played"]
    state = api.public(match_id)
    assert state["version"] == 2 and state["turn"] == 1 and state["seats"][0]["cards_left"] == 4, "applied once"


def test_a_seat_keeps_the_compact_answers_of_its_last_keyed_actions() -> None:
    seat = SeatRecord(name="A", token_sha256="t")
    keys = [AnswerKey("t", f"k{i}") for i in range(KEPT_PER_SEAT + 2)]
    for number, key in enumerate(keys):
        remember_action(seat, key, f"{number:064x}", number * 3 + 1, number * 3 + 3)
    assert len(seat.kept) == KEPT_PER_SEAT
    assert recall_action(seat, keys[0]) is None and recall_action(seat, keys[1]) is None, "the oldest went"
    newest = recall_action(seat, keys[-1])
    assert newest is not None and (newest.first_seq, newest.last_seq) == (28, 30)
    assert all(len(entry) < 60 for entry in seat.kept), seat.kept
    assert SeatRecord.from_dict(seat.to_dict()).kept == seat.kept, "stored with the seat"
