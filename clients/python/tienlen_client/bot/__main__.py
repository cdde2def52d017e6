"""``python -m tienlen_client.bot``: the same as ``tienlen-bot``."""

from __future__ import annotations

from . import main

raise SystemExit(main())
