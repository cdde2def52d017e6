"""Challenges between accounts: sent to online accounts that take them, accepted, declined, withdrawn, expired.

Rules checked: every refusal (unknown name, offline, settings, yourself, a name twice, an account left to fill
seats, not the sender, not challenged, closed, expired, unknown id) answers its status and reason and changes
nothing; a challenge two accounts accept starts one match whose seats are bound to the accounts (their tokens act
for them), and everyone hears challenge_received, challenge_started and match_started; a decline or a withdrawal
tells the others; the sweeper expires a challenge nobody accepted in time (410 after, and everyone hears it);
racing accepts start exactly one match, and an accept racing a withdrawal is resolved once; a bot whose owner
refuses rated challenges is not challenged to one; a rated challenge played out moves both ratings.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.support.accounts import auth, fresh_name, sign_up
from tests.support.api import Api, json_object
from tests.support.lifecycle import Clock, play_out, service_of
from tienlen.api import create_app
from tienlen.local_redis import LocalRedis
from tienlen.store import StoreUnavailableError
from tienlen.store.redis_accounts import name_key
from tienlen.store.redis_challenges import account_challenges_key

pytestmark = pytest.mark.xdist_group("challenges")  # the sweeper's test moves the clock past other pending ones

EXPIRY_S = 60  # TIENLEN_CHALLENGE_EXPIRY_S's default


def listen(client: FlaskClient, token: str, after: int = 0) -> list[dict[str, Any]]:
    """The account's inbox after ``after`` (listening also makes it online)."""
    answer = client.get(f"/v1/me/events?after={after}", headers=auth(token))
    assert answer.status_code == 200, answer.json
    events: list[dict[str, Any]] = json_object(answer)["events"]
    return events


def player(client: FlaskClient, kind: str = "human", *, online: bool = True) -> tuple[str, str]:
    """A new account (listening to its inbox unless not ``online``): its name and token."""
    name = fresh_name("c")
    token = str(sign_up(client, name, kind=kind)["token"])
    if online:
        listen(client, token)
    return name, token


def send(client: FlaskClient, token: str | None, to: list[str], players: int = 2, **body: Any) -> TestResponse:
    """POST /v1/challenges (one-hand `ladder` rules unless given)."""
    headers = {} if token is None else auth(token)
    sent = {"preset": "ladder", "to": to, "players": players, **body}
    return client.post("/v1/challenges", json=sent, headers=headers)


def challenge(client: FlaskClient, token: str, to: list[str], players: int = 2, **body: Any) -> dict[str, Any]:
    """A challenge; assert 201."""
    answer = send(client, token, to, players, **body)
    assert answer.status_code == 201, answer.json
    return json_object(answer)


def answer(client: FlaskClient, token: str, challenge_id: str, verb: str) -> TestResponse:
    """Accept or decline (POST), withdraw (DELETE) or read (GET) a challenge."""
    path = f"/v1/challenges/{challenge_id}"
    if verb in ("accept", "decline"):
        return client.post(f"{path}/{verb}", headers=auth(token))
    return client.open(path, method={"withdraw": "DELETE", "read": "GET"}[verb], headers=auth(token))


def ok(response: TestResponse, status: int = 200) -> dict[str, Any]:
    """The JSON of a success; assert its status."""
    assert response.status_code == status, response.json
    return json_object(response) if status != 204 else {}


def refused(response: TestResponse) -> tuple[int, str]:
    """The status and reason of a refusal."""
    return response.status_code, json_object(response)["reason"]


def types(events: list[dict[str, Any]]) -> list[str]:
    """The events' types, in order."""
    return [event["type"] for event in events]


@pytest.fixture
def clock(app: Flask, redis_server: LocalRedis) -> Clock:
    """The service's clock, moved by the test (earlier tests' turn clocks are forgotten, not fired)."""
    redis.Redis.from_url(redis_server.url).delete("tl:{clock}:deadlines")
    moved = Clock()
    service_of(app).core.now = moved
    return moved


# ----- refusals ------------------------------------------------------------------------------------


