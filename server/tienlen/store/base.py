"""What the match service needs of a store: the protocol, its read result; the stores beside the matches.

The service is written against :class:`MatchStore` and the protocols it hands
out (:mod:`.accounts`, :mod:`.challenges`, :mod:`.chat`, :mod:`.follows`, :mod:`.history`, :mod:`.inbox`,
:mod:`.live_seats`, :mod:`.queue`, :mod:`.rating_store`, :mod:`.wait_slots`, :mod:`.watching`), which import no
implementation; :mod:`.redis_store` is the implementation on Redis. What a
store raises is in :mod:`.errors`. Where and how answers to an
``Idempotency-Key`` are kept is the store's business: the service names them
by :class:`AnswerKey`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from .accounts import AccountStore
from .challenges import ChallengeStore
from .chat import ChatStore
from .follows import FollowStore
from .history import HistoryStore
from .inbox import InboxStore
from .live_seats import LiveSeats
from .puzzles import PuzzleStore
from .queue import QueueStore
from .rating_store import RatingStore
from .records import MatchRecord
from .reviews import ReviewStore
from .tournaments import TournamentStore
from .wait_slots import WaitSlots
from .watching import WatchStore

__all__ = ["AnswerKey", "Loaded", "MatchStore", "StoreObserver"]


@dataclass(frozen=True, slots=True)
class AnswerKey:
    """The answer kept for one ``Idempotency-Key`` of one seat: the seat's token digest and the client's key."""

    scope: str
    key: str


@dataclass(frozen=True, slots=True)
class Loaded:
    """A read of one match: its record (None when missing) and any answer kept under the asked key."""

    record: MatchRecord | None
    cached: dict[str, Any] | None = None


class StoreObserver(Protocol):
    """Told what the store did, for the server's metrics."""

    def committed(self, created: bool, events: list[dict[str, Any]]) -> None:
        """A commit was applied: a new match when ``created``; the events it appended."""

    def lost_race(self) -> None:
        """A compare-and-set found another version (the caller retries from a fresh read)."""

    def waiters(self, count: int) -> None:
        """The number of clients this process holds waiting for events changed to ``count``."""


