"""Processes in the tests: whether one still runs (nothing left behind), and a Python snippet run in a fresh one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

__all__ = ["alive", "output_of_python"]


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


def output_of_python(script: str) -> list[str]:
    """Run ``script`` in a fresh interpreter (nothing this process imported is loaded there); assert it exits 0 and
    answer the lines it printed."""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()
