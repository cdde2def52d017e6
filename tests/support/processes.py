"""Whether a process still runs (for the tests that check nothing is left behind)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["alive"]


def alive(pid: int) -> bool:
    """True if ``pid`` is a live (non-zombie) process."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - exists, owned by someone else
        return True
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        try:
            return stat.read_text().split(") ", 1)[1][0] != "Z"
        except (OSError, IndexError):  # pragma: no cover - raced with exit
            return False
    return True  # pragma: no cover - no /proc