def test_every_refusal_of_a_new_challenge_answers_its_reason_and_changes_nothing(client: FlaskClient, db: Any) -> None:
    """Rule: unknown name 404 player_not_found; offline 409 player_offline; settings 409 challenge_refused;
    yourself, a name twice, an account left to fill several seats 422 invalid_request; no token 401; nothing is
    stored and the named accounts hear nothing."""
    me, token = player(client)
    friend, friend_token = player(client)
    other, other_token = player(client)
    quiet, _quiet_token = player(client, online=False)
    casual_only, casual_token = player(client, "bot")
    assert client.put("/v1/me/settings", json={"rated": False}, headers=auth(casual_token)).status_code == 200
    cases: list[tuple[str | None, list[str], int, dict[str, Any], tuple[int, str]]] = [
        (token, ["nobody" + fresh_name()], 2, {}, (404, "player_not_found")),
        (token, [friend, "nobody" + fresh_name()], 3, {}, (404, "player_not_found")),
        (token, [quiet], 2, {}, (409, "player_offline")),
        (token, [friend, quiet], 3, {}, (409, "player_offline")),
        (token, [casual_only], 2, {"rated": True}, (409, "challenge_refused")),
        (token, [me], 2, {}, (422, "invalid_request")),
        (token, [friend, friend.upper()], 3, {}, (422, "invalid_request")),
        (token, [friend], 3, {}, (422, "invalid_request")),
        (token, [friend, other], 2, {}, (422, "invalid_request")),
        (None, [friend], 2, {}, (401, "invalid_token")),
    ]
    for sender, to, players, body, expected in cases:
        assert refused(send(client, sender, to, players, **body)) == expected, (to, players, body)
    my_id = db.get(name_key(me)).decode()
    assert not db.exists(account_challenges_key(my_id)), "no challenge was stored"
    for listener in (friend_token, other_token, casual_token):
        assert listen(client, listener) == [], "nobody heard of a refused challenge"


def test_every_refusal_of_an_answer_to_a_challenge_answers_its_reason_and_changes_nothing(
    client: FlaskClient,
) -> None:
    """Rule: reading it as a stranger or an unknown id 404 challenge_not_found; accept or decline by anyone not
    challenged 403 not_challenged; withdrawing by anyone but its sender 403 not_challenger; after that the
    challenge is as it was and nobody heard anything more."""
    _me, token = player(client)
    friend, friend_token = player(client)
    _stranger, stranger_token = player(client)
    made = challenge(client, token, [friend])
    challenge_id = made["challenge_id"]
    heard = listen(client, friend_token)
    cases = [
        (stranger_token, challenge_id, "read", (404, "challenge_not_found")),
        (token, "0" * 20, "read", (404, "challenge_not_found")),
        (friend_token, "0" * 20, "accept", (404, "challenge_not_found")),
        (token, "0" * 20, "withdraw", (404, "challenge_not_found")),
        (token, challenge_id, "accept", (403, "not_challenged")),
        (token, challenge_id, "decline", (403, "not_challenged")),
        (stranger_token, challenge_id, "accept", (403, "not_challenged")),
        (stranger_token, challenge_id, "decline", (403, "not_challenged")),
        (friend_token, challenge_id, "withdraw", (403, "not_challenger")),
        (stranger_token, challenge_id, "withdraw", (403, "not_challenger")),
    ]
    for who, which, verb, expected in cases:
        assert refused(answer(client, who, which, verb)) == expected, (verb, expected)
    assert refused(client.post(f"/v1/challenges/{challenge_id}/accept")) == (401, "invalid_token")
    assert ok(answer(client, token, challenge_id, "read")) == made
    assert listen(client, friend_token) == heard and listen(client, token) == []


def test_a_closed_challenge_answers_challenge_closed_to_every_change(client: FlaskClient) -> None:
    """Rule: once declined (or withdrawn, or started) accept, decline and withdraw are 409 challenge_closed (but
    the accept that started it, sent again, answers it); it can still be read."""
    _me, token = player(client)
    friend, friend_token = player(client)
    for close in ("decline", "withdraw", "accept"):
        challenge_id = challenge(client, token, [friend])["challenge_id"]
        closer = token if close == "withdraw" else friend_token
        ok(answer(client, closer, challenge_id, close), 204 if close == "withdraw" else 200)
        for who, verb in ((friend_token, "accept"), (friend_token, "decline"), (token, "withdraw")):
            if close == verb == "accept":
                assert ok(answer(client, who, challenge_id, verb))["status"] == "started", "an accept sent again"
                continue
            assert refused(answer(client, who, challenge_id, verb)) == (409, "challenge_closed"), (close, verb)
        status = ok(answer(client, token, challenge_id, "read"))["status"]
        assert status == {"decline": "declined", "withdraw": "withdrawn", "accept": "started"}[close]


