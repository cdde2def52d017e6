"""What the app's requests reach, held once: :class:`Services`, in ``app.extensions["tienlen"]``, read by
:func:`services` (the running app's) or :func:`services_of` (a given app's)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, cast

from flask import Flask, current_app
from flask_limiter import Limiter

from ..service.accounts import AccountService
from ..service.compose import MatchServices
from ..service.friends import FriendsService
from ..service.history import HistoryService
from ..service.inbox import InboxService
from ..service.puzzles import PuzzleService
from ..settings import Settings
from .breaker import Breaker

KEY = "tienlen"


@dataclass(frozen=True, slots=True)
class Services:
    """The services of one app: the match use cases (``game``: play, reads, lifecycle, lobby, rooms,
    challenges, quick play, composed over one core), accounts, histories, inboxes, friends, puzzles; its settings,
    limiter and breaker.

    ``document`` is the API (flask-smorest's, whose ``spec`` is the OpenAPI
    document); ``limiter`` is None when the rate limits are off; ``sweeper`` is
    set to stop the app's sweeper (``tienlen serve`` starts one a worker).
    """

    game: MatchServices
    accounts: AccountService
    inbox: InboxService
    friends: FriendsService
    puzzles: PuzzleService
    settings: Settings
    breaker: Breaker
    document: Any
    limiter: Limiter | None = None
    sweeper: threading.Event = field(default_factory=threading.Event)

    @property
    def history(self) -> HistoryService:
        """The histories of finished matches (the match service keeps them)."""
        return self.game.core.history


def install(app: Flask, held: Services) -> None:
    """Hold ``held`` as the app's services."""
    app.extensions[KEY] = held


def services_of(app: Flask) -> Services:
    """The services of ``app``."""
    return cast(Services, app.extensions[KEY])


def services() -> Services:
    """The services of the running app."""
    return services_of(current_app)
