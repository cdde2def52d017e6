"""What the bot runs share: the seeds of a fixed set of deals, and a progress bar.

The arena (:mod:`.arena`), the ratings round robin (:mod:`.roundrobin`) and
the tournament replay the same numbered deals of a seed.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterator


def deal_seed(seed: int, deal: int) -> int:
    """The seed of one deal of the fixed set."""
    digest = hashlib.sha256(f"tienlen-arena:{seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def progress_bar(total: int, enabled: bool, desc: str) -> Iterator[None]:
    """A generator advancing a tqdm bar on stderr once per ``next``."""
    if not enabled:
        while True:
            yield None
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, file=sys.stderr, leave=False) as bar:
        while True:
            yield None
            if bar.n < total:
                bar.update(1)