def test_a_bot_whose_owner_refuses_rated_challenges_is_challenged_only_to_casual_ones(client: FlaskClient) -> None:
    """Rule: the challenged account's settings decide: rated refused (409 challenge_refused), casual taken."""
    _me, token = player(client)
    bot, bot_token = player(client, "bot")
    assert client.put("/v1/me/settings", json={"rated": False}, headers=auth(bot_token)).status_code == 200
    assert refused(send(client, token, [bot], rated=True)) == (409, "challenge_refused")
    made = challenge(client, token, [bot], rated=False)
    assert made["status"] == "pending" and made["rated"] is False
    assert types(listen(client, bot_token)) == ["challenge_received"]


# ----- a challenge's life --------------------------------------------------------------------------------


def test_a_three_player_challenge_both_accept_starts_one_match_bound_to_the_accounts(
    api: Api, client: FlaskClient
) -> None:
    """Rule: each challenged account hears challenge_received; the first acceptance leaves it pending, the last
    deals the match (seats bound to the accounts, whose tokens act for them); everyone hears challenge_started
    and match_started, once."""
    me, token = player(client)
    (b, b_token), (c, c_token) = player(client), player(client)
    made = challenge(client, token, [b, c], players=3, rated=True)
    assert made | {"challenge_id": None, "created_at": None, "expires_at": None} == {
        "challenge_id": None,
        "from": me,
        "to": [b, c],
        "players": 3,
        "preset": "ladder",
        "rated": True,
        "status": "pending",
        "accepted": [],
        "declined_by": None,
        "created_at": None,
        "expires_at": None,
        "match_id": None,
        "tokens": [],
        "match": None,
    }
    challenge_id = made["challenge_id"]
    for listener in (b_token, c_token):
        received = listen(client, listener)
        assert types(received) == ["challenge_received"]
        assert received[0] | {"at": None, "seq": None} == {
            "seq": None,
            "type": "challenge_received",
            "at": None,
            "challenge_id": challenge_id,
            "from": me,
            "to": [b, c],
            "players": 3,
            "preset": "ladder",
            "rated": True,
            "expires_at": made["expires_at"],
        }
    first = ok(answer(client, b_token, challenge_id, "accept"))
    assert first["status"] == "pending" and first["accepted"] == [b] and first["match_id"] is None
    assert ok(answer(client, b_token, challenge_id, "accept")) == first, "accepting again changes nothing"
    last = ok(answer(client, c_token, challenge_id, "accept"))
    assert last["status"] == "started" and last["accepted"] == [b, c] and last["tokens"] == []
    match_id = last["match_id"]
    match = last["match"]
    assert match["match_id"] == match_id and match["status"] == "playing" and match["rated"] is True
    seats = [(s["name"], s["account"], s["bot"]) for s in match["seats"]]
    assert seats == [(me, True, None), (b, True, None), (c, True, None)]
    for seat, listener in enumerate((token, b_token, c_token)):
        assert api.view(match_id, listener)["seat"] == seat, "the account's token acts for its seat"
        heard = [e for e in listen(client, listener) if e["type"] != "your_turn"]
        if seat:
            assert heard[0]["type"] == "challenge_received"
            heard = heard[1:]
        assert sorted(types(heard)) == ["challenge_started", "match_started"]
        started = next(e for e in heard if e["type"] == "challenge_started")
        assert (started["challenge_id"], started["match_id"], started["seat"]) == (challenge_id, match_id, seat)
        assert next(e for e in heard if e["type"] == "match_started")["match_id"] == match_id
    assert ok(answer(client, token, challenge_id, "read"))["match"]["match_id"] == match_id


def test_house_bots_accept_at_once_beside_accounts(client: FlaskClient) -> None:
    """Rule: a house bot named beside an account has accepted already and fills the seats left; the account's
    acceptance starts the match."""
    me, token = player(client)
    friend, friend_token = player(client)
    made = challenge(client, token, [friend, "Hard"], players=4)
    assert made["to"] == [friend, "hard"] and made["accepted"] == ["hard"] and made["status"] == "pending"
    started = ok(answer(client, friend_token, made["challenge_id"], "accept"))
    assert [s["name"] for s in started["match"]["seats"]] == [me, friend, "hard", "hard"]
    assert [s["bot"] for s in started["match"]["seats"]] == [None, None, "hard", "hard"]


