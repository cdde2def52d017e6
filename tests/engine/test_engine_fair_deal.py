"""The fair deal protocol ``tienlen-deal/1`` in the engine: the spec's test vector, and matches dealt by it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from tests.support.tools import require_tool
from tienlen.engine import (
    DealError,
    FairDeal,
    Match,
    commitment,
    format_mask,
    match_from_dict,
    match_to_dict,
    resolve_rules,
)
from tienlen.engine.accel import load_core
from tienlen.engine.deal import hand_key

SECRET = bytes(range(32))
MATCH_ID = "5f0e3c9a2b7d4e18c6a1"
ANN = ("ann-7f3a", "", "bo", "cy")

# The test vector of the protocol's spec (FAIR_DEAL_SPEC.md, computed by its reference script vector.py).
VECTOR = [
    (
        1,
        ANN,
        "b104e46438add217331f4cc9450750f5e31271a1bfe3c02611507d48b23a082d",
        [
            "3H 4D 6C 7S 7D 8S 9S 9H 10C 10D JC JH QS",
            "3S 4S 4C 5S 6S 6H 7C 8H 9C QH KC AD 2S",
            "5C 5H 6D 8C 10H JS QC QD KS AS AC AH 2D",
            "3C 3D 4H 5D 7H 8D 9D 10S JD KD KH 2C 2H",
        ],
    ),
    (
        2,
        ANN,
        "4ef7707851057668c064aacf708a83a12e9b1831d98fb106f0c5a17a45a075d8",
        [
            "5H 6C 6D 8C 8D 9C 9D 9H 10C 10H QD KS AD",
            "3C 3H 4C 6S 6H 7C 8S 9S 10S JS JH KD KH",
            "3S 3D 4D 4H 5C 5D 8H 10D QH AC AH 2S 2H",
            "4S 5S 7S 7D 7H JC JD QS QC KC AS 2C 2D",
        ],
    ),
    (
        1,
        ("x", "y", ""),
        "e571c2f521b8834823e1a93fd828e05f07e9b47f972784447a31d581b24954a9",
        [
            "3H 4C 5H 6S 6H 7S 8H 9H QC KS KH AH 2C",
            "3C 3D 4S 5S 6C 7D 7H 8C 9S 9D 10S 10C KD",
            "3S 5C 7C 8D 9C 10D JC JD JH QD KC AD 2D",
        ],
    ),
]


def test_the_commitment_of_the_vectors_secret_is_the_specs() -> None:
    """Rule: the commitment is the lower-case hex SHA-256 of the secret (the spec's vector)."""
    assert commitment(SECRET) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert FairDeal(SECRET, MATCH_ID, ANN).commitment == commitment(SECRET)


@pytest.mark.parametrize(("hand", "entropy", "key", "seats"), VECTOR)
def test_the_specs_test_vector_is_dealt_exactly(
    hand: int, entropy: tuple[str, ...], key: str, seats: list[str]
) -> None:
    """Rule: the hand key and every seat's cards are the spec's test vector's, for each of its three cases."""
    assert hand_key(SECRET, MATCH_ID, hand, entropy).hex() == key
    dealt = FairDeal(SECRET, MATCH_ID, entropy).hand(hand)
    assert [" ".join(format_mask(mask)) for mask in dealt] == seats


def test_a_fair_match_deals_every_hand_by_the_protocol() -> None:
    """Rule: a match made with a fair deal deals hand 1 and every later hand as the protocol does."""
    rng = random.Random(7)
    for players, preset in ((2, "standard"), (3, "standard"), (4, "standard"), (4, "classic"), (3, "ladder")):
        rules = resolve_rules({"preset": preset, "hands": 3, "scoring": "places"}, players=players)
        fair = FairDeal(rng.randbytes(32), f"{rng.getrandbits(80):020x}", tuple(f"e{s}" * s for s in range(players)))
        match, _ = Match.new(rules, random.Random(1), fair=fair)
        seen = 0
        while match.outcome is None:
            if match.hand_number != seen:
                seen = match.hand_number
                assert match.hands == fair.hand(seen), (players, preset, seen)
            seat, legal = match.turn, match.legal_masks()
            assert seat is not None
            if legal and (match.table is None or rng.random() < 0.7):
                match.play(seat, rng.choice(legal))
            else:
                match.pass_turn(seat)
        assert seen >= 3


def test_a_fair_match_keeps_its_inputs_through_serialization() -> None:
    """Rule: the hand-key inputs survive the engine's state dict, so hands 2+ of a stored match are fair too."""
    rules = resolve_rules({"hands": 2, "scoring": "places"}, players=3)
    fair = FairDeal(SECRET, MATCH_ID, ("x", "y", ""))
    match, _ = Match.new(rules, random.Random(1), fair=fair)
    again = match_from_dict(match_to_dict(match))
    assert again.fair == fair and again == match
    assert SECRET.hex() not in repr(fair) and SECRET.hex() not in repr(again)
    old = match_to_dict(Match.new(rules, random.Random(1))[0])
    assert "fair" not in old and match_from_dict(old).fair is None


def test_a_joiners_entropy_changes_the_deal() -> None:
    """Rule: with the same secret, another seat's entropy deals other hands (a joiner's entropy counts)."""
    base = FairDeal(SECRET, MATCH_ID, ANN).hand(1)
    for seat in range(4):
        other = list(ANN)
        other[seat] += "!"
        assert FairDeal(SECRET, MATCH_ID, tuple(other)).hand(1) != base
    assert FairDeal(SECRET, "another-match-id", ANN).hand(1) != base
    assert FairDeal(bytes(32), MATCH_ID, ANN).hand(1) != base


@pytest.mark.parametrize(
    ("secret", "entropy", "deal"),
    [
        (bytes(31), ("a", "b"), None),
        (SECRET, ("a",), None),
        (SECRET, ("a", "b", "c"), None),  # three texts for a 2-seat match
        (SECRET, ("a", "b"), [["3S"], ["4S"]]),  # a fair deal fixes no hand
        (SECRET, ("a", "x" * 65), None),
        (SECRET, ("a", "new\nline"), None),
        (SECRET, ("a", "caf\u00e9"), None),
    ],
)
def test_a_fair_deal_with_wrong_inputs_is_refused(
    secret: bytes, entropy: tuple[str, ...], deal: list[list[str]] | None
) -> None:
    """Rule: a secret not of 32 bytes, entropy not one text per seat, or a fixed deal with a fair one is refused."""
    rules = resolve_rules({}, players=2)
    with pytest.raises(DealError):
        Match.new(rules, random.Random(1), deal, fair=FairDeal(secret, MATCH_ID, entropy))


# A fair match played to its end with a fixed policy (the first legal play, else a pass): its deals and actions.
PLAY_A_FAIR_MATCH = """
import json, random
from tienlen.engine import FairDeal, Match, resolve_rules
from tienlen.engine.accel import ENGINE
rules = resolve_rules({"hands": 3, "scoring": "places"}, players=4)
fair = FairDeal(bytes(range(32)), "5f0e3c9a2b7d4e18c6a1", ("a", "", "b", ""))
match, _ = Match.new(rules, random.Random(1), fair=fair)
deals, actions = [], []
while match.outcome is None:
    if match.hand_number > len(deals):
        deals.append(list(match.hands))
    seat, legal = match.turn, match.legal_masks()
    if legal and (match.table is None or len(match.log) % 3):
        actions.append(legal[0]); match.play(seat, legal[0])
    else:
        actions.append(0); match.pass_turn(seat)
print(json.dumps([ENGINE, deals, actions]))
"""


def test_both_builds_deal_a_fair_match_alike() -> None:
    """Rule: the pure and the compiled engine deal every hand of a fair match alike, by the protocol (the compiled
    core deals no hand of its own: the engine's deal.py deals in both)."""
    require_tool("tienlen_native", load_core() is not None, "the compiled core is not built: run `make native`")
    found = {}
    for engine in ("python", "compiled"):
        env = os.environ | {"TIENLEN_ENGINE": engine}
        done = subprocess.run([sys.executable, "-c", PLAY_A_FAIR_MATCH], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr[-2000:]
        ran, deals, actions = json.loads(done.stdout)
        assert ran == engine
        found[engine] = (deals, actions)
    assert found["python"] == found["compiled"]
    deals = found["python"][0]
    fair = FairDeal(SECRET, MATCH_ID, ("a", "", "b", ""))
    assert len(deals) >= 3 and deals == [fair.hand(n) for n in range(1, len(deals) + 1)]
