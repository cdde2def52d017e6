"""A match's chat: saying something in a room, who reads which message, a match's chat read back, reports.

Two rooms: ``table`` (the seats') and ``spectators`` (everyone's). A seat (its token, or a ``play`` token of
the account holding it) writes in ``table`` and reads both; any other account (scope ``play``) writes in
``spectators``; a reader without a token reads ``spectators`` only. A message is the match event ``chat_said``,
written through the match writer like every event; a match that ended takes messages for
:data:`WRITE_AFTER_END_S` more. What an account mutes or blocks, or what blocks it, it does not read.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..events import CHAT_SAID, ChatSaid
from ..store.base import Loaded
from ..store.records import MatchRecord, token_digest
from .accounts import authorized
from .commands import Report, Say
from .core import Core
from .errors import (
    AlreadyReported,
    ChatMuted,
    InvalidToken,
    MatchNotFound,
    MatchNotPlaying,
    MessageNotFound,
    NotSeated,
    NotSpectator,
    ScopeMissing,
)
from .kept import decode
from .phrases import PHRASES_BY_ID
from .writer import EventDict, Write, found

TABLE, SPECTATORS = "table", "spectators"
ROOMS = (TABLE, SPECTATORS)
MAX_MESSAGE_SEQ = 2**63 - 1  # an event's number is a stream entry id's 64-bit sequence part: none is larger
WRITE_AFTER_END_S = 600
"""How long after its end a match still takes chat messages (its chat stays readable for as long as it is kept)."""


@dataclass(frozen=True, slots=True)
class Reader:
    """Who reads a match's events: whether it reads the ``table`` room, and the names whose messages it does not."""

    table: bool = False
    hidden: frozenset[str] = frozenset()

    def reads(self, event: EventDict) -> bool:
        """Whether this reader is sent ``event`` (every event but a chat message it may not read)."""
        if event["type"] != CHAT_SAID:
            return True
        if event["room"] == TABLE and not self.table:
            return False
        return not (self.hidden and event.get("account") in self.hidden)

    def only(self, events: Iterable[EventDict]) -> list[EventDict]:
        """The events this reader is sent, in order."""
        return [event for event in events if self.reads(event)]


ANYONE = Reader()
"""A reader without a token: every event but the table room's messages."""


@dataclass(frozen=True, slots=True)
class Speaker:
    """Who says something: its name, its seat (None for a spectator), its account's id and name (None: anonymous)."""

    name: str
    seat: int | None
    account_id: str | None
    account: str | None


def message_of(event: EventDict) -> dict[str, Any]:
    """A ``chat_said`` event as the chat answers it: ``{seq, room, from: {name, seat, account}, text, phrase, at}``."""
    return {
        "seq": event["seq"],
        "room": event["room"],
        "from": {"name": event["name"], "seat": event["from_seat"], "account": event["account"]},
        "text": event["text"],
        "phrase": event["phrase"],
        "at": event["said_at"],
    }


