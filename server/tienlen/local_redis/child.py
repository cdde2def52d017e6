"""What the ``redis-server`` child is asked at birth: to stop when its parent dies (Linux)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import threading
from collections.abc import Callable

__all__ = ["pdeathsig_preexec"]


def pdeathsig_preexec() -> Callable[[], None] | None:
    """Return a ``preexec_fn`` asking Linux to SIGTERM the child if its parent dies, or None.

    Only used while the calling process has a single thread (``preexec_fn`` is
    not safe otherwise); on other platforms it is simply skipped.  Redis treats
    SIGTERM as a graceful shutdown, so the append-only file is flushed.
    """
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return None
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return None
    try:
        libc = ctypes.CDLL(libc_name, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def preexec() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)

    return preexec