def test_a_challenge_match_is_fair_dealt_with_the_entropy_of_the_sender_and_the_accepting(
    client: FlaskClient,
) -> None:
    """Rule: the match a challenge starts shows its fair deal's commitment (no secret while it is played) and the
    entropy its sender gave with the challenge and each account with its acceptance (none: ""); bad entropy on an
    acceptance is 422 invalid_request and accepts nothing."""
    _me, token = player(client)
    friend, friend_token = player(client)
    other, other_token = player(client)
    made = challenge(client, token, [friend, other, "easy"], players=4, entropy="from me")
    path = f"/v1/challenges/{made['challenge_id']}/accept"
    bad = client.post(path, json={"entropy": "\u00e9"}, headers=auth(friend_token))
    assert refused(bad) == (422, "invalid_request")
    assert ok(answer(client, friend_token, made["challenge_id"], "read"))["accepted"] == ["easy"]
    assert ok(client.post(path, json={"entropy": "friend 42"}, headers=auth(friend_token)))["status"] == "pending"
    started = ok(answer(client, other_token, made["challenge_id"], "accept"))  # no body: no entropy
    fair = started["match"]["fair_deal"]
    assert fair["protocol"] == "tienlen-deal/1" and len(fair["commitment"]) == 64 and fair["secret"] is None
    assert fair["entropy"] == ["from me", "friend 42", "", ""]


def test_a_decline_tells_the_sender_and_the_other_challenged_account(client: FlaskClient) -> None:
    """Rule: declining closes the challenge (declined_by) and the others hear challenge_cancelled cause declined."""
    me, token = player(client)
    (b, b_token), (_c, c_token) = player(client), player(client)
    challenge_id = challenge(client, token, [b, _c], players=3)["challenge_id"]
    seen_b, seen_c = len(listen(client, b_token)), len(listen(client, c_token))
    declined = ok(answer(client, b_token, challenge_id, "decline"))
    assert declined["status"] == "declined" and declined["declined_by"] == b
    cancelled = {"type": "challenge_cancelled", "challenge_id": challenge_id, "cause": "declined", "by": b}
    for listener, after in ((token, 0), (c_token, seen_c)):
        heard = listen(client, listener, after)
        assert [{k: e[k] for k in cancelled} for e in heard] == [cancelled]
    assert listen(client, b_token, seen_b) == [], "the decliner is not told of its own decline"
    assert me == ok(answer(client, c_token, challenge_id, "read"))["from"]


def test_a_withdrawal_tells_the_challenged_accounts(client: FlaskClient) -> None:
    """Rule: DELETE by the sender answers 204, the challenge reads `withdrawn`, and the challenged hear
    challenge_cancelled cause withdrawn by the sender."""
    me, token = player(client)
    friend, friend_token = player(client)
    challenge_id = challenge(client, token, [friend])["challenge_id"]
    seen = len(listen(client, friend_token))
    ok(answer(client, token, challenge_id, "withdraw"), 204)
    assert ok(answer(client, friend_token, challenge_id, "read"))["status"] == "withdrawn"
    heard = listen(client, friend_token, seen)
    assert [(e["type"], e["cause"], e["by"]) for e in heard] == [("challenge_cancelled", "withdrawn", me)]
    assert listen(client, token) == [], "the sender is not told of its own withdrawal"


def test_the_sweeper_expires_a_challenge_not_accepted_in_time(app: Flask, client: FlaskClient, clock: Clock) -> None:
    """Rule: after TIENLEN_CHALLENGE_EXPIRY_S the sweeper expires it and everyone hears challenge_cancelled cause
    expired; accepting or declining then is 410 challenge_expired; withdrawing 409 challenge_closed."""
    _me, token = player(client)
    friend, friend_token = player(client)
    made = challenge(client, token, [friend])
    challenge_id = made["challenge_id"]
    seen = len(listen(client, friend_token))
    clock.now += EXPIRY_S - 1
    service_of(app).sweep()
    assert ok(answer(client, token, challenge_id, "read"))["status"] == "pending", "not before its time"
    clock.now += 2
    service_of(app).sweep()
    for listener, after in ((token, 0), (friend_token, seen)):
        heard = listen(client, listener, after)
        assert [(e["type"], e["cause"], e["by"]) for e in heard] == [("challenge_cancelled", "expired", None)]
    assert ok(answer(client, token, challenge_id, "read"))["status"] == "expired"
    for verb in ("accept", "decline"):
        assert refused(answer(client, friend_token, challenge_id, verb)) == (410, "challenge_expired")
    assert refused(answer(client, token, challenge_id, "withdraw")) == (409, "challenge_closed")
    service_of(app).sweep()
    assert len(listen(client, friend_token, seen)) == 1, "expired once"


