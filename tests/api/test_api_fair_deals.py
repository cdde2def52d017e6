"""Nobody chooses a public deal, and every deal nobody fixed can be verified (``tienlen-deal/1``).

Rules checked: a create that fixes the deal (``seed`` or ``deal``) of a match others can join (an open seat, which
gives a room code, or ``listed``) is refused with 422 ``fixed_deal_not_private`` and keeps nothing; a private match
(every seat the creator's own or a bot) still deals its seed's hand and has no ``fair_deal``; every other match
shows the commitment from its creation, each seat's entropy once the seat is taken and the secret only once it is
finished, whose SHA-256 is the commitment and which deals every hand the match had; bad entropy is 422
``invalid_request``; the replay of a fair match carries its ``fair_deal`` and verifies with ``tienlen replay``,
and a replay with a card moved between two seats, another secret or other entropy is refused.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient
from tienlen_client.botkit import lowest_play

from tests.support.accounts import auth, fresh_name, session_of
from tests.support.api import Api, json_object
from tests.support.lifecycle import play_out, tokens_of
from tienlen.api import create_app
from tienlen.engine import FairDeal, format_mask, shuffled_deal
from tienlen.local_redis import LocalRedis
from tienlen.replay import ReplayError, referee

FAIR_DB = 11  # a database of the tests' Redis no other test file uses: "nothing is kept" is read over all of it
HEX64 = set("0123456789abcdef")


@pytest.fixture
def own_db(redis_server: LocalRedis) -> Iterator[tuple[FlaskClient, Any]]:
    """A client of an app on a database of its own (open hosting), and a Redis client reading that database."""
    url = f"{redis_server.url.rsplit('/', 1)[0]}/{FAIR_DB}"
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    app = create_app({"REDIS_URL": url, "TIENLEN_ANONYMOUS_HOSTING": "1", **settings})
    reader = redis.Redis.from_url(url)
    yield app.test_client(), reader
    reader.close()


TWO = [{"name": "Ann"}, {"name": "Bo"}]
OPEN = [{"name": "Ann"}, {"open": True}]
DEAL = [["3S", "4S"], ["3C", "4C"]]
PUBLIC_FIXED = [
    ("a seed with an open seat", {"seats": OPEN, "seed": 7}, False),
    ("seed 0 with an open seat", {"seats": OPEN, "seed": 0}, False),
    ("a deal with an open seat", {"seats": OPEN, "deal": DEAL}, False),
    ("a seed and a deal with an open seat", {"seats": OPEN, "seed": 7, "deal": DEAL}, False),
    ("a seed for a listed match", {"seats": TWO, "seed": 7, "listed": True}, False),
    ("a deal for a listed match", {"seats": TWO, "deal": DEAL, "listed": True}, False),
    ("a seed with a bot and an open seat", {"seats": [*OPEN, {"name": "Cy", "bot": "easy"}], "seed": 7}, False),
    ("a seed for a room hosted by an account", {"seats": OPEN, "seed": 7}, True),
]


@pytest.mark.parametrize(("case", "body", "hosted"), PUBLIC_FIXED, ids=[c[0] for c in PUBLIC_FIXED])
def test_a_fixed_deal_for_a_match_others_can_join_is_refused_and_nothing_is_kept(
    own_db: tuple[FlaskClient, Any], case: str, body: dict[str, Any], hosted: bool
) -> None:
    """Rule: seed/deal with an open seat (a room code) or listed is 422 fixed_deal_not_private; nothing is kept."""
    client, reader = own_db
    headers = auth(session_of(client, fresh_name("f"))) if hosted else {}
    before = sorted(reader.scan_iter("tl:*"))
    refused = client.post("/v1/matches", json=body, headers={**headers, "Idempotency-Key": fresh_name("k")})
    assert refused.status_code == 422, (case, refused.json)
    assert json_object(refused)["reason"] == "fixed_deal_not_private", case
    assert sorted(reader.scan_iter("tl:*")) == before, "no match, room code, lobby entry or kept answer"
    lobby = json_object(client.get("/v1/matches?limit=50"))["matches"]
    assert lobby == [], "nothing listed"


@pytest.mark.parametrize(
    "seats",
    [
        TWO,
        [{"name": "Ann"}, {"name": "Bo", "bot": "easy"}],
        [{"name": "A"}, {"name": "B"}, {"name": "C", "bot": "hard"}],
    ],
)
def test_a_private_match_with_a_seed_still_deals_the_seeds_hand_and_has_no_fair_deal(
    api: Api, seats: list[dict[str, Any]]
) -> None:
    """Rule: every seat the creator's own (tokens in the answer) or a bot: the seed deals, as it always did."""
    created = api.create(seats=seats, seed=1234)
    match_id, tokens = created["match_id"], tokens_of(created)
    assert created["match"]["fair_deal"] is None and api.public(match_id)["fair_deal"] is None
    seed_deal = shuffled_deal(random.Random(1234).getrandbits(63), 1, len(seats))
    for seat, token in tokens.items():
        assert api.view(match_id, token)["cards"] == format_mask(seed_deal[seat])


