"""A progress bar on stderr for the long bot runs (the arena, the ratings round robin, the bot benchmarks)."""

from __future__ import annotations

import sys
from collections.abc import Iterator


def progress_bar(total: int, enabled: bool, desc: str) -> Iterator[None]:
    """A generator advancing a tqdm bar on stderr once per ``next`` (a silent one when not ``enabled``)."""
    if not enabled:
        while True:
            yield None
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, file=sys.stderr, leave=False) as bar:
        while True:
            yield None
            if bar.n < total:
                bar.update(1)