def test_an_accept_after_its_time_is_410_even_before_the_sweeper_came(client: FlaskClient, clock: Clock) -> None:
    """Rule: the expiry is the challenge's time, not the sweeper's: a late accept is 410 and expires it now."""
    _me, token = player(client)
    friend, friend_token = player(client)
    challenge_id = challenge(client, token, [friend])["challenge_id"]
    clock.now += EXPIRY_S + 1
    assert refused(answer(client, friend_token, challenge_id, "accept")) == (410, "challenge_expired")
    assert ok(answer(client, token, challenge_id, "read"))["status"] == "expired"
    assert types(listen(client, token)) == ["challenge_cancelled"]


def cut_short(app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, str]:
    """A challenge whose last acceptance stopped after starting it, before dealing its match (503 to the
    accepting account): the sender's token, the accepting account's and the challenge's id."""
    _me, token = player(client)
    friend, friend_token = player(client)
    challenge_id = challenge(client, token, [friend])["challenge_id"]
    service = service_of(app)

    def stops(*_args: Any, **_kwargs: Any) -> bool:
        raise StoreUnavailableError("the process stopped here")

    with monkeypatch.context() as patched:
        patched.setattr(service.core, "add", stops)
        assert refused(answer(client, friend_token, challenge_id, "accept")) == (503, "store_unavailable")
    return token, friend_token, challenge_id


def started_match_id(app: Flask, challenge_id: str) -> str:
    """The match id the stored challenge names (read from the store: a read through the API would deal it)."""
    record = service_of(app).core.store.challenges().load(challenge_id)
    assert record is not None and record.status == "started" and record.match_id is not None
    return record.match_id


