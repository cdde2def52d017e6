"""A small, dependency-free Python client for the Tiến Lên server's API v1.

    from tienlen_client import Client

    client = Client("https://cards.example/tienlen")      # or http://127.0.0.1:8000
    created = client.create_match([{"name": "Ann"}, {"name": "Bo", "bot": "easy"}], seed=7)
    seat = client.seat(created["match_id"], created["tokens"][0]["token"])
    print(seat.view()["cards"], seat.legal())

The base URL may be ``http://`` or ``https://`` (the certificate is checked
against the system's authorities, or ``ssl_context``), with a port and a path
prefix. A :class:`Client` keeps one HTTP/1.1 connection alive and reuses it for
every call; after a failure it closes it and the next attempt opens a new one.
It is not thread-safe: give each thread its own.

Every write (create, join, actions, leave, rematch, cancel) carries an
``Idempotency-Key``, a fresh random one per call, and a call is sent again
(:class:`RetryPolicy`: 5 attempts, exponential backoff with jitter) after a
dropped, refused, reset or timed-out connection, a 503 ``store_unavailable``
or ``outcome_unknown`` (any 503 for a read) and a 429 ``rate_limited`` (after
its ``Retry-After``); never after another 4xx. Every call but
:meth:`Client.send` checks the answer's status and raises :class:`ApiError`
(``status``, ``reason``, ``message``, ``body``) when it is not the expected
one; a server that did not answer any attempt raises :class:`ConnectionFailed`
(a ``ConnectionError``). :meth:`Client.send` sends once and answers any status.

To learn what happens in a match as it happens, :meth:`Client.follow` reads
its Server-Sent Events stream (``GET /v1/matches/{id}/stream``) on a
connection of its own and yields each event; it reconnects by itself, without
a gap or a repeat, until the match ends (``match_ended``, ``match_abandoned``
or ``match_cancelled``)::

    for event in client.follow(match_id):
        print(event["seq"], event["type"])

:meth:`Client.events` with ``wait`` (a long poll) does the same one page at a time.
The chat: :meth:`Client.chat` (or :meth:`Seat.chat`) says something in a room,
:meth:`Client.chat_messages` reads it back, :meth:`Client.report`,
:meth:`Client.mute` and :meth:`Client.block` (typed dictionaries of :mod:`.chat`).

A bot's one connection: :meth:`Client.follow_my_events` follows the
account's inbox (``GET /v1/me/events/stream``: challenges, quick-play tables,
its matches starting and ending, its turns; :class:`InboxStream`, which never
ends by itself and resumes after the last ``seq`` it yielded), and
:meth:`Client.my_events` long-polls it one page at a time. Quick play:
:meth:`Client.enqueue`, :meth:`Client.ticket`, :meth:`Client.leave_queue`;
:meth:`Client.my_settings`, :meth:`Client.set_my_settings` (which challenges
the account takes, and whether it hears ``friend_started``) and :meth:`Client.bots`
(bots online); typed dictionaries of :mod:`.inbox` and :mod:`.queue`. Tournaments:
:meth:`Client.create_tournament`, :meth:`Client.tournaments` (a page of a list), :meth:`Client.tournament`,
:meth:`Client.enter_tournament`, :meth:`Client.withdraw_from_tournament`, :meth:`Client.cancel_tournament`,
:meth:`Client.standings`, and its events: :meth:`Client.tournament_events` (a page),
:meth:`Client.all_tournament_events` (every one, long-polled, until it ends) or :meth:`Client.follow_tournament`
(a stream); typed dictionaries of :mod:`.tournaments`. Friends:
:meth:`Client.follow_account`, :meth:`Client.unfollow_account` and :meth:`Client.following` (who
of those followed plays, with their live matches, is online or away; :mod:`.friends`). Puzzles:
:meth:`Client.next_puzzle`, :meth:`Client.puzzle_move` and :meth:`Client.my_puzzles` (:mod:`.puzzles`).
Moderators (the server's moderator token as ``token``): :meth:`Client.reports`, :meth:`Client.dismiss_report`,
:meth:`Client.remove_message`, :meth:`Client.mute_chat`, :meth:`Client.unmute_chat`, :meth:`Client.close_account`,
:meth:`Client.audit`, :meth:`Client.feature_match` and :meth:`Client.unfeature_match` (:mod:`.moderation`).
:mod:`.bot` is ``tienlen-bot``, which plays every match an account is seated in with a policy, unattended.

Accounts: :meth:`Client.create_account` and :meth:`Client.login` answer a
session token; :meth:`Client.me`, :meth:`Client.create_token`,
:meth:`Client.tokens`, :meth:`Client.revoke_token`, :meth:`Client.logout` and
:meth:`Client.delete_account` take an account's token (their answers are the
typed dictionaries of :mod:`.accounts`).

Playing under an account: :meth:`Client.create_match`, :meth:`Client.join`
and :meth:`Client.join_room` take an account's ``token`` (a personal token
with the ``play`` scope, or a session's): the seat is the account's, and the
same token then acts for it in every seat call, so one token serves all of a
bot's matches::

    token = os.environ["TIENLEN_TOKEN"]
    joined = client.join_room("K7QM2X", token=token)      # or create_match(..., token=token)
    seat = client.seat(joined["match_id"], token)         # the account's token, not the seat's
    seat.view(); seat.hint(); seat.rematch()

Room codes: :meth:`Client.room` reads the match a code names and
:meth:`Client.join_room` takes its lowest open seat (typed dictionaries of
:mod:`.rooms`). History: :meth:`Client.player` (a profile),
:meth:`Client.player_matches` (one page), :meth:`Client.all_player_matches`
(every match, page after page) and :meth:`Client.export` (the replays, read
one NDJSON line at a time: :class:`Export`); typed dictionaries of :mod:`.history`.

The first lesson: :meth:`Client.first_lesson` (its steps) and :meth:`Client.try_lesson_step` (the engine's
verdict on a play or a pass in one); typed dictionaries of :mod:`.lessons`.

Fair deals (docs/fair-deals.md): :meth:`Client.replay` reads a finished
match's replay and :meth:`Client.verify_deal` checks its deal
(:func:`verify_replay` of :mod:`.fair_deal`: the server's secret against the
commitment it published, and every hand's deal recomputed here);
:meth:`Client.create_match`, :meth:`Client.join` and :meth:`Client.join_room`
send each seat's own random ``entropy`` unless told otherwise.

Only the standard library is used, so this directory can be copied next to a
bot script and run anywhere (``lowest_bot.py`` is such a script). The modules:
:mod:`.transport` (the URL, the connection, retries, errors), :mod:`.api` (the
calls), :mod:`.seat` (one seat's calls), :mod:`.accounts`, :mod:`.rooms` and
:mod:`.history`, :mod:`.fair_deal` (checking a deal), :mod:`.challenges`, :mod:`.inbox`, :mod:`.queue`,
:mod:`.friends` (the answers' types, and the export), :mod:`.stream` (the match's and the inbox's event
streams), :mod:`.bot` (``tienlen-bot``); and :mod:`.botkit` (a seat's legal plays worked out from its
view), the one module that needs the server's
``tienlen`` package (its rules engine), imported only when asked for.
"""

