"""How busy the machine is, for the few tests that bound a wall-clock time.

A bound such as "``/healthz`` answers within a second while bots think" is set
for a machine that gives the server its share of a core. The suite runs four
workers on two cores beside their servers, Redis nodes and browsers, and on a
slow machine the load average reaches three times the cores or more: every
process then waits its turn that many times over, and a bound that tells a
frozen worker from a busy one on a quiet machine fails for no fault of the
server. :func:`paced` scales such a bound by how oversubscribed the machine
was over the last minute (never below the bound itself), and each caller caps
it below the time the fault it looks for would take, so the test keeps its
meaning.
"""

from __future__ import annotations

import os


def load_factor() -> float:
    """The 1-minute load average over the core count, at least 1 (1 where the system does not say)."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def paced(bound_s: float, *, cap_s: float) -> float:
    """``bound_s`` times :func:`load_factor`, at most ``cap_s`` (below what the fault looked for would take)."""
    if cap_s < bound_s:
        raise ValueError(f"cap {cap_s} s below the bound {bound_s} s")
    return min(cap_s, bound_s * load_factor())