def test_a_private_match_with_a_deal_deals_it(api: Api) -> None:
    """Rule: a private match's own first deal is dealt as given."""
    created = api.create(seats=TWO, deal=DEAL)
    tokens = tokens_of(created)
    assert [api.view(created["match_id"], tokens[s])["cards"] for s in (0, 1)] == DEAL
    assert created["match"]["fair_deal"] is None


def play_with_lowest(api: Api, match_id: str, tokens: dict[int, str]) -> list[list[list[str]]]:
    """Play the match out with each seat's lowest play; every hand's deal as the seats saw it when it started."""
    dealt: list[list[list[str]]] = []
    while (match := api.public(match_id))["status"] == "playing":
        if match["hand_number"] > len(dealt):
            dealt.append([api.view(match_id, tokens[seat])["cards"] for seat in sorted(tokens)])
        seat = match["turn"]
        cards = lowest_play(api.view(match_id, tokens[seat]))
        body = {"type": "pass"} if cards is None else {"type": "play", "cards": cards}
        assert api.act(match_id, tokens[seat], body).status_code == 200
    return dealt


def test_a_joinable_match_commits_at_creation_shows_entropy_and_reveals_the_secret_only_once_finished(
    api: Api,
) -> None:
    """Rule: the commitment is public from creation (no secret); each seat's entropy shows once it is taken; the
    secret shows once the match is finished, its SHA-256 is the commitment and it deals every hand played."""
    seats = [{"name": "Ann", "entropy": "ann-7f3a"}, {"open": True}, {"name": "Cy"}]
    created = api.create(seats=seats, rules={"hands": 2, "scoring": "places"}, listed=True)
    match_id, tokens = created["match_id"], tokens_of(created)
    fair = created["match"]["fair_deal"]
    assert fair["protocol"] == "tienlen-deal/1" and fair["secret"] is None
    assert len(fair["commitment"]) == 64 and set(fair["commitment"]) <= HEX64
    assert fair["entropy"] == ["ann-7f3a", "", ""], "an open seat shows none yet"
    assert "seed" not in json.dumps(created), "no seed is shown"
    joined = api.client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo", "entropy": "bo's own ~ 42"})
    assert joined.status_code == 201, joined.json
    tokens[json_object(joined)["seat"]] = json_object(joined)["token"]
    playing = api.public(match_id)
    assert playing["status"] == "playing"
    assert playing["fair_deal"] == fair | {"entropy": ["ann-7f3a", "bo's own ~ 42", ""]}, "same commitment, no secret"
    assert api.view(match_id, tokens[0])["fair_deal"]["secret"] is None, "a seat's view shows no secret either"
    dealt = play_with_lowest(api, match_id, tokens)
    finished = api.public(match_id)["fair_deal"]
    assert finished["commitment"] == fair["commitment"] and finished["secret"] is not None
    secret = bytes.fromhex(finished["secret"])
    assert hashlib.sha256(secret).hexdigest() == fair["commitment"]
    protocol = FairDeal(secret, match_id, tuple(finished["entropy"]))
    assert len(dealt) >= 2
    for number, hands in enumerate(dealt, start=1):
        assert hands == [format_mask(mask) for mask in protocol.hand(number)], f"hand {number} is the protocol's"


def test_an_entropy_given_when_joining_by_room_code_is_used(api: Api) -> None:
    """Rule: a room join's entropy is the seat's, shown in fair_deal and dealt with."""
    created = api.create(seats=[{"name": "Ann"}, {"open": True}], rules={"hands": 1})
    code = created["match"]["room_code"]
    joined = api.client.post(f"/v1/rooms/{code}/join", json={"name": "Bo", "entropy": " x "})
    assert joined.status_code == 201, joined.json
    match = api.public(created["match_id"])
    assert match["fair_deal"]["entropy"] == ["", " x "]


