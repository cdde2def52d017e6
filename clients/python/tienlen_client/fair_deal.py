"""Checking a fair deal (protocol ``tienlen-deal/1``, docs/fair-deals.md): anyone recomputes every hand's deal.

A match that nobody dealt by hand is dealt from a server secret committed to
before any seat acts (``commitment`` = SHA-256 of the secret), each seat's
``entropy``, the match id and the hand number. Once the match is finished its
replay carries the secret in ``fair_deal``; :func:`verify_replay` checks the
commitment and that every hand's ``deal`` is the protocol's::

    check = verify_replay(client.replay(match_id))
    print(check)          # deal verified: commitment and 3 hands

Only the standard library (hashlib, struct): this module does not need the
server's ``tienlen`` package, so a player can check a deal without trusting it.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PROTOCOL",
    "FairDealCheck",
    "card_number",
    "card_text",
    "commitment",
    "hand_deal",
    "hand_key",
    "verify_replay",
]

PROTOCOL = "tienlen-deal/1"
"""The protocol's name: the first bytes of every hand key, and ``fair_deal.protocol`` on the wire."""

REPLAY_FORMAT = "tienlen-replay/1"
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = "SCDH"
HAND_SIZE = 13
_HEX64 = re.compile(r"[0-9a-f]{64}")


def card_text(number: int) -> str:
    """The wire text of card ``number`` (rank * 4 + suit; 0 = 3S, 51 = 2H)."""
    return RANKS[number // 4] + SUITS[number % 4]


def card_number(text: str) -> int:
    """The number of a card's wire text (``"10D"`` → 30).

    Raises:
        ValueError: when ``text`` is not a card.
    """
    rank, suit = text[:-1], text[-1:]
    if rank not in RANKS or len(suit) != 1 or suit not in SUITS:
        raise ValueError(f"{text!r} is not a card")
    return RANKS.index(rank) * 4 + SUITS.index(suit)


def commitment(secret: bytes) -> str:
    """The commitment to ``secret``: lowercase hex of its SHA-256."""
    return hashlib.sha256(secret).hexdigest()


def hand_key(secret: bytes, match_id: str, hand_number: int, entropy: Sequence[str]) -> bytes:
    """K_n: SHA-256 over the protocol name, the secret, the match id, the hand number and each seat's entropy.

    ``entropy`` has one string per seat (its length is the number of seats, P).

    Raises:
        ValueError: for a match id that is not ASCII, or a field too long for its length prefix.
    """
    match = match_id.encode("ascii")
    message = PROTOCOL.encode("ascii") + secret + struct.pack(">H", len(match)) + match
    message += struct.pack(">I", hand_number) + struct.pack(">B", len(entropy))
    for given in entropy:
        encoded = given.encode("utf-8")
        message += struct.pack(">H", len(encoded)) + encoded
    return hashlib.sha256(message).digest()


def _words(key: bytes) -> Iterator[int]:
    """The key's stream of big-endian 32-bit words: SHA-256(key || u32be(b)) for blocks b = 0, 1, 2, …"""
    block = 0
    while True:
        digest = hashlib.sha256(key + struct.pack(">I", block)).digest()
        block += 1
        yield from struct.unpack(">8I", digest)


def shuffled_deck(key: bytes) -> list[int]:
    """The deck 0..51 shuffled by the key's words (Fisher-Yates from the top, words past the limit skipped)."""
    words = _words(key)
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n  # the words below it are spread evenly over 0..n-1
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def hand_deal(secret: bytes, match_id: str, hand_number: int, entropy: Sequence[str]) -> list[list[str]]:
    """Each seat's 13 cards of hand ``hand_number`` (1, 2, …), as wire text sorted low to high.

    Seat s gets cards 13s to 13s+12 of the shuffled deck; ``entropy`` has one string per seat.
    """
    deck = shuffled_deck(hand_key(secret, match_id, hand_number, entropy))
    return [[card_text(c) for c in sorted(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)])] for s in range(len(entropy))]


@dataclass(frozen=True, slots=True)
class FairDealCheck:
    """What checking a replay's deal found: ``verified`` when the commitment and every hand's deal hold.

    ``hands`` is how many hands' deals were found to be the protocol's; ``problem`` is the first thing that
    does not hold, in words (None when verified).
    """

    verified: bool
    hands: int
    problem: str | None = None

    def __str__(self) -> str:
        """``deal verified: commitment and N hands``, or ``deal NOT verified: <problem>``."""
        if self.verified:
            return f"deal verified: commitment and {self.hands} hand{'' if self.hands == 1 else 's'}"
        return f"deal NOT verified: {self.problem}"


