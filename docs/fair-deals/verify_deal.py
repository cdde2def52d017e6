#!/usr/bin/env python3
"""Check a Tiến Lên match's fair deal (protocol tienlen-deal/1) without the project: the standard library only.

    python3 verify_deal.py replay.json     # a replay (GET /v1/matches/{id}/replay); "-" reads standard input
    python3 verify_deal.py --vector        # print the test vector of docs/fair-deals.md

With a replay it checks that SHA-256(secret) is the commitment and that every hand's deal is the one the
protocol gives; it prints "deal verified: commitment and N hands" (exit 0) or "deal NOT verified: <why>"
(exit 1). The protocol is described byte by byte in docs/fair-deals.md; this file is meant to be read
alongside it, and copied anywhere.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

PROTOCOL = b"tienlen-deal/1"
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SUITS = "SCDH"  # card number = rank index * 4 + suit index: 0 = 3S, 51 = 2H

VECTOR_SECRET = bytes(range(32))
VECTOR_MATCH_ID = "5f0e3c9a2b7d4e18c6a1"
VECTOR_HANDS = ((1, ["ann-7f3a", "", "bo", "cy"]), (2, ["ann-7f3a", "", "bo", "cy"]), (1, ["x", "y", ""]))


def card_name(card: int) -> str:
    """A card number's text: 0 → 3S, 30 → 10D, 51 → 2H."""
    return RANKS[card // 4] + SUITS[card % 4]


def hand_key(secret: bytes, match_id: str, hand: int, entropy: Sequence[str]) -> bytes:
    """K_n = SHA-256("tienlen-deal/1" || secret || u16be len || match id || u32be n || u8 P || per seat:
    u16be len || UTF-8 entropy)."""
    mid = match_id.encode("ascii")
    message = PROTOCOL + secret + struct.pack(">H", len(mid)) + mid + struct.pack(">IB", hand, len(entropy))
    for seat_entropy in entropy:
        data = seat_entropy.encode("utf-8")
        message += struct.pack(">H", len(data)) + data
    return hashlib.sha256(message).digest()


def words(key: bytes) -> Iterator[int]:
    """The 32-bit words: SHA-256(key || u32be(b)) for b = 0, 1, 2, ..., each read as eight big-endian words."""
    block = 0
    while True:
        yield from struct.unpack(">8I", hashlib.sha256(key + struct.pack(">I", block)).digest())
        block += 1


def deal(secret: bytes, match_id: str, hand: int, entropy: Sequence[str]) -> list[list[int]]:
    """Each seat's 13 card numbers, low to high: deck 0..51 shuffled from i = 51 down to 1, seat s gets 13s..13s+12."""
    stream = words(hand_key(secret, match_id, hand, entropy))
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        word = next(stream)
        while word >= limit:  # rejected: it would make the low values of j likelier
            word = next(stream)
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return [sorted(deck[13 * s : 13 * s + 13]) for s in range(len(entropy))]


def card_number(text: str) -> int:
    """A card text's number (ValueError for anything else)."""
    if not isinstance(text, str) or text[:-1] not in RANKS or text[-1:] not in tuple(SUITS):
        raise ValueError(f"{text!r} is not a card")
    return RANKS.index(text[:-1]) * 4 + SUITS.index(text[-1])


def verify(replay: Any) -> tuple[int, str | None]:
    """(hands checked, None) when the replay's deal holds, else (hands that held, the first problem)."""
    if not isinstance(replay, dict) or replay.get("format") != "tienlen-replay/1":
        return 0, "not a tienlen-replay/1 document"
    fair = replay.get("fair_deal")
    if not isinstance(fair, dict):
        return 0, "no fair_deal in the replay: its deal was fixed by whoever created the match"
    if fair.get("protocol") != "tienlen-deal/1":
        return 0, f"unknown protocol {fair.get('protocol')!r}"
    try:
        secret = bytes.fromhex(fair["secret"])
        match_id, entropy = fair["match_id"], fair["entropy"]
        if len(secret) != 32 or not isinstance(match_id, str) or not match_id.isascii():
            raise ValueError("malformed")
        if not isinstance(entropy, list) or not 2 <= len(entropy) <= 4 or not all(isinstance(e, str) for e in entropy):
            raise ValueError("malformed")
    except (KeyError, TypeError, ValueError):
        return 0, "fair_deal needs a 64-hex secret, an ASCII match_id and 2 to 4 seats' entropy strings"
    if hashlib.sha256(secret).hexdigest() != fair.get("commitment"):
        return 0, "SHA-256 of the secret is not the commitment"
    if replay.get("match_id", match_id) != match_id:
        return 0, "fair_deal.match_id is not the replay's match"
    hands = replay.get("hands")
    if not isinstance(hands, list):
        return 0, "the replay's hands are not a list"
    for checked, hand in enumerate(hands):
        number = hand.get("hand_number") if isinstance(hand, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number < 2**32:
            return checked, f"hand {checked + 1} has no valid hand_number"
        try:
            expected = deal(secret, match_id, number, entropy)
        except (UnicodeError, struct.error):  # entropy with no UTF-8 form, or longer than its 2-byte length
            return checked, "fair_deal's entropy cannot be written as the protocol says"
        try:
            given = [sorted(card_number(card) for card in cards) for cards in hand["deal"]]
        except (KeyError, TypeError, ValueError):
            return checked, f"hand {number}: the deal is not a list of cards per seat"
        if given != expected:
            return checked, f"hand {number}: the deal is not the protocol's"
    return len(hands), None


def print_vector() -> None:
    """The test vector, as docs/fair-deals.md lists it."""
    print("commitment", hashlib.sha256(VECTOR_SECRET).hexdigest())
    for hand, entropy in VECTOR_HANDS:
        print("hand", hand, "entropy", entropy, "key", hand_key(VECTOR_SECRET, VECTOR_MATCH_ID, hand, entropy).hex())
        for seat, cards in enumerate(deal(VECTOR_SECRET, VECTOR_MATCH_ID, hand, entropy)):
            print("  seat", seat, " ".join(card_name(card) for card in cards))


def main(argv: Sequence[str] | None = None) -> int:
    """Check a replay file, or print the test vector; 0 when verified, 1 when not, 2 when the file is unreadable."""
    parser = argparse.ArgumentParser(description="Check a Tiến Lên replay's fair deal (tienlen-deal/1).")
    parser.add_argument("replay", nargs="?", help="a replay's JSON file ('-': standard input)")
    parser.add_argument("--vector", action="store_true", help="print the protocol's test vector")
    args = parser.parse_args(argv)
    if args.vector:
        print_vector()
        return 0
    if args.replay is None:
        parser.error("give a replay file, or --vector")
    try:
        text = sys.stdin.read() if args.replay == "-" else Path(args.replay).read_text(encoding="utf-8")
        replay = json.loads(text)
    except (OSError, ValueError) as error:
        print(f"verify_deal: cannot read {args.replay}: {error}", file=sys.stderr)
        return 2
    hands, problem = verify(replay)
    if problem is not None:
        print(f"deal NOT verified: {problem}")
        return 1
    print(f"deal verified: commitment and {hands} hand{'' if hands == 1 else 's'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
