"""The room calls: the match a room code names, and joining it by the code."""

from __future__ import annotations

from typing import cast

from ..rooms import Room, RoomSeat
from ..seat import key_header
from .base import BaseClient
from .bodies import join_body, segment

__all__ = ["RoomCalls"]


class RoomCalls(BaseClient):
    """``/v1/rooms/{code}``."""

    def room(self, code: str) -> Room:
        """``GET /v1/rooms/{code}``: the match a room code names (any case; 404 ``room_not_found``).

        422 ``invalid_request`` for text that cannot be a code. Lookups of
        unknown codes are counted per address: past 20 in 10 minutes the
        server answers 429 ``rate_limited`` with a ``Retry-After`` longer than
        the client waits, so it is raised.
        """
        return cast(Room, self.request("GET", f"/v1/rooms/{segment(code)}", expect=200))

    def join_room(
        self,
        code: str,
        name: str | None = None,
        *,
        key: str | None = None,
        token: str | None = None,
        entropy: str | None = None,
    ) -> RoomSeat:
        """``POST /v1/rooms/{code}/join`` → 201 the match's id, the seat and its token.

        As :meth:`join` (``name`` without a token; ``entropy`` for the fair deal; with an account's ``token``
        the seat is the account's, and 409 ``already_seated`` when it holds one
        there already); 404 ``room_not_found``, 409 ``match_full``. Safe to
        retry, as :meth:`join` is.
        """
        body = join_body(name, entropy)
        path = f"/v1/rooms/{segment(code)}/join"
        return cast(RoomSeat, self.request("POST", path, body, token=token, headers=key_header(key), expect=201))
