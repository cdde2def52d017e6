"""The Python client checks a fair deal (``tienlen-deal/1``, docs/fair-deals.md) on its own: every hand a
partition of the deck that each of its inputs changes, a replay verified only when its commitment and every deal
hold, each seat's own random entropy sent on create and join, and a match played on a live server verified.

The vector of the protocol is checked against docs/fair-deals.md in tests/test_fair_deals_doc.py."""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

from lowest_bot import act_while_on_turn, lowest_from_legal
from tienlen_client import Client, FairDealCheck, Seat, verify_replay
from tienlen_client.fair_deal import card_number, commitment, hand_deal, hand_key

from tests.clients.people import new_member
from tests.clients.proxies import running
from tests.clients.stub import Answer, StubServer, refusal

SECRET = bytes(range(32))
MATCH_ID = "5f0e3c9a2b7d4e18c6a1"
ENTROPY = ["ann-7f3a", "", "bo"]
HEX32 = re.compile("[0-9a-f]{32}")
HEX64 = re.compile("[0-9a-f]{64}")


def _replay(hands: int = 3) -> dict[str, Any]:
    """A replay of three seats dealt by the protocol, as the server writes one (its actions left out)."""
    return {
        "format": "tienlen-replay/1",
        "rules": {"players": 3},
        "seed": 0,
        "seats": [{"name": name, "bot": None} for name in ("Ann", "Bo", "Cy")],
        "hands": [
            {"hand_number": n, "deal": hand_deal(SECRET, MATCH_ID, n, ENTROPY), "actions": []}
            for n in range(1, hands + 1)
        ],
        "result": {"scores": [0, 0, 0], "winner": None, "abandoned": True},
        "fair_deal": {
            "protocol": "tienlen-deal/1",
            "match_id": MATCH_ID,
            "commitment": commitment(SECRET),
            "secret": SECRET.hex(),
            "entropy": list(ENTROPY),
        },
    }


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_seat_gets_13_different_cards_sorted_low_to_high(seats: int) -> None:
    """Rule: a hand gives each of the P seats 13 cards of the deck, no card twice, listed low to high."""
    for number in (1, 2, 7):
        dealt = hand_deal(SECRET, MATCH_ID, number, [str(s) for s in range(seats)])
        numbers = [[card_number(card) for card in cards] for cards in dealt]
        assert [len(cards) for cards in numbers] == [13] * seats
        assert all(cards == sorted(cards) for cards in numbers)
        assert len({card for cards in numbers for card in cards}) == 13 * seats


@pytest.mark.parametrize(
    ("changed", "secret", "match_id", "hand_number", "entropy"),
    [
        ("the secret", bytes(32), MATCH_ID, 1, ENTROPY),
        ("the match id", SECRET, MATCH_ID[:-1] + "2", 1, ENTROPY),
        ("the hand number", SECRET, MATCH_ID, 2, ENTROPY),
        ("one seat's entropy", SECRET, MATCH_ID, 1, ["ann-7f3b", "", "bo"]),
        ("entropy moved from one seat to the next", SECRET, MATCH_ID, 1, ["ann-7f3a", "b", "o"]),
        ("a seat's entropy given to another", SECRET, MATCH_ID, 1, ["", "ann-7f3a", "bo"]),
    ],
)
def test_every_input_of_the_hand_key_changes_the_deal(
    changed: str, secret: bytes, match_id: str, hand_number: int, entropy: list[str]
) -> None:
    """Rule: the hand key covers the secret, the match id, the hand number and each seat's entropy with its
    length, so changing any of them gives another key and another deal."""
    assert hand_key(secret, match_id, hand_number, entropy) != hand_key(SECRET, MATCH_ID, 1, ENTROPY), changed
    assert hand_deal(secret, match_id, hand_number, entropy) != hand_deal(SECRET, MATCH_ID, 1, ENTROPY), changed


def test_a_replay_whose_commitment_and_deals_hold_is_verified() -> None:
    """Rule: verify_replay answers verified, the hands checked and no problem; its text says so."""
    check = verify_replay(_replay())
    assert check == FairDealCheck(True, 3, None)
    assert str(check) == "deal verified: commitment and 3 hands"
    exported = _replay(1) | {"match_id": MATCH_ID, "ended_at": "2026-12-06T04:00:00Z"}  # a line of an export
    assert str(verify_replay(exported)) == "deal verified: commitment and 1 hand"