def test_a_match_whose_deal_was_cut_short_is_dealt_by_the_sweeper_once(
    app: Flask, client: FlaskClient, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: when the last acceptance's process stops after starting the challenge but before dealing its match,
    and nobody reads the challenge, the sweeper deals it at the challenge's time, once, and everyone hears
    challenge_started then."""
    token, friend_token, challenge_id = cut_short(app, client, monkeypatch)
    match_id = started_match_id(app, challenge_id)
    assert service_of(app).core.store.load(match_id).record is None
    clock.now += EXPIRY_S + 1
    service_of(app).sweep()
    service_of(app).sweep()
    assert service_of(app).core.store.load(match_id).record is not None
    read = ok(answer(client, token, challenge_id, "read"))
    assert read["match"] is not None and read["match"]["status"] == "playing"
    for listener in (token, friend_token):
        heard = types(listen(client, listener))
        assert heard.count("challenge_started") == 1 and heard.count("match_started") == 1


@pytest.mark.parametrize("reader", ["sender", "accepting"])
def test_a_started_challenge_read_before_its_match_was_dealt_deals_it_once(
    app: Flask, client: FlaskClient, clock: Clock, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    """Rule: a started challenge is never read without its match: a read between the start and the deal (or after
    a deal cut short) deals it, once; reads after it, the sweeper and the accept sent again find that match, and
    everyone hears challenge_started and match_started once."""
    token, friend_token, challenge_id = cut_short(app, client, monkeypatch)
    match_id = started_match_id(app, challenge_id)
    read = ok(answer(client, token if reader == "sender" else friend_token, challenge_id, "read"))
    assert read["status"] == "started" and read["match_id"] == match_id
    assert read["match"] is not None and read["match"]["status"] == "playing"
    dealt = service_of(app).core.store.load(match_id).record
    assert dealt is not None
    again = ok(answer(client, token, challenge_id, "read"))
    assert again["match"] == read["match"]
    assert ok(answer(client, friend_token, challenge_id, "accept"))["match"] == read["match"]
    clock.now += EXPIRY_S + 1
    service_of(app).sweep()
    assert service_of(app).core.store.load(match_id).record == dealt
    for listener in (token, friend_token):
        heard = types(listen(client, listener))
        assert heard.count("challenge_started") == 1 and heard.count("match_started") == 1
        view = client.get(f"/v1/matches/{match_id}/view", headers=auth(listener))
        assert view.status_code == 200, view.json


def test_a_started_challenge_whose_match_is_gone_is_not_dealt_again(
    app: Flask, client: FlaskClient, redis_server: LocalRedis
) -> None:
    """Rule: once its match was dealt, a challenge read after the match is gone (ended and deleted) answers no
    match and deals none."""
    _me, token = player(client)
    friend, friend_token = player(client)
    challenge_id = challenge(client, token, [friend])["challenge_id"]
    match_id = ok(answer(client, friend_token, challenge_id, "accept"))["match_id"]
    redis.Redis.from_url(redis_server.url).delete(f"tl:{{{match_id}}}:state")
    read = ok(answer(client, token, challenge_id, "read"))
    assert read["status"] == "started" and read["match_id"] == match_id and read["match"] is None
    assert service_of(app).core.store.load(match_id).record is None


# ----- races -----------------------------------------------------------------------------------------------


def race(app: Flask, challenge_id: str, calls: list[tuple[str, str]]) -> list[TestResponse]:
    """Send the (token, verb) answers to the challenge at once, each on a test client of its own; in order."""
    start = threading.Barrier(len(calls))
    answers: list[TestResponse | None] = [None] * len(calls)

    def run(index: int) -> None:
        who, verb = calls[index]
        with app.test_client() as own:
            start.wait()
            answers[index] = answer(own, who, challenge_id, verb)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(a is not None for a in answers)
    return [a for a in answers if a is not None]


def test_two_accepts_racing_start_exactly_one_match(app: Flask, client: FlaskClient) -> None:
    """Rule: the last two acceptances arriving together deal one match: one answer is pending (or started),
    the other started, both with the same match; the sender hears challenge_started and match_started once."""
    for _ in range(5):
        _me, token = player(client)
        (b, b_token), (c, c_token) = player(client), player(client)
        challenge_id = challenge(client, token, [b, c], players=3)["challenge_id"]
        answers = race(app, challenge_id, [(b_token, "accept"), (c_token, "accept")])
        bodies = [ok(a) for a in answers]
        assert "started" in [body["status"] for body in bodies]
        match_ids = {body["match_id"] for body in bodies if body["match_id"] is not None}
        assert len(match_ids) == 1
        heard = types(listen(client, token))
        assert heard.count("challenge_started") == 1 and heard.count("match_started") == 1


def test_of_two_changes_read_at_one_version_only_the_first_is_stored(app: Flask, client: FlaskClient) -> None:
    """Rule: the store writes a challenge only at the version it was read at: of two racing changes (here two
    acceptances read before either was written) the second is refused and must read again."""
    _me, token = player(client)
    (b, _b_token), (c, _c_token) = player(client), player(client)
    challenge_id = challenge(client, token, [b, c], players=3)["challenge_id"]
    store = service_of(app).core.store.challenges()
    first, second = store.load(challenge_id), store.load(challenge_id)
    assert first is not None and second is not None
    expected = first.version
    for record, name in ((first, b), (second, c)):
        record.accepted.append(name)
        record.version += 1
    assert store.save(first, expected, 60) is True
    assert store.save(second, expected, 60) is False
    stored = store.load(challenge_id)
    assert stored is not None and stored.accepted == [b] and stored.version == expected + 1


def test_an_accept_racing_a_withdrawal_is_resolved_once(app: Flask, client: FlaskClient) -> None:
    """Rule: either the accept wins (started; the withdrawal 409 challenge_closed) or the withdrawal does (204;
    the accept 409 challenge_closed), never both."""
    for _ in range(5):
        _me, token = player(client)
        friend, friend_token = player(client)
        challenge_id = challenge(client, token, [friend])["challenge_id"]
        accepted, withdrawn = race(app, challenge_id, [(friend_token, "accept"), (token, "withdraw")])
        if withdrawn.status_code == 204:
            assert refused(accepted) == (409, "challenge_closed")
            assert ok(answer(client, token, challenge_id, "read"))["status"] == "withdrawn"
        else:
            assert refused(withdrawn) == (409, "challenge_closed") and ok(accepted)["status"] == "started"


# ----- rated ---------------------------------------------------------------------------------------------------


def test_a_rated_challenge_between_two_accounts_played_out_moves_both_ratings(api: Api, client: FlaskClient) -> None:
    """Rule: the accounts' tokens play their seats; the match's end moves both accounts' ratings once."""
    me, token = player(client)
    friend, friend_token = player(client)
    challenge_id = challenge(client, token, [friend], rated=True)["challenge_id"]
    match_id = ok(answer(client, friend_token, challenge_id, "accept"))["match_id"]
    play_out(api, match_id, {0: token, 1: friend_token})
    assert api.public(match_id)["status"] == "finished"
    ratings = {}
    for name in (me, friend):
        profile = json_object(client.get(f"/v1/players/{name}"))
        (rating,) = profile["ratings"]
        assert rating["players"] == 2 and rating["games"] == 1
        ratings[name] = rating["rating"]
    assert ratings[me] != ratings[friend], "the winner rose, the loser fell"
    finished = [e for e in listen(client, friend_token) if e["type"] == "match_finished"]
    assert len(finished) == 1 and finished[0]["rating_after"] == ratings[friend]


def test_deleting_an_account_forgets_its_challenges(client: FlaskClient, db: Any) -> None:
    """Rule: after DELETE /v1/me no challenge record holds the account's name or id."""
    me, token = player(client)
    friend, _friend_token = player(client)
    account_id = db.get(name_key(me)).decode()
    challenge_id = challenge(client, token, [friend])["challenge_id"]
    deleted = client.delete("/v1/me", json={"password": "correct horse battery"}, headers=auth(token))
    assert deleted.status_code == 204, deleted.json
    assert not db.exists(f"tl:{{chal:{challenge_id}}}") and not db.exists(account_challenges_key(account_id))


# ----- caps on pending challenges ---------------------------------------------------------------------


@pytest.fixture
def capped(redis_server: LocalRedis) -> FlaskClient:
    """A client of an app that allows 2 pending challenges sent and 3 received an account."""
    settings = {"TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    settings |= {"TIENLEN_MAX_CHALLENGES_SENT": "2", "TIENLEN_MAX_CHALLENGES_RECEIVED": "3"}
    return create_app({"REDIS_URL": redis_server.url, **settings}).test_client()


def test_a_sender_over_its_cap_of_pending_challenges_is_refused_until_one_closes(capped: FlaskClient) -> None:
    """Rule: past TIENLEN_MAX_CHALLENGES_SENT pending challenges a new one is 409 too_many_challenges and
    nobody hears of it; withdrawing, declining or accepting one gives its place back."""
    _me, token = player(capped)
    targets = [player(capped) for _ in range(5)]
    first = challenge(capped, token, [targets[0][0]])
    second = challenge(capped, token, [targets[1][0]])
    assert refused(send(capped, token, [targets[2][0]])) == (409, "too_many_challenges")
    assert listen(capped, targets[2][1]) == [], "the refused challenge was not told"
    ok(answer(capped, token, first["challenge_id"], "withdraw"), 204)
    third = challenge(capped, token, [targets[2][0]])
    assert refused(send(capped, token, [targets[3][0]])) == (409, "too_many_challenges")
    ok(answer(capped, targets[1][1], second["challenge_id"], "decline"))
    challenge(capped, token, [targets[3][0]])
    ok(answer(capped, targets[2][1], third["challenge_id"], "accept"))
    challenge(capped, token, [targets[4][0]])
    house = challenge(capped, token, ["easy"])
    assert house["status"] == "started", "a challenge of house bots alone is never pending: not counted"


def test_a_target_over_its_cap_of_pending_challenges_is_refused_and_others_keep_theirs(capped: FlaskClient) -> None:
    """Rule: past TIENLEN_MAX_CHALLENGES_RECEIVED pending challenges for one account, a new one naming it is 409
    too_many_challenges (also in a three-player challenge, and then the other account keeps nothing)."""
    target, target_token = player(capped)
    senders = [player(capped) for _ in range(5)]
    sent = [challenge(capped, token, [target]) for _name, token in senders[:3]]
    other, other_token = player(capped)
    assert refused(send(capped, senders[3][1], [other, target], 3)) == (409, "too_many_challenges")
    assert refused(send(capped, senders[3][1], [target])) == (409, "too_many_challenges")
    challenge(capped, senders[4][1], [other])  # the refused three-player challenge kept no place of other's
    assert [e["challenge_id"] for e in listen(capped, target_token)] == [c["challenge_id"] for c in sent]
    ok(answer(capped, senders[0][1], sent[0]["challenge_id"], "withdraw"), 204)
    challenge(capped, senders[3][1], [target])
    assert len([e for e in listen(capped, other_token) if e["type"] == "challenge_received"]) == 1
