"""The match service: the use cases of API v1 in the game's own terms.

It depends on the engine, the bots and a :class:`~tienlen.store.MatchStore`;
it knows nothing of HTTP. Its answers are domain objects (:mod:`.states`),
which the API's schemas write as JSON. Refusals are :class:`ServiceError`
subclasses (or the engine's :class:`~tienlen.engine.IllegalActionError`),
each with a ``reason``.
"""

from ..store.records import MatchStatus
from .errors import InvalidRequest, InvalidToken, MatchFull, MatchNotFound, MatchNotPlaying, ServiceError, StaleVersion
from .matches import Following, MatchService
from .states import (
    ActionOutcome,
    Created,
    EventPage,
    LeaveOutcome,
    LobbyPage,
    MatchState,
    SeatState,
    SeatToken,
    match_state,
    seat_state,
)

__all__ = [
    "ActionOutcome",
    "Created",
    "EventPage",
    "Following",
    "InvalidRequest",
    "InvalidToken",
    "LeaveOutcome",
    "LobbyPage",
    "MatchFull",
    "MatchNotFound",
    "MatchNotPlaying",
    "MatchService",
    "MatchState",
    "MatchStatus",
    "SeatState",
    "SeatToken",
    "ServiceError",
    "StaleVersion",
    "match_state",
    "seat_state",
]
