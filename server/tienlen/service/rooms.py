"""Rooms: the match a room code names, as anybody may see it, with lookups of unknown codes throttled."""

from __future__ import annotations

from ..store import MatchRecord
from .base import ServiceBase
from .errors import LookupsThrottled, RoomNotFound
from .room_codes import MAX_ROOM_MISSES, ROOM_MISS_WINDOW_S, read_room_code
from .states import Room, room


class RoomsMixin(ServiceBase):
    """Finding a match by its room code (mixed into :class:`~.matches.MatchService`, which joins by it)."""

    def room(self, code: str, client: str) -> Room:
        """The match a room code names, as anybody may see it; lookups of unknown codes are throttled."""
        record = self._room_record(code, client)
        host = None if record.host is None else self.accounts.get(record.host)
        return room(record, None if host is None else host.name)

    def _room_record(self, code: str, client: str) -> MatchRecord:
        """The match of ``code``; :class:`RoomNotFound` (counted) when none, refused once too many missed."""
        counter = [f"rooms:{client}"]
        ((misses, left),) = self.accounts.failures(counter)
        if misses >= MAX_ROOM_MISSES:
            raise LookupsThrottled("too many unknown room codes: wait before trying again", retry_after_s=left)
        code = read_room_code(code)
        match_id = self.store.room(code)
        record = None if match_id is None else self.store.load(match_id).record
        if record is None or record.room_code != code:
            self.accounts.fail(counter, ROOM_MISS_WINDOW_S)
            raise RoomNotFound(f"no match waits under the room code {code!r}")
        return record
