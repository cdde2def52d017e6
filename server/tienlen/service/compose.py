"""The match service composed: one :class:`~.core.Core` (store, writer, clock, bots' thinking, notices,
histories) shared by the use cases, each a plain class by job, and the sweep every server runs."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..store.base import MatchStore
from .challenges import Challenges
from .chat import Chat
from .chat_lists import ChatLists
from .core import Core, Offload
from .lifecycle import SWEEP_BATCH, Dispatch, Lifecycle
from .lobby import Lobby
from .matches import MatchService
from .moderation import Moderation
from .queue import Queue
from .reads import MatchReads
from .reviews import Reviews
from .rooms import Rooms
from .tournaments import Tournaments
from .watching import Watching


@dataclass(frozen=True, slots=True)
class MatchServices:
    """The use cases over one store: play (create, join, act), reads, a match's life beyond play (clocks, leave,
    cancel, rematch), the lobby and replays, rooms, challenges, quick play and watching, the chat (messages, mute
    and block lists, moderators' acts), sharing :attr:`core`."""

    core: Core
    matches: MatchService
    reads: MatchReads
    lifecycle: Lifecycle
    lobby: Lobby
    rooms: Rooms
    challenges: Challenges
    queue: Queue
    watching: Watching
    chat: Chat
    chat_lists: ChatLists
    moderation: Moderation
    tournaments: Tournaments
    reviews: Reviews

    @classmethod
    def on(
        cls,
        store: MatchStore,
        bot_budget_s: float,
        offload: Offload | None = None,
        now: Callable[[], float] = time.time,
        *,
        anonymous_hosting: bool = False,
        history_days: int | None = None,
        queue_fill_s: float = 15.0,
        queue_turn_s: int | None = 30,
        challenge_expiry_s: float = 60,
        max_challenges: tuple[int, int] = (8, 32),
    ) -> MatchServices:
        """Every use case over ``store``, with its options: hosting without an account
        (:class:`~.matches.MatchService`), how long histories are kept (:class:`~.core.Core`), quick play's fill
        time and turn clock (:class:`~.queue.Queue`), challenges' expiry and caps (:class:`~.challenges.Challenges`)."""
        core = Core(store, bot_budget_s, offload, now, history_days=history_days)
        matches = MatchService(core, anonymous_hosting=anonymous_hosting)
        chat = Chat(core)
        watching = Watching(core)
        return cls(
            core,
            matches,
            MatchReads(core),
            Lifecycle(core),
            Lobby(core),
            Rooms(core, matches),
            Challenges(core, expiry_s=challenge_expiry_s, most=max_challenges),
            Queue(core, fill_s=queue_fill_s, turn_s=queue_turn_s),
            watching,
            chat,
            ChatLists(core.accounts, chat.store, core.now),
            Moderation(chat, watching),
            Tournaments(core),
            Reviews(core),
        )

    def sweep(self, limit: int = SWEEP_BATCH, dispatch: Dispatch | None = None) -> int:
        """What every server does every moment: apply the turn clocks that ran out (the count) and keep what
        finished (:meth:`Lifecycle.sweep`), expire challenges not accepted in time
        (:meth:`~.challenge_ends.ChallengeEnds.expire_due`), pair the quick-play queue (:meth:`Queue.pair`) and
        start, seat and check tournaments (:meth:`~.tournaments.Tournaments.sweep`) and take one pending review
        (:meth:`~.reviews.Reviews.sweep`)."""
        done = self.lifecycle.sweep(limit, dispatch)
        self.challenges.ends.expire_due()
        self.queue.pair(force=False)
        self.tournaments.sweep()
        self.reviews.sweep(dispatch)
        return done
