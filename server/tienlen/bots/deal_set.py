"""The fixed deal set: numbered deals of a seed, the same in every run that names that seed.

The arena (:mod:`.arena`), the ratings round robin (:mod:`.roundrobin`), the
tournament and the bot benchmarks deal deal number ``d`` of seed ``s`` from
:func:`deal_seed`, so two runs with the same seed play the same deals.
"""

from __future__ import annotations

import hashlib


def deal_seed(seed: int, deal: int) -> int:
    """The shuffle seed of deal number ``deal`` of the fixed set of ``seed``."""
    digest = hashlib.sha256(f"tienlen-arena:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
