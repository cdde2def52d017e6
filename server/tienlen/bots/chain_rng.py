"""The deal chains' generator: SplitMix64, spelled the same in the compiled core (native/src/chains.rs).

Hard's deal chains draw from this small generator rather than :class:`random.Random`
so that the compiled chains and these Python ones, seeded alike, make the same
draws in the same order: the same deals, whichever build runs. Only integer
arithmetic is used (no floats whose rounding could differ).
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
UNIT_BITS = 32  # a probability is a fraction of 2**32 (:meth:`ChainRng.geometric`)


class ChainRng:
    """SplitMix64: 64-bit draws from a 64-bit state."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        """A generator from this seed (taken modulo 2**64)."""
        self.state = seed & MASK64

    def next(self) -> int:
        """The next 64-bit draw."""
        self.state = z = (self.state + GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in ``0..n-1`` (n ≥ 1), by multiplying a draw (Lemire's method without the rejection step)."""
        return (self.next() * n) >> 64

    def geometric(self, threshold: int) -> int:
        """How many draws in a row fall below ``threshold / 2**32``: k with probability p**k (1 − p)."""
        count = 0
        while self.next() >> (64 - UNIT_BITS) < threshold:
            count += 1
        return count


def probability_threshold(p: float) -> int:
    """``p`` (0 ≤ p < 1) as the threshold :meth:`ChainRng.geometric` takes."""
    return min(round(p * (1 << UNIT_BITS)), (1 << UNIT_BITS) - 1)
