"""The match service: the use cases of API v1 in the game's own terms, and the shapes of their answers.

It depends on the engine, the bots and a :class:`~tienlen.store.MatchStore`;
it knows nothing of HTTP. Refusals are :class:`ServiceError` subclasses (or
the engine's :class:`~tienlen.engine.IllegalActionError`), each with a ``reason``.
"""

from ..store.records import MatchStatus
from .errors import InvalidRequest, InvalidToken, MatchFull, MatchNotFound, MatchNotPlaying, ServiceError, StaleVersion
from .matches import Created, Following, Joined, MatchService

__all__ = [
    "Created",
    "Following",
    "InvalidRequest",
    "InvalidToken",
    "Joined",
    "MatchFull",
    "MatchNotFound",
    "MatchNotPlaying",
    "MatchService",
    "MatchStatus",
    "ServiceError",
    "StaleVersion",
]
