"""Rooms: the match a room code names, as anybody may see it, with lookups of unknown codes throttled."""

from __future__ import annotations

from math import ceil

from ..store.records import MatchRecord
from .commands import Join
from .core import Core
from .errors import LookupsThrottled, RoomNotFound
from .matches import MatchService
from .room_codes import MAX_ROOM_MISSES, ROOM_MISS_WINDOW_S, ROOMS_THROTTLE, read_room_code
from .states import Room, SeatToken, room


class Rooms:
    """Finding a match by its room code, and joining it, over the shared :class:`~.core.Core` and the match use
    cases (:class:`~.matches.MatchService`, which joins)."""

    def __init__(self, core: Core, matches: MatchService) -> None:
        self.core = core
        self.matches = matches

    def room(self, code: str, client: str) -> Room:
        """The match a room code names, as anybody may see it; lookups of unknown codes are throttled."""
        record = self._room_record(code, client)
        host = None if record.host is None else self.core.accounts.get(record.host)
        return room(record, None if host is None else host.name)

    def join_room(
        self, code: str, command: Join, key: str | None = None, client: str = "", token: str | None = None
    ) -> SeatToken:
        """Join the match a room code names (as :meth:`join`), answering its id with the seat and token."""
        match_id = self._room_record(code, client).match_id
        joined = self.matches.join(match_id, command, key, client, token)
        return SeatToken(joined.seat, joined.token, match_id)

    def _room_record(self, code: str, client: str) -> MatchRecord:
        """The match of ``code``; :class:`RoomNotFound` (counted) when none, refused once too many missed.

        The lookup is counted before the code is read (and taken back when it
        names a match), in one step with the check: racing lookups never get
        more misses than the window allows between them.
        """
        code = read_room_code(code)
        counter = f"addr:{client}"
        left_s = self.core.accounts.attempt(ROOMS_THROTTLE, {counter: MAX_ROOM_MISSES}, ROOM_MISS_WINDOW_S)
        if left_s:
            raise LookupsThrottled("too many unknown room codes: wait before trying again", retry_after_s=ceil(left_s))
        match_id = self.core.store.room(code)
        record = None if match_id is None else self.core.store.load(match_id).record
        if record is None or record.room_code != code:
            raise RoomNotFound(f"no match waits under the room code {code!r}")
        self.core.accounts.refund(ROOMS_THROTTLE, [counter])
        return record
