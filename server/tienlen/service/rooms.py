"""Rooms: the match a room code names, as anybody may see it, with lookups of unknown codes throttled."""

from __future__ import annotations

from math import ceil

from ..store.records import MatchRecord
from .base import ServiceBase
from .errors import LookupsThrottled, RoomNotFound
from .room_codes import MAX_ROOM_MISSES, ROOM_MISS_WINDOW_S, ROOMS_THROTTLE, read_room_code
from .states import Room, room


class RoomsMixin(ServiceBase):
    """Finding a match by its room code (mixed into :class:`~.matches.MatchService`, which joins by it)."""

    def room(self, code: str, client: str) -> Room:
        """The match a room code names, as anybody may see it; lookups of unknown codes are throttled."""
        record = self._room_record(code, client)
        host = None if record.host is None else self.accounts.get(record.host)
        return room(record, None if host is None else host.name)

    def _room_record(self, code: str, client: str) -> MatchRecord:
        """The match of ``code``; :class:`RoomNotFound` (counted) when none, refused once too many missed.

        The lookup is counted before the code is read (and taken back when it
        names a match), in one step with the check: racing lookups never get
        more misses than the window allows between them.
        """
        code = read_room_code(code)
        counter = f"addr:{client}"
        left_s = self.accounts.attempt(ROOMS_THROTTLE, {counter: MAX_ROOM_MISSES}, ROOM_MISS_WINDOW_S)
        if left_s:
            raise LookupsThrottled("too many unknown room codes: wait before trying again", retry_after_s=ceil(left_s))
        match_id = self.store.room(code)
        record = None if match_id is None else self.store.load(match_id).record
        if record is None or record.room_code != code:
            raise RoomNotFound(f"no match waits under the room code {code!r}")
        self.accounts.refund(ROOMS_THROTTLE, [counter])
        return record
