"""Room codes in Redis: a short code that finds a match waiting for players.

``tl:{room:<CODE>}`` holds the match id, for as long as a waiting match is
kept (each write that leaves the match waiting refreshes it). A code is
claimed with ``SET NX`` before the match is stored, so two live matches never
share one; the match record names its code, and a lookup checks both agree
(a code whose match is gone or renamed answers nothing).
"""

from __future__ import annotations

from typing import Any

from .connect import STORE_ERRORS, Client
from .errors import StoreUnavailableError

# Let the code go if it still names the match ARGV[1].
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


def room_key(code: str) -> str:
    """The key of a room code (codes are kept in capitals)."""
    return f"tl:{{room:{code}}}"


class RedisRooms:
    """The room codes, on the store's Redis client."""

    def __init__(self, client: Client, ttl_s: int) -> None:
        self._rooms_client = client
        self._room_ttl_s = ttl_s
        scripts: Any = client
        self._release = scripts.register_script(_RELEASE)

    def claim_room(self, code: str, match_id: str) -> bool:
        """Give ``code`` to ``match_id`` for a waiting match's lifetime; False when a live match holds it."""
        return bool(self._rooms(lambda r: r.set(room_key(code), match_id, nx=True, ex=self._room_ttl_s)))

    def room(self, code: str) -> str | None:
        """The id of the match holding ``code``, or None."""
        found = self._rooms(lambda r: r.get(room_key(code)))
        return None if found is None else str(found.decode())

    def touch_room(self, code: str) -> None:
        """Keep ``code`` for another waiting match's lifetime (its match is still waiting)."""
        self._rooms(lambda r: r.expire(room_key(code), self._room_ttl_s))

    def release_room(self, code: str, match_id: str) -> None:
        """Let ``code`` go, if ``match_id`` still holds it."""
        self._rooms(lambda r: self._release(keys=[room_key(code)], args=[match_id], client=r))

    def _rooms(self, command: Any) -> Any:
        try:
            return command(self._rooms_client)
        except STORE_ERRORS as error:
            raise StoreUnavailableError(str(error)) from error