def verify_replay(replay: Mapping[str, Any]) -> FairDealCheck:
    """Check a ``tienlen-replay/1`` document's ``fair_deal``: SHA-256(secret) is the commitment, and each hand's
    ``deal`` is the one the protocol gives (each seat's cards in any order). Never raises for a bad document:
    what is wrong is the check's ``problem``."""
    if not isinstance(replay, Mapping) or replay.get("format") != REPLAY_FORMAT:
        return FairDealCheck(False, 0, f"not a {REPLAY_FORMAT} document")
    fair = replay.get("fair_deal")
    if fair is None:
        return FairDealCheck(False, 0, "the replay has no fair_deal: its deal was fixed by whoever created the match")
    try:
        secret, match_id, entropy = _header(replay, fair)
    except ValueError as error:
        return FairDealCheck(False, 0, str(error))
    hands = replay.get("hands")
    if not isinstance(hands, list):
        return FairDealCheck(False, 0, "the replay's hands are not a list")
    for checked, hand in enumerate(hands):
        number = hand.get("hand_number") if isinstance(hand, Mapping) else None
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number < 2**32:
            return FairDealCheck(False, checked, f"hand {checked + 1} has no valid hand_number")
        problem = _deal_problem(hand.get("deal"), hand_deal(secret, match_id, number, entropy))
        if problem is not None:
            return FairDealCheck(False, checked, f"hand {number}: {problem}")
    return FairDealCheck(True, len(hands))


def _header(replay: Mapping[str, Any], fair: Any) -> tuple[bytes, str, list[str]]:
    """The secret, match id and entropy of a replay's ``fair_deal``, once its commitment holds.

    Raises:
        ValueError: naming the first field that is missing, malformed, or does not hold.
    """
    if not isinstance(fair, Mapping):
        raise ValueError("fair_deal is not an object")
    if fair.get("protocol") != PROTOCOL:
        raise ValueError(f"fair_deal.protocol is {fair.get('protocol')!r}, not {PROTOCOL!r}")
    for field in ("commitment", "secret"):
        if not isinstance(fair.get(field), str) or not _HEX64.fullmatch(fair[field]):
            raise ValueError(f"fair_deal.{field} is not 64 lowercase hex digits")
    secret = bytes.fromhex(fair["secret"])
    if commitment(secret) != fair["commitment"]:
        raise ValueError("SHA-256 of the secret is not the commitment")
    match_id = fair.get("match_id")
    if not isinstance(match_id, str) or not match_id.isascii() or not 0 < len(match_id) < 2**16:
        raise ValueError("fair_deal.match_id is not an ASCII match id")
    if "match_id" in replay and replay["match_id"] != match_id:
        raise ValueError(f"fair_deal.match_id {match_id} is not the replay's match {replay['match_id']}")
    entropy = fair.get("entropy")
    if not isinstance(entropy, list) or not 2 <= len(entropy) <= 4:
        raise ValueError("fair_deal.entropy is not a list of 2 to 4 seats' entropy")
    if not all(isinstance(e, str) and _utf8_length(e) < 2**16 for e in entropy):
        raise ValueError("fair_deal.entropy holds something that is not a seat's entropy (text)")
    return secret, match_id, list(entropy)


def _utf8_length(text: str) -> int:
    """The length of ``text`` in UTF-8 (2**16 for text that has no UTF-8 form, e.g. a lone surrogate)."""
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        return 2**16


def _deal_problem(deal: Any, expected: list[list[str]]) -> str | None:
    """What differs between a hand's ``deal`` and the protocol's (None: nothing)."""
    if not isinstance(deal, list) or len(deal) != len(expected):
        return f"the deal is not a list of {len(expected)} seats' cards"
    for seat, (cards, wanted) in enumerate(zip(deal, expected, strict=True)):
        try:
            numbers = sorted(card_number(c) for c in cards) if isinstance(cards, list) else None
        except (ValueError, TypeError):
            numbers = None
        if numbers is None:
            return f"seat {seat}'s cards are not a list of cards"
        if numbers != [card_number(c) for c in wanted]:
            return f"seat {seat}'s cards are not the protocol's deal"
    return None