def _swap_cards(replay: dict[str, Any]) -> None:
    deal = replay["hands"][1]["deal"]
    deal[0][0], deal[2][0] = deal[2][0], deal[0][0]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change of the replay: the field at ``path`` (dotted; numbers index lists) set to ``value``."""

    def change(replay: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = replay
        for step in parents:
            target = target[int(step)] if step.isdigit() else target[step]
        target[int(last) if last.isdigit() else last] = value

    return change


@pytest.mark.parametrize(
    ("change", "checked", "problem"),
    [
        (_set("format", "tienlen-replay/2"), 0, "not a tienlen-replay/1 document"),
        (lambda r: r.pop("fair_deal"), 0, "no fair_deal"),
        (_set("fair_deal.protocol", "tienlen-deal/2"), 0, "fair_deal.protocol"),
        (_set("fair_deal.secret", bytes(32).hex()), 0, "SHA-256 of the secret is not the commitment"),
        (_set("fair_deal.commitment", commitment(bytes(32))), 0, "SHA-256 of the secret is not the commitment"),
        (_set("fair_deal.secret", SECRET.hex().upper()), 0, "fair_deal.secret is not 64 lowercase hex"),
        (_set("fair_deal.commitment", None), 0, "fair_deal.commitment is not 64 lowercase hex"),
        (_set("fair_deal.match_id", MATCH_ID[:-1] + "2"), 0, "hand 1: seat 0's cards are not the protocol's deal"),
        (_set("match_id", "another"), 0, "is not the replay's match another"),
        (_set("fair_deal.entropy", ["ann-7f3a", "", "bo!"]), 0, "hand 1: seat 0's cards"),
        (_set("fair_deal.entropy", ["ann-7f3a", "", "bo", ""]), 0, "hand 1: the deal is not a list of 4 seats"),
        (_set("fair_deal.entropy", ["ann-7f3a", 7, "bo"]), 0, "fair_deal.entropy holds"),
        (_swap_cards, 1, "hand 2: seat 0's cards are not the protocol's deal"),
        (_set("hands.2.deal.1.0", "XX"), 2, "hand 3: seat 1's cards are not a list of cards"),
        (_set("hands.2.hand_number", 4), 2, "hand 4: seat 0's cards"),
        (_set("hands.1.hand_number", "2"), 1, "hand 2 has no valid hand_number"),
    ],
)
def test_a_replay_is_not_verified_when_anything_of_its_deal_does_not_hold(
    change: Callable[[dict[str, Any]], Any], checked: int, problem: str
) -> None:
    """Rule: a wrong secret or commitment, a changed match id, entropy or hand number, a card moved from one seat
    to another, or a malformed field is not verified; the check names the first problem and the hands that held."""
    replay = copy.deepcopy(_replay())
    change(replay)
    check = verify_replay(replay)
    assert (check.verified, check.hands) == (False, checked)
    assert check.problem is not None and problem in check.problem
    assert str(check) == f"deal NOT verified: {check.problem}"


def test_a_deal_listed_in_another_order_is_still_the_protocols() -> None:
    """Rule: a seat's cards are compared as a set: the order a replay lists them in does not matter."""
    replay = _replay()
    for hand in replay["hands"]:
        hand["deal"] = [list(reversed(cards)) for cards in hand["deal"]]
    assert verify_replay(replay).verified


# ------------------------------------------------------------------ what the client sends


@pytest.fixture
def stub() -> Iterator[StubServer]:
    server = StubServer()
    with running(server):
        yield server


def _sent(stub: StubServer, index: int = -1) -> Any:
    return json.loads(stub.received[index].body)


def test_create_sends_each_remote_seat_its_own_random_entropy_unless_the_deal_is_fixed(stub: StubServer) -> None:
    """Rule: without seed or deal, create_match gives every remote seat a fresh 32-hex entropy (a seat's own kept,
    bots and open seats none, "" none); with a seed or a deal, nothing is added."""
    client = Client(stub.url)
    stub.script = [Answer(201, {"match_id": "m1"})] * 5
    seats: list[dict[str, Any]] = [
        {"type": "remote", "name": "Ann"},
        {"name": "Bo"},
        {"name": "Cy", "entropy": "mine"},
        {"type": "bot", "name": "Di", "bot": "easy"},
        {"type": "open", "open": True},
    ]
    client.create_match(seats)
    sent = _sent(stub)["seats"]
    assert HEX32.fullmatch(sent[0]["entropy"]) and HEX32.fullmatch(sent[1]["entropy"])
    assert sent[0]["entropy"] != sent[1]["entropy"]
    assert [seat.get("entropy") for seat in sent[2:]] == ["mine", None, None]
    client.create_match(seats[:2], entropy="ours")
    assert [seat["entropy"] for seat in _sent(stub)["seats"]] == ["ours", "ours"]
    client.create_match(seats[:2], entropy="")
    assert _sent(stub)["seats"] == seats[:2]
    client.create_match(seats[:2], seed=7)
    assert _sent(stub)["seats"] == seats[:2]
    client.create_match(seats[:2], deal=[["3S"], ["3C"]])
    assert _sent(stub)["seats"] == seats[:2]


