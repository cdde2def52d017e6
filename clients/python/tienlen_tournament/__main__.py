"""``python -m tienlen_tournament``: the same as the ``tienlen-tournament`` command."""

from __future__ import annotations

from .runner import main

if __name__ == "__main__":
    raise SystemExit(main())
