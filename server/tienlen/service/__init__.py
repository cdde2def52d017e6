"""The match service: the use cases of API v1 in the game's own terms.

Its use cases are plain classes by job (:mod:`.matches`: create, join, act;
:mod:`.reads`; :mod:`.lifecycle`; :mod:`.lobby`; :mod:`.rooms`;
:mod:`.challenges`; :mod:`.queue`) over one shared :class:`~.core.Core`,
composed in :class:`~.compose.MatchServices`. Every write of a match goes
through the one :class:`~.writer.MatchWriter`.

It depends on the engine, the bots and a :class:`~tienlen.store.MatchStore`;
it knows nothing of HTTP. Its answers are domain objects (:mod:`.states`),
which the API's schemas write as JSON. Refusals are :class:`ServiceError`
subclasses (or the engine's :class:`~tienlen.engine.IllegalActionError`),
each with a ``reason``.
"""

from ..store.records import MatchStatus
from .compose import MatchServices
from .errors import InvalidRequest, InvalidToken, MatchFull, MatchNotFound, MatchNotPlaying, ServiceError, StaleVersion
from .matches import MatchService
from .reads import Following
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
    "MatchServices",
    "MatchState",
    "MatchStatus",
    "SeatState",
    "SeatToken",
    "ServiceError",
    "StaleVersion",
    "match_state",
    "seat_state",
]