@pytest.mark.parametrize(
    ("call", "path"),
    [
        (lambda c, **kw: c.join("m1", "Bo", **kw), "/v1/matches/m1/join"),
        (lambda c, **kw: c.join_room("K7QM2X", "Bo", **kw), "/v1/rooms/K7QM2X/join"),
    ],
)
def test_join_sends_a_random_entropy_of_its_own_the_same_on_every_attempt(
    stub: StubServer, call: Callable[..., Any], path: str
) -> None:
    """Rule: join and join_room send a fresh 32-hex entropy per call, the same on each attempt of it (so a retry
    keeps its Idempotency-Key's body), the caller's own when given, none for ""."""
    answer = Answer(201, {"match_id": "m1", "seat": 1, "token": "t"})
    client = Client(stub.url, sleep=lambda _: None)
    stub.script = [refusal(503, "outcome_unknown"), answer]
    call(client)
    first, second = (json.loads(r.body) for r in stub.received)
    assert stub.received[0].path == path and first == second and first["name"] == "Bo"
    assert HEX32.fullmatch(first["entropy"])
    stub.script = [answer]
    call(client)
    assert HEX32.fullmatch(_sent(stub)["entropy"]) and _sent(stub)["entropy"] != first["entropy"]
    stub.script = [answer]
    call(client, entropy="my dice: 4 4 1")
    assert _sent(stub)["entropy"] == "my dice: 4 4 1"
    stub.script = [answer]
    call(client, entropy="")
    assert _sent(stub) == {"name": "Bo"}


def test_verify_deal_reads_the_replay_and_checks_it(stub: StubServer) -> None:
    """Rule: Client.verify_deal reads GET /v1/matches/{id}/replay and answers verify_replay's check of it."""
    stub.script = [Answer(200, _replay()), Answer(200, _replay() | {"fair_deal": None})]
    client = Client(stub.url)
    assert client.verify_deal(MATCH_ID) == FairDealCheck(True, 3, None)
    assert not client.verify_deal(MATCH_ID).verified
    assert [(r.method, r.path) for r in stub.received] == [("GET", f"/v1/matches/{MATCH_ID}/replay")] * 2


# ------------------------------------------------------------------ on a live server (needs the server's fair_deal)


def _play_out(seats: dict[int, Seat]) -> None:
    """Play every seat of ``seats`` (the lowest legal play) until the match is finished."""
    any_seat = next(iter(seats.values()))
    for _ in range(1000):
        view = any_seat.view()
        if view["status"] == "finished":
            return
        if view["turn"] in seats:
            act_while_on_turn(seats[view["turn"]], seats[view["turn"]].view(), lowest_from_legal)
    raise AssertionError("the match did not end")


@pytest.mark.xdist_group("live_server")
def test_a_match_joined_with_entropy_is_dealt_fairly_and_its_replay_verifies(live_server: str) -> None:
    """Rule: a match with an open seat publishes its commitment and each seat's entropy as it is taken (no secret
    before the end); once finished the secret is revealed, and the client recomputes every hand's deal."""
    client = Client(live_server)
    host = new_member(client)
    seats: list[dict[str, Any]] = [{"type": "remote", "name": "me"}, {"type": "open", "open": True}]
    created = client.create_match(seats, rules={"hands": 2}, token=host.token, entropy="host's dice")
    match_id = created["match_id"]
    fair = created["match"]["fair_deal"]
    assert (fair["protocol"], fair["entropy"], fair["secret"]) == ("tienlen-deal/1", ["host's dice", ""], None)
    assert HEX64.fullmatch(fair["commitment"])
    joined = client.join(match_id, "Bo", entropy="bo's coin")
    playing = client.match(match_id)["fair_deal"]
    assert playing == fair | {"entropy": ["host's dice", "bo's coin"]}
    _play_out({0: client.seat(match_id, host.token), 1: client.seat(match_id, joined["token"])})
    revealed = client.match(match_id)["fair_deal"]
    assert revealed["commitment"] == fair["commitment"]
    assert commitment(bytes.fromhex(revealed["secret"])) == fair["commitment"]
    replay = client.replay(match_id)
    assert replay["fair_deal"] == {
        "protocol": "tienlen-deal/1",
        "match_id": match_id,
        "commitment": fair["commitment"],
        "secret": revealed["secret"],
        "entropy": ["host's dice", "bo's coin"],
    }
    assert client.verify_deal(match_id) == FairDealCheck(True, len(replay["hands"]), None)
    secret = bytes.fromhex(revealed["secret"])
    assert replay["hands"][0]["deal"] == hand_deal(secret, match_id, 1, ["host's dice", "bo's coin"])


@pytest.mark.xdist_group("live_server")
def test_a_match_dealt_from_a_seed_has_no_fair_deal_to_verify(live_server: str) -> None:
    """Rule: a private match whose creator gave a seed has fair_deal null, and its replay is not "verified"."""
    client = Client(live_server)
    seats = [{"type": "remote", "name": "Ann"}, {"type": "bot", "name": "Bo", "bot": "easy"}]
    created = client.create_match(seats, rules={"hands": 1}, seed=5)
    assert created["match"]["fair_deal"] is None
    _play_out({0: client.seat(created["match_id"], created["tokens"][0]["token"])})
    check = client.verify_deal(created["match_id"])
    assert not check.verified and check.problem is not None and "no fair_deal" in check.problem