from __future__ import annotations

from .accounts import Account, IssuedToken, PersonalToken, Registered, Scope, Session
from .api import Client
from .challenges import Challenge
from .chat import ChatMessage, ChatRemoved, ChatReport, ChatRoom, ChatSaid
from .fair_deal import FairDealCheck, verify_replay
from .friends import Friend, Presence
from .history import Export, KeptMatch, KeptPage, KeptSeat, Player, PlayerRating, PlayingMatch
from .inbox import ChallengeSettings, InboxEvent, InboxEventType, InboxPage, MySettings, OnlineBot
from .lessons import Lesson, LessonPosition, LessonStep, LessonVerdict
from .moderation import AuditAct, AuditActKind, AuditPage, ChatMute, OpenReport, ReportsPage
from .puzzles import Puzzle, PuzzleAction, PuzzleMoveAnswer, PuzzleStats, PuzzleTable
from .queue import Ticket, TicketStatus
from .ratings import BoardEntry, Leaderboard
from .rooms import LobbySeat, Room, RoomSeat
from .seat import Seat
from .stream import FINAL_EVENTS, EventStream, InboxStream
from .tournaments import (
    FINAL_TOURNAMENT_EVENTS,
    Tournament,
    TournamentEntrant,
    TournamentEvent,
    TournamentFeed,
    TournamentPage,
    TournamentStanding,
    TournamentStandings,
    TournamentStream,
    TournamentSummary,
)
from .transport import ApiError, ConnectionFailed, Endpoint, Response, RetryPolicy, new_idempotency_key

__all__ = [
    "FINAL_EVENTS",
    "FINAL_TOURNAMENT_EVENTS",
    "Account",
    "ApiError",
    "AuditAct",
    "AuditActKind",
    "AuditPage",
    "BoardEntry",
    "Challenge",
    "ChallengeSettings",
    "ChatMessage",
    "ChatMute",
    "ChatRemoved",
    "ChatReport",
    "ChatRoom",
    "ChatSaid",
    "Client",
    "ConnectionFailed",
    "Endpoint",
    "EventStream",
    "Export",
    "FairDealCheck",
    "Friend",
    "InboxEvent",
    "InboxEventType",
    "InboxPage",
    "InboxStream",
    "IssuedToken",
    "KeptMatch",
    "KeptPage",
    "KeptSeat",
    "Leaderboard",
    "Lesson",
    "LessonPosition",
    "LessonStep",
    "LessonVerdict",
    "LobbySeat",
    "MySettings",
    "OnlineBot",
    "OpenReport",
    "PersonalToken",
    "Player",
    "PlayerRating",
    "PlayingMatch",
    "Presence",
    "Puzzle",
    "PuzzleAction",
    "PuzzleMoveAnswer",
    "PuzzleStats",
    "PuzzleTable",
    "Registered",
    "ReportsPage",
    "Response",
    "RetryPolicy",
    "Room",
    "RoomSeat",
    "Scope",
    "Seat",
    "Session",
    "Ticket",
    "TicketStatus",
    "Tournament",
    "TournamentEntrant",
    "TournamentEvent",
    "TournamentFeed",
    "TournamentPage",
    "TournamentStanding",
    "TournamentStandings",
    "TournamentStream",
    "TournamentSummary",
    "new_idempotency_key",
    "verify_replay",
]