class Chat:
    """The chat of matches, over the shared :class:`~.core.Core` and the store's chat
    (:class:`~tienlen.store.chat.ChatStore`)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self.store = core.store.chat()

    # ----- saying -------------------------------------------------------------------------------

    def say(self, match_id: str, token: str | None, command: Say) -> dict[str, Any]:
        """Say ``command``'s text or phrase in its room; the message as committed (its ``seq``).

        Refused: no token or an unknown one :class:`InvalidToken`; an account token without ``play``
        :class:`ScopeMissing`; a seat writing in ``spectators`` :class:`NotSpectator`, a spectator in ``table``
        :class:`NotSeated`; a moderator's mute :class:`ChatMuted`; a match ended more than
        :data:`WRITE_AFTER_END_S` ago :class:`MatchNotPlaying`; no match (or a cancelled one) :class:`MatchNotFound`.
        """
        text, phrase = command.text, command.phrase
        if phrase is not None:
            text = PHRASES_BY_ID[phrase].text["en"]
        assert text is not None

        def change(loaded: Loaded) -> Write[dict[str, Any]]:
            record = found(loaded, match_id)
            speaker = self.speaker(record, token)
            if speaker.seat is not None and command.room != TABLE:
                raise NotSpectator("a seat writes in its table's room ('table'); it reads both rooms")
            if speaker.seat is None and command.room != SPECTATORS:
                raise NotSeated("only the seats write in the 'table' room: write in 'spectators'")
            now = self.core.now()
            if speaker.account_id is not None:
                until = self.store.chat_muted_until(speaker.account_id)
                if until is not None and until > now:
                    raise ChatMuted("a moderator muted this account's chat", until=until)
            ended = record.ended_at if record.ended_at is not None else record.updated_at
            if record.status == "finished" and now - ended > WRITE_AFTER_END_S:
                raise MatchNotPlaying(f"the match ended over {WRITE_AFTER_END_S // 60} minutes ago: its chat is closed")
            said = ChatSaid(command.room, speaker.name, speaker.seat, speaker.account, text, phrase, now)

            def answer(events: list[EventDict]) -> dict[str, Any]:
                if record.status == "finished":  # kept already: the message joins the kept chat too
                    self.store.keep_chat(match_id, events)
                return message_of(events[0])

            return Write(record, [said], answer)

        return self.core.writer.write(match_id, change)

    def speaker(self, record: MatchRecord, token: str | None) -> Speaker:
        """Who ``token`` speaks for in the match (see :meth:`say` for the refusals)."""
        if token is None:
            raise InvalidToken("send 'Authorization: Bearer <token>': a seat's token or an account's (scope play)")
        seat = record.seat_of_token(token)
        if seat is not None:
            held = record.seats[seat]
            account = None if held.account is None else self.core.accounts.get(held.account)
            return Speaker(held.name or f"seat {seat}", seat, held.account, None if account is None else account.name)
        grant = self.core.accounts.grant(token_digest(token))
        record_of_account = None if grant is None else self.core.accounts.get(grant.account_id)
        if grant is None or record_of_account is None:
            raise InvalidToken("the token is no seat's of this match, nor an account's")
        if "play" not in grant.scopes:
            raise ScopeMissing("this token was not given the 'play' scope")
        seat = record.seat_of_account(grant.account_id)
        return Speaker(record_of_account.name, seat, grant.account_id, record_of_account.name)

    # ----- reading ------------------------------------------------------------------------------

    def reader(self, match_id: str, token: str | None, record: MatchRecord | None = None) -> Reader:
        """Who reads the match with ``token`` (optional): a seat's token, or an account's whose account holds a
        seat, reads the ``table`` room; an account's hidden accounts are left out. A token that is neither reads
        as no token (the events are public)."""
        if token is None:
            return ANYONE
        if record is None:
            record = self.core.get(match_id)
        seat = record.seat_of_token(token)
        if seat is not None:
            account_id = record.seats[seat].account
            return Reader(True, self.hidden_names(account_id))
        grant = self.core.accounts.grant(token_digest(token))
        if grant is None:
            return ANYONE
        return Reader(record.seat_of_account(grant.account_id) is not None, self.hidden_names(grant.account_id))

    def hidden_names(self, account_id: str | None) -> frozenset[str]:
        """The names of the accounts whose messages ``account_id`` does not read (muted, blocked, blocking)."""
        if account_id is None:
            return frozenset()
        return frozenset(self.names(self.store.hidden(account_id)))

    def names(self, account_ids: Iterable[str]) -> list[str]:
        """The names of these accounts (an erased one is left out)."""
        found_ = (self.core.accounts.get(account_id) for account_id in account_ids)
        return [account.name for account in found_ if account is not None]

    def messages(self, match_id: str, token: str | None) -> list[dict[str, Any]]:
        """The match's chat as ``token``'s reader may read it, oldest first: the live match's, or once it is gone
        the chat kept with its kept record (:class:`MatchNotFound` when neither is)."""
        record = self.core.store.load(match_id).record
        if record is not None:
            reader = self.reader(match_id, token, record)
            events = self.core.store.all_events(match_id)
            return [message_of(e) for e in events if e["type"] == CHAT_SAID and reader.reads(e)]
        kept = self.store.kept_chat(match_id)
        if not kept and self.core.history.kept.get(match_id) is None:
            raise MatchNotFound(f"no match {match_id!r}")
        reader = self._kept_reader(match_id, token)
        return [message_of(e) for e in kept if reader.reads(e)]

    def _kept_reader(self, match_id: str, token: str | None) -> Reader:
        """The reader of a kept match's chat: an account that held a seat reads its table room."""
        grant = None if token is None else self.core.accounts.grant(token_digest(token))
        if grant is None:
            return ANYONE
        blob = self.core.history.kept.get(match_id)
        seated = blob is not None and decode(blob).seat_of(grant.account_id) >= 0
        return Reader(seated, self.hidden_names(grant.account_id))

    def message(self, match_id: str, seq: int, reader: Reader | None = None) -> EventDict:
        """The ``chat_said`` numbered ``seq`` of a live match, not removed, that ``reader`` may read (None: any);
        :class:`MessageNotFound` when there is none, :class:`MatchNotFound` when there is no match."""
        events = self.core.store.events(match_id, seq - 1) if 1 <= seq <= MAX_MESSAGE_SEQ else []
        if events is None:
            raise MatchNotFound(f"no match {match_id!r}")
        event = events[0] if events and events[0]["seq"] == seq else None
        if event is None or event["type"] != CHAT_SAID or not event["text"]:
            raise MessageNotFound(f"no chat message {seq} in match {match_id!r}")
        if reader is not None and not reader.reads(event):
            raise MessageNotFound(f"no chat message {seq} in match {match_id!r} that you may read")
        return event

    # ----- reporting ----------------------------------------------------------------------------

    def report(self, match_id: str, seq: int, token: str | None, command: Report) -> dict[str, Any]:
        """Report message ``seq`` to the moderators (an account, scope ``play``, that may read it); the report.

        One report per account and message: again is :class:`AlreadyReported` (409).
        """
        account = authorized(self.core.accounts, token, "play")
        reader = self.reader(match_id, token)
        event = self.message(match_id, seq, reader)
        now = self.core.now()
        report = {
            "match_id": match_id,
            "message": message_of(event),
            "reporter": account.name,
            "why": command.why,
            "at": now,
        }
        if not self.store.report(report_id(match_id, seq, account.account_id), report, now):
            raise AlreadyReported("you reported this message already")
        return report


def report_id(match_id: str, seq: int, account_id: str) -> str:
    """The id of an account's report of a message (the store keeps one per id)."""
    return f"{message_prefix(match_id, seq)}{account_id}"


def message_prefix(match_id: str, seq: int) -> str:
    """What the ids of every report of one message start with."""
    return f"{match_id}:{seq}:"


__all__ = ["ANYONE", "ROOMS", "SPECTATORS", "TABLE", "WRITE_AFTER_END_S", "Chat", "Reader", "Speaker", "message_of"]
