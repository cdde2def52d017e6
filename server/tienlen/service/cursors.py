"""Cursors of the API's paged lists (the lobby, a player's matches, the leaderboards): a position, not an offset.

A cursor names the last entry of a page, as (score, member) of the sorted set
the list is read from; the next page starts after it, so a page stays
stable while entries are added before it.
"""

from __future__ import annotations

import base64
import binascii
import re

from .errors import InvalidRequest

_MEMBER = re.compile(r"[0-9a-f]{20}")  # a match id or an account id


def encode_cursor(score: int, member: str) -> str:
    """An opaque cursor: where the last page ended."""
    return base64.urlsafe_b64encode(f"{score}:{member}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[int, str]:
    """The position a cursor names; :class:`InvalidRequest` when it is not one this server gave."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        score, member = text.split(":")
        if not score.isdigit() or not _MEMBER.fullmatch(member):
            raise ValueError(text)
        return int(score), member
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidRequest("cursor: not a cursor this server gave", errors={"cursor": ["unknown cursor"]}) from None