@pytest.mark.parametrize("entropy", ["x" * 65, "new\nline", "tab\t", "caf\u00e9", "\u200b", 7, None, ["x"]])
@pytest.mark.parametrize("by_code", [False, True], ids=["join", "room join"])
def test_a_join_with_bad_entropy_is_invalid_request_and_leaves_the_seat_open(
    api: Api, entropy: Any, by_code: bool
) -> None:
    """Rule: entropy is 0 to 64 printable ASCII characters; anything else is 422 invalid_request, no seat taken."""
    created = api.create(seats=[{"name": "Ann"}, {"open": True}])
    match_id, code = created["match_id"], created["match"]["room_code"]
    path = f"/v1/rooms/{code}/join" if by_code else f"/v1/matches/{match_id}/join"
    refused = api.client.post(path, json={"name": "Bo", "entropy": entropy})
    assert refused.status_code == 422 and json_object(refused)["reason"] == "invalid_request", refused.json
    assert "entropy" in json_object(refused)["message"]
    assert [s["open"] for s in api.public(match_id)["seats"]] == [False, True]
    fine = api.client.post(path, json={"name": "Bo", "entropy": "x" * 64})
    assert fine.status_code == 201, fine.json


def test_a_rematch_is_fair_dealt_with_a_new_commitment(api: Api) -> None:
    """Rule: a rematch is dealt fairly, from a secret of its own (even after a private match with a seed)."""
    created = api.create(seats=[{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], rules={"hands": 1}, seed=5)
    match_id, tokens = created["match_id"], tokens_of(created)
    play_out(api, match_id, tokens)
    again = api.client.post(f"/v1/matches/{match_id}/rematch", headers=api.auth(tokens[0]))
    assert again.status_code in (200, 201), again.json
    rematch = api.public(json_object(again)["match_id"])
    assert rematch["status"] == "playing" and rematch["fair_deal"]["secret"] is None
    assert len(rematch["fair_deal"]["commitment"]) == 64


# ----- the replay of a fair match ----------------------------------------------------------------


@pytest.fixture(scope="module")
def fair_replay(redis_server: LocalRedis) -> dict[str, Any]:
    """The replay of a finished two-hand fair match: Ann (entropy), Bo joined (entropy), an Easy bot."""
    settings = {"TIENLEN_BOT_BUDGET": "0.02", "TIENLEN_LOG_LEVEL": "WARNING", "TIENLEN_RATE_LIMITS": "off"}
    app = create_app({"REDIS_URL": redis_server.url, "TIENLEN_ANONYMOUS_HOSTING": "1", **settings})
    api = Api(app.test_client())
    seats = [{"name": "Ann", "entropy": "a1"}, {"open": True}, {"name": "Cy", "bot": "easy"}]
    created = api.create(seats=seats, rules={"hands": 2, "scoring": "places"})
    match_id, tokens = created["match_id"], tokens_of(created)
    joined = json_object(api.client.post(f"/v1/matches/{match_id}/join", json={"name": "Bo", "entropy": "b2"}))
    tokens[joined["seat"]] = joined["token"]
    play_with_lowest(api, match_id, tokens)
    replay = api.client.get(f"/v1/matches/{match_id}/replay")
    assert replay.status_code == 200, replay.json
    document = json_object(replay)
    assert document["fair_deal"]["commitment"] == created["match"]["fair_deal"]["commitment"]
    return document


def test_the_replay_of_a_fair_match_carries_its_fair_deal_and_verifies(fair_replay: dict[str, Any]) -> None:
    """Rule: the replay's fair_deal names the protocol, match, commitment, secret and entropy; refereeing checks
    the commitment and every hand's deal."""
    fair = fair_replay["fair_deal"]
    assert set(fair) == {"protocol", "match_id", "commitment", "secret", "entropy"}
    assert fair["protocol"] == "tienlen-deal/1" and fair["entropy"] == ["a1", "b2", ""]
    assert hashlib.sha256(bytes.fromhex(fair["secret"])).hexdigest() == fair["commitment"]
    found = referee(fair_replay)
    assert found.fair_deal and found.hands == len(fair_replay["hands"]) >= 2


def _swap_a_card_between_two_seats(replay: dict[str, Any]) -> None:
    deal = replay["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]


def _swap_in_the_last_hand(replay: dict[str, Any]) -> None:
    deal = replay["hands"][-1]["deal"]
    deal[0][-1], deal[2][-1] = deal[2][-1], deal[0][-1]


def _another_secret(replay: dict[str, Any]) -> None:
    replay["fair_deal"]["secret"] = hashlib.sha256(b"another").hexdigest()


def _another_secret_and_its_commitment(replay: dict[str, Any]) -> None:
    secret = hashlib.sha256(b"another").digest()
    replay["fair_deal"] |= {"secret": secret.hex(), "commitment": hashlib.sha256(secret).hexdigest()}


FAIR_TAMPERINGS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("a card swapped between two seats", _swap_a_card_between_two_seats, "hand 1: the deal is not the one the"),
    ("a card swapped in the last hand", _swap_in_the_last_hand, "the deal is not the one the tienlen-deal/1"),
    ("another secret", _another_secret, "not the one its commitment committed to"),
    ("another secret and commitment", _another_secret_and_its_commitment, "hand 1: the deal is not the one the"),
    ("other entropy", lambda r: r["fair_deal"]["entropy"].__setitem__(1, "b3"), "hand 1: the deal is not"),
    ("another match id", lambda r: r["fair_deal"].update(match_id="0" * 20), "hand 1: the deal is not"),
    ("entropy of too few seats", lambda r: r["fair_deal"]["entropy"].pop(), "entropy is not a text for each"),
    ("another protocol", lambda r: r["fair_deal"].update(protocol="tienlen-deal/0"), "not a tienlen-deal/1 deal"),
    ("a secret that is not hex", lambda r: r["fair_deal"].update(secret="zz" * 32), "not 64 hex digits"),
    ("no fair_deal object", lambda r: r.update(fair_deal=[1]), "not a tienlen-deal/1 deal"),
    ("entropy too long", lambda r: r["fair_deal"]["entropy"].__setitem__(0, "x" * 70_000), "printable ASCII"),
    ("a lone surrogate in entropy", lambda r: r["fair_deal"]["entropy"].__setitem__(0, "\ud800"), "printable ASCII"),
    ("a match id not ASCII", lambda r: r["fair_deal"].update(match_id="caf\u00e9"), "not an ASCII text"),
]


@pytest.mark.parametrize(("change", "tamper", "message"), FAIR_TAMPERINGS, ids=[t[0] for t in FAIR_TAMPERINGS])
def test_a_tampered_fair_replay_is_refused(
    fair_replay: dict[str, Any], change: str, tamper: Callable[[dict[str, Any]], None], message: str
) -> None:
    """Rule: a deal not the protocol's, or a secret not the commitment's, is refused naming what does not hold."""
    changed = copy.deepcopy(fair_replay)
    tamper(changed)
    assert changed != fair_replay, change
    with pytest.raises(ReplayError) as refused:
        referee(changed)
    assert message in str(refused.value), str(refused.value)


def _cli(stdin: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "tienlen", "replay", "-"]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=60)