class MatchStore(Protocol):
    """Match records, their public events and kept answers, written all or nothing."""

    @property
    def waiters(self) -> int:
        """Clients of this process waiting for events now (long polls and streams)."""
        ...

    def answering(self) -> AbstractContextManager[None]:
        """A write request of this process is being answered while in this block: the process's waiting
        clients are woken after it (a moment later at most, see :mod:`.writes_first`)."""
        ...

    def observe(self, observer: StoreObserver) -> None:
        """Tell ``observer`` of every applied commit, lost race and change in the number of waiters."""
        ...

    def limits_uri(self) -> str:
        """Where the rate limits are counted (a storage URI of the ``limits`` package), beside the matches."""
        ...

    def limits_options(self) -> dict[str, Any]:
        """The options of that storage: how it connects (credentials, TLS, timeouts, no retry); never in the URI."""
        ...

    def ping(self) -> bool:
        """Whether the store answers."""
        ...

    def accounts(self) -> AccountStore:
        """The players' accounts, sessions and personal tokens, beside the matches."""
        ...

    def history(self) -> HistoryStore:
        """The kept records of finished matches and the accounts' indexes of them, beside the matches."""
        ...

    def ratings(self) -> RatingStore:
        """The accounts' ratings, the settled results of rated matches and the leaderboards, beside the matches."""
        ...

    def queue(self) -> QueueStore:
        """The quick-play queue: tickets, their pools and pairings, beside the matches."""
        ...

    def inbox(self) -> InboxStore:
        """The accounts' inboxes (the events each hears of) and who listens to theirs, beside the matches."""
        ...

    def challenges(self) -> ChallengeStore:
        """The challenges between accounts and those due to expire, beside the matches."""
        ...

    def tournaments(self) -> TournamentStore:
        """The tournaments, their lists and event feeds, beside the matches."""
        ...

    def chat(self) -> ChatStore:
        """Mute and block lists, reports, moderators' mutes and audit list, kept matches' chat, beside the matches."""
        ...

    def wait_slots(self) -> WaitSlots:
        """The waiting slots each account and address holds, counted for all servers, beside the matches."""
        ...

    def follows(self) -> FollowStore:
        """Whom each account follows, its followers and its ``friends`` setting, beside the matches."""
        ...

    def puzzles(self) -> PuzzleStore:
        """Each account's puzzle attempts and puzzle rating, and each puzzle's rating, beside the matches."""
        ...

    def live_seats(self) -> LiveSeats:
        """Each account's live matches (an index; the records are the truth), beside the matches."""
        ...

    def reviews(self) -> ReviewStore:
        """The reviews of finished matches and the pending jobs computing them, beside the matches."""
        ...

    def watching(self) -> WatchStore:
        """Who follows each match lately, the live matches and the featured one, beside the matches."""
        ...

    def load(self, match_id: str, answer: AnswerKey | None = None) -> Loaded:
        """Read a match and, when ``answer`` is given, the answer kept under it, in one round trip."""
        ...

    def commit(
        self,
        record: MatchRecord,
        expected_version: int | None,
        events: list[dict[str, Any]],
        answer: tuple[AnswerKey, dict[str, Any]] | None = None,
    ) -> bool:
        """Write ``record`` if the stored version is still ``expected_version`` (None: the match is new).

        ``events`` are the new public events, numbered so that the last is
        ``record.last_seq``, appended in the same step; ``answer`` is kept
        under its key. False when the race was lost (nothing was written).
        """
        ...

    def keep(self, match_id: str, answer: AnswerKey, kept: dict[str, Any]) -> bool:
        """Keep ``kept`` under ``answer`` unless something is kept there already (False then); changes no match."""
        ...

    def confirm(self, match_id: str) -> None:
        """Wait until every write to the match so far is as durable as a new write would be (``TIENLEN_DURABILITY``).

        For an answer given again from what an earlier attempt wrote (a
        keyed retry): that attempt may have answered 503 ``outcome_unknown``
        because its copy was not confirmed. Raises
        :class:`~.errors.OutcomeUnknownError` when the copy is not confirmed in time.
        """
        ...

    def events(self, match_id: str, after: int, wait_s: float = 0) -> list[dict[str, Any]] | None:
        """Public events with ``seq`` > ``after``, oldest first, waiting up to ``wait_s`` for one; None: no match.

        A wait holds no thread and no connection of the store; it raises
        :class:`~.errors.TooManyWaitersError` when the server holds too many already.
        """
        ...

    def follow(self, match_id: str, after: int, idle_s: float) -> Iterator[list[dict[str, Any]]]:
        """Every event with ``seq`` > ``after`` as it comes, in batches, for as long as the caller reads.

        An empty batch means ``idle_s`` passed with nothing new (time for a
        heartbeat). It ends when the match is gone or the server shuts down;
        the caller stops reading after the match's last event. Counts as one
        waiter for its whole life (:class:`~.errors.TooManyWaitersError` up front).
        """
        ...

    def close(self) -> None:
        """The server is shutting down: end every wait and follow now."""
        ...

    def delete(self, record: MatchRecord, expected_version: int, events: list[dict[str, Any]]) -> bool:
        """Delete the match if still at ``expected_version``, publishing its last ``events`` first."""
        ...

    def load_many(self, match_ids: list[str]) -> list[MatchRecord | None]:
        """Several records at once (None where a match is gone)."""
        ...

    def all_events(self, match_id: str) -> list[dict[str, Any]]:
        """Every event the match has had, oldest first."""
        ...

    # ----- across matches: hints, the records are the truth ---------------------------

    def schedule(self, match_id: str, at: float) -> None:
        """The match's turn clock runs out at ``at`` (epoch seconds)."""
        ...

    def due(self, now: float, limit: int) -> list[tuple[str, int]]:
        """Up to ``limit`` (match id, deadline in ms) due at ``now``, earliest first."""
        ...

    def claim(self, match_id: str, seen_ms: int, until: float) -> bool:
        """Take a due deadline (seen at ``seen_ms``) until ``until``; False when another took it or it moved."""
        ...

    def unschedule(self, match_id: str, seen_ms: int) -> None:
        """Forget the match's deadline unless it moved since it was seen at ``seen_ms``."""
        ...

    def lobby_add(self, match_id: str, created_at: float) -> None:
        """List a listed match that has an open seat."""
        ...

    def lobby_remove(self, match_id: str) -> None:
        """Take a match off the lobby's list."""
        ...

    def lobby_page(self, before: tuple[int, str] | None, count: int) -> list[tuple[str, int]]:
        """Up to ``count`` listed (match id, created ms), newest first, after the cursor ``before``."""
        ...

    # ----- room codes: the record names its code, the index finds the match ----------------

    def claim_room(self, code: str, match_id: str) -> bool:
        """Give ``code`` to ``match_id`` for as long as a waiting match is kept; False when a live match holds it."""
        ...

    def room(self, code: str) -> str | None:
        """The id of the match holding ``code``, or None."""
        ...

    def touch_room(self, code: str) -> None:
        """Keep ``code`` as long again as a waiting match is kept (its match still waits for players)."""
        ...

    def release_room(self, code: str, match_id: str) -> None:
        """Let ``code`` go, if ``match_id`` still holds it."""
        ...
