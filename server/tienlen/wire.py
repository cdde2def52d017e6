"""JSON in and out of the server: compact UTF-8 bytes, written and read by orjson.

Every answer, stored record, event and log line goes through these two
functions, so the hot path of a request does not pay for the standard
library's pure-Python encoder.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

__all__ = ["dumps", "dumps_keyed", "epoch_seconds", "loads", "rfc3339"]


def dumps(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes (non-ASCII text kept as is, no spaces)."""
    return orjson.dumps(value)


def dumps_keyed(value: Any) -> bytes:
    """:func:`dumps`, with dict keys that are not text (numbers, say: a list's field errors) written as text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """Parse JSON text or UTF-8 bytes."""
    return orjson.loads(data)


def rfc3339(moment: float) -> str:
    """Epoch seconds as an RFC 3339 UTC time with milliseconds (``2026-12-01T10:58:31.250Z``), as answers write it."""
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def epoch_seconds(text: str) -> float:
    """The epoch seconds of a time written by :func:`rfc3339` (to the millisecond)."""
    return datetime.fromisoformat(text).timestamp()
