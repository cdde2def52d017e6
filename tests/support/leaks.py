"""What must never be written (hands, seeds, tokens and their digests), and finding any of it in a text."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tests.support.http import Reply
from tienlen.engine import Match, cards_mask, format_mask, resolve_rules
from tienlen.store.records import MatchRecord, SeatRecord, token_digest

__all__ = ["SEED", "TOKEN", "Secrets", "dealt_record", "secrets_of_dealt_record"]

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SCDH](?![0-9A-Za-z])")
LEAST_MASK = 2**32  # a smaller mask (a few low cards) could be any number in a line: checked as cards only
LEAST_CARDS = 3  # a hand of fewer cards is checked as a mask only


@dataclass
class Secrets:
    """What must never be written: hands (as card sets), seeds and tokens, collected as the test plays."""

    hands: list[frozenset[str]] = field(default_factory=list)
    seeds: set[int] = field(default_factory=set)
    tokens: set[str] = field(default_factory=set)
    reasons: set[str] = field(default_factory=set)

    def hand(self, cards: Iterable[str]) -> None:
        """A hand a seat held at some point."""
        held = frozenset(cards)
        if held:
            self.hands.append(held)

    def seed(self, seed: int) -> None:
        """A match's seed and the deal seed the engine draws from it."""
        self.seeds |= {seed, random.Random(seed).getrandbits(63)}

    def refused(self, reply: Reply, reason: str) -> None:
        """A refusal that had to give ``reason``."""
        assert reply.reason == reason, (reason, reply.status, reply.body)
        self.reasons.add(reason)

    def leaks(self, text: str) -> list[str]:
        """Every secret found in ``text``, described (not spelt out: the failure message is a log too)."""
        found: list[str] = []
        lowered = text.lower()
        for token in self.tokens:
            digest = hashlib.sha256(token.encode()).hexdigest()
            if token in text:
                found.append(f"a token ({token[:4]}...)")
            if digest in lowered:
                found.append(f"a token digest ({digest[:6]}...)")
        for seed in self.seeds:
            if re.search(rf"(?<!\d){seed}(?!\d)", text) or f"{seed:x}" in lowered:
                found.append(f"a seed ({str(seed)[:4]}...)")
        named = [set(CARD.findall(line)) for line in text.splitlines()]
        for hand in set(self.hands):
            mask = cards_mask(sorted(hand))
            if mask >= LEAST_MASK and (re.search(rf"(?<!\d){mask}(?!\d)", text) or f"{mask:x}" in lowered):
                found.append(f"a hand of {len(hand)} cards as a mask")
            if len(hand) >= LEAST_CARDS and any(hand <= cards for cards in named):
                found.append(f"a hand of {len(hand)} cards as cards")
        return found


SEED = 5_915_587_277_123_456_789
TOKEN = "Zq3-secret-token-of-seat-zero-xyz"


def dealt_record() -> MatchRecord:
    """A dealt match against a bot: a seed, two hands, a seat token's digest."""
    rules = resolve_rules({"preset": "standard", "players": 2})
    engine, _ = Match.new(rules, random.Random(SEED))
    seats = [SeatRecord("Ann", token_sha256=token_digest(TOKEN), kept=["kept"]), SeatRecord("Bo", bot="easy")]
    return MatchRecord("m" * 20, 3, seats, rules, seed=SEED, engine=engine)


def secrets_of_dealt_record() -> Secrets:
    """The secrets :func:`dealt_record` holds."""
    record = dealt_record()
    assert record.engine is not None
    kept = Secrets(tokens={TOKEN})
    kept.seed(SEED)
    kept.seeds.add(record.engine.deal_seed)
    for mask in record.engine.hands:
        kept.hand(format_mask(mask))
    return kept
