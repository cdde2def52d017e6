"""JSON in and out of the server: compact UTF-8 bytes, written and read by orjson.

Every answer, stored record, event and log line goes through these two
functions, so the hot path of a request does not pay for the standard
library's pure-Python encoder.
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["dumps", "dumps_keyed", "loads"]


def dumps(value: Any) -> bytes:
    """Compact JSON as UTF-8 bytes (non-ASCII text kept as is, no spaces)."""
    return orjson.dumps(value)


def dumps_keyed(value: Any) -> bytes:
    """:func:`dumps`, with dict keys that are not text (numbers, say: a list's field errors) written as text."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """Parse JSON text or UTF-8 bytes."""
    return orjson.loads(data)
