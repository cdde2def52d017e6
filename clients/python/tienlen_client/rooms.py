"""The answers of the room calls, as typed dictionaries (their JSON as it comes: times are RFC 3339 text)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = ["LobbySeat", "MatchStatus", "Room", "RoomSeat"]

MatchStatus = Literal["waiting", "playing", "finished"]


class LobbySeat(TypedDict):
    """A seat as anybody may see it: who sits there (``name``; a ``bot`` level), whether it is ``open``, and
    whether an account holds it (``account``: ``name`` is then the account's name)."""

    seat: int
    name: str | None
    bot: str | None
    open: bool
    account: bool


class Room(TypedDict):
    """The match a room code names: ``GET /v1/rooms/{code}``.

    ``host`` is the name of the account that made the match (None when it was
    made without one); ``rules`` are the match's rules as in its state.
    """

    room_code: str
    match_id: str
    status: MatchStatus
    seats: list[LobbySeat]
    rules: dict[str, Any]
    host: str | None
    created_at: str


class RoomSeat(TypedDict):
    """A seat taken by room code: ``POST /v1/rooms/{code}/join`` → the match, the seat and the seat's token."""

    match_id: str
    seat: int
    token: str
