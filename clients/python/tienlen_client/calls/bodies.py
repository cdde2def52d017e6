"""What the calls put in a path or a body: a name or a code as a path segment, an instant as RFC 3339 text,
and the fair deal's entropy of a new match's seats and of a join."""

from __future__ import annotations

import datetime
import secrets
import urllib.parse
from typing import Any

__all__ = ["instant", "join_body", "segment", "with_entropy"]


def _fresh_entropy(entropy: str | None) -> str:
    """The entropy a seat sends: ``entropy`` as given, or a fresh random 32 hex digits for None."""
    return secrets.token_hex(16) if entropy is None else entropy


def with_entropy(seat: dict[str, Any], entropy: str | None) -> dict[str, Any]:
    """A remote seat of a new match with its ``entropy`` (kept if it names one; bots and open seats as given)."""
    remote = seat.get("type", "remote") == "remote" and "bot" not in seat and seat.get("open") is not True
    if not remote or "entropy" in seat:
        return seat
    given = _fresh_entropy(entropy)
    return {**seat, "entropy": given} if given else seat


def join_body(name: str | None, entropy: str | None) -> dict[str, Any]:
    """The body of a join: the seat's ``name`` when given, and its entropy unless it is ""."""
    body: dict[str, Any] = {} if name is None else {"name": name}
    given = _fresh_entropy(entropy)
    if given:
        body["entropy"] = given
    return body


def segment(text: str) -> str:
    """``text`` as one segment of a path (a name or a code, quoted)."""
    return urllib.parse.quote(text, safe="")


def instant(value: datetime.datetime | str) -> str:
    """An RFC 3339 date-time: text as it is, a datetime with its offset.

    Raises:
        ValueError: for a datetime without a time zone.
    """
    if isinstance(value, str):
        return value
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"give the time zone of {value.isoformat()} (e.g. datetime.UTC)")
    return value.isoformat()
