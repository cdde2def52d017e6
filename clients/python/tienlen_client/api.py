"""The calls of the API v1: :class:`Client` (no token, or an account's) and :class:`~.seat.Seat` (a seat's token,
or the token of the account that holds the seat). The client is made of one class of calls per resource
(:mod:`tienlen_client.calls`: matches, rooms, accounts, players, challenges, inbox, queue, friends, puzzles, chat,
tournaments, lessons, and the moderators').

Retries (see :class:`~tienlen_client.transport.Transport`): every read may be
sent again, since it changes nothing. Every write carries an
``Idempotency-Key``, a fresh one per call, the same on each of its attempts;
each write's docstring says whether the server honours it there, and so
whether sending the write again is safe.
"""

from __future__ import annotations

from .calls.accounts import AccountCalls
from .calls.challenges import ChallengeCalls
from .calls.chat import ChatCalls
from .calls.friends import FriendCalls
from .calls.inbox import InboxCalls
from .calls.lessons import LessonCalls
from .calls.matches import MatchCalls
from .calls.moderation import ModerationCalls
from .calls.players import PlayerCalls
from .calls.puzzles import PuzzleCalls
from .calls.queue import QueueCalls
from .calls.rooms import RoomCalls
from .calls.tournaments import TournamentCalls
from .seat import Seat

__all__ = ["Client", "Seat"]


class Client(
    MatchCalls,
    RoomCalls,
    AccountCalls,
    PlayerCalls,
    ChallengeCalls,
    InboxCalls,
    QueueCalls,
    FriendCalls,
    PuzzleCalls,
    ChatCalls,
    TournamentCalls,
    LessonCalls,
    ModerationCalls,
):
    """Calls that need no seat token, over one kept-alive HTTP connection.

    ``base_url`` is ``http://host[:port]`` or ``https://host[:port]``, with an
    optional path prefix (``https://cards.example/tienlen`` calls
    ``/tienlen/v1/...``). ``timeout`` is how long any one read may wait;
    ``retry`` how calls are retried (:class:`~tienlen_client.transport.RetryPolicy`);
    ``ssl_context`` checks an ``https`` server's certificate (default: the
    system's authorities). Not thread-safe: give each thread its own.
    """

    def seat(self, match_id: str, token: str) -> Seat:
        """Calls made for one seat: with its token, or with a token of the account that holds it."""
        return Seat(self, match_id, token)