def test_the_replay_command_says_the_deal_was_verified_and_refuses_a_tampered_one(
    fair_replay: dict[str, Any], tmp_path: Path
) -> None:
    """Rule: ``tienlen replay`` prints that the commitment and every hand's deal were verified; a card swapped
    between two seats exits 1 naming the hand."""
    done = _cli(json.dumps(fair_replay))
    assert done.returncode == 0, done.stderr
    hands = len(fair_replay["hands"])
    assert done.stdout.splitlines()[-1] == f"deal verified: commitment and {hands} hands"
    changed = copy.deepcopy(fair_replay)
    _swap_a_card_between_two_seats(changed)
    refused = _cli(json.dumps(changed))
    assert refused.returncode == 1 and refused.stdout == ""
    assert refused.stderr.startswith("tienlen replay: refused: hand 1: the deal is not the one the tienlen-deal/1")


def test_a_seeded_replay_says_nothing_of_a_fair_deal(api: Api) -> None:
    """Rule: a private seeded match's replay has no fair_deal and its check says no deal was verified."""
    created = api.create(seats=[{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], rules={"hands": 1}, seed=3)
    play_out(api, created["match_id"], tokens_of(created))
    replay = json_object(api.client.get(f"/v1/matches/{created['match_id']}/replay"))
    assert "fair_deal" not in replay and referee(replay).fair_deal is False
    done = _cli(json.dumps(replay))
    assert done.returncode == 0 and "deal verified" not in done.stdout


def test_the_kept_replay_of_a_fair_match_is_the_live_one_and_verifies(api: Api, client: FlaskClient, db: Any) -> None:
    """Rule: once the live match is gone, the replay kept in the history has the same fair_deal and verifies."""
    host = session_of(client, fresh_name("f"))
    body = {"seats": [{"name": "Host", "entropy": "h"}, {"open": True}], "rules": {"hands": 1}}
    created = json_object(client.post("/v1/matches", json=body, headers=auth(host)))
    match_id, tokens = created["match_id"], tokens_of(created)
    joined = json_object(client.post(f"/v1/matches/{match_id}/join", json={"name": "Guest", "entropy": "g"}))
    tokens[joined["seat"]] = joined["token"]
    play_with_lowest(api, match_id, tokens)
    live = json_object(client.get(f"/v1/matches/{match_id}/replay"))
    db.delete(f"tl:{{{match_id}}}:state", f"tl:{{{match_id}}}:events")  # what expiry does
    kept = json_object(client.get(f"/v1/matches/{match_id}/replay"))
    assert kept == live and kept["fair_deal"]["entropy"] == ["h", "g"]
    assert referee(kept).fair_deal
