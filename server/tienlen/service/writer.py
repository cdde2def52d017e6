"""The one match writer: every write of a match goes load -> recall -> change -> seal -> commit -> tell.

A use case is a *change*: a function given what was loaded (the record, None
for a match not made yet, and any answer kept under the call's
``Idempotency-Key``) that answers a :class:`Write` (the record changed, its
new events and the answer), :class:`Done` (an answer without writing) or
:data:`LOST` (a new match's id was taken: draw another), or raises a
refusal, which changes nothing. The writer then

- recalls an answer kept under the call's key (:class:`Keyed`) before the
  change runs: bound to its caller for a create or a join
  (:func:`~.idempotency.answer_bound`), a refusal the match decided for an
  action (:func:`~.idempotency.refuse_again`); a refusal of
  :data:`~.idempotency.KEPT_REFUSALS` is kept under the key for its retries;
- seals the changed record (:meth:`MatchWriter.seal`: version, time, the turn
  clock, event numbers, a finishing match registered to be kept);
- commits it with a compare-and-set on the version it read (``None``: the
  match is new), with the answer to keep under the key in the same step; a
  lost race is retried from a fresh read, the change applied again;
- after the commit tells the accounts (:class:`~.notices.Notices`) and keeps
  a match the write finished (:meth:`~.history.HistoryService.finished`), once.

:func:`~.retry.attempts` is the service's one retry loop: the writer's, and
every other compare-and-set of the service (challenges, room codes, erasing a name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..engine import Event
from ..events import STORE
from ..store.base import AnswerKey, Loaded, MatchStore
from ..store.records import MatchRecord
from .errors import MatchNotFound
from .history import HistoryService, finishes
from .idempotency import KEPT_REFUSALS, answer_bound, kept_answer, kept_refusal, refuse_again
from .live_index import LiveIndex
from .notices import Notices
from .retry import LOST, Lost, attempts, kept_changing
from .shown import with_hands_shown

T = TypeVar("T")
EventDict = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Write(Generic[T]):
    """A change to commit: the record as changed (new or loaded), its new events, and how to answer.

    ``answer`` runs after the commit, the record sealed (its version), given
    the events as committed (numbered, in the store's form): what follows the
    commit (the lobby, a room code) and the answer.
    ``keep`` is the answer kept under the call's key in the same commit (its
    tokens sealed for the caller); ``sealed`` sees the numbered events before the commit (an action keeps its
    compact answer on its seat); ``lost`` undoes what the change claimed outside the record when the race is
    lost. A ``delete`` write removes the match, its followers getting ``events`` last.
    """

    record: MatchRecord
    events: list[Event]
    answer: Callable[[list[EventDict]], T]
    keep: dict[str, Any] | None = None
    sealed: Callable[[list[EventDict]], None] | None = None
    lost: Callable[[], None] | None = None
    delete: bool = False


@dataclass(frozen=True, slots=True)
class Done(Generic[T]):
    """An answer without a write (nothing to change: the change was made already)."""

    answer: T


Change = Callable[[Loaded], "Write[T] | Done[T] | Lost"]


@dataclass(frozen=True, slots=True)
class Keyed(Generic[T]):
    """A call sent with an ``Idempotency-Key``: its answer's slot, the digest of its command, and its caller.

    With ``caller`` (a create, a join) the answer is kept under the key bound
    to the caller, and a retry is answered by ``again`` (what was loaded, the
    kept answer opened) without a change; without one (an action, scoped to
    its seat's token) only a refusal is kept there, answered again as it was.
    """

    key: AnswerKey
    digest: str
    caller: str | None = None
    again: Callable[[Loaded, dict[str, Any]], T] | None = None


def found(loaded: Loaded, match_id: str) -> MatchRecord:
    """The loaded record; :class:`MatchNotFound` when there is none."""
    if loaded.record is None:
        raise MatchNotFound(f"no match {match_id!r}")
    return loaded.record


__all__ = ["LOST", "Change", "Done", "Keyed", "Lost", "MatchWriter", "Write", "attempts", "found", "kept_changing"]


class MatchWriter:
    """Writes matches for every use case (see the module): one loop, one seal, one commit, one telling."""

    def __init__(
        self,
        store: MatchStore,
        history: HistoryService,
        notices: Notices,
        now: Callable[[], float],
        live: LiveIndex | None = None,
    ) -> None:
        self.store = store
        self.history = history
        self.notices = notices
        self.now = now
        self.live = live

    def write(
        self,
        match_id: str | Callable[[], str],
        change: Change[T],
        keyed: Keyed[T] | None = None,
        exhausted: Callable[[], T] | None = None,
        *,
        fresh: bool = False,
    ) -> T:
        """Apply ``change`` to the match and commit it, retried from a fresh read while the race is lost.

        ``match_id`` may be a function: a new match's id, drawn again on each
        attempt. ``fresh``: the id is a new random one that no match can hold,
        so nothing is read (the change is given no record) unless a key's
        answer is. After :data:`MAX_ATTEMPTS` lost races, ``exhausted()``
        (:class:`StaleVersion` by default).
        """
        return attempts(lambda: self._once(match_id, change, keyed, fresh), exhausted or kept_changing())

    def _once(
        self, match_id: str | Callable[[], str], change: Change[T], keyed: Keyed[T] | None, fresh: bool
    ) -> T | Lost:
        target = match_id() if callable(match_id) else match_id
        if fresh and keyed is None:
            loaded = Loaded(None)
        else:
            loaded = self.store.load(target, None if keyed is None else keyed.key)
        if keyed is not None and loaded.cached is not None:
            if keyed.caller is None:
                refuse_again(loaded.cached, keyed.digest)
            assert keyed.again is not None
            return keyed.again(loaded, answer_bound(loaded.cached, keyed.digest, keyed.key, keyed.caller))
        try:
            outcome = change(loaded)
        except KEPT_REFUSALS as refusal:
            kept = None if keyed is None or keyed.caller is not None else kept_refusal(keyed.digest, refusal)
            if keyed is not None and kept is not None and not self.store.keep(target, keyed.key, kept):
                return LOST  # a request with the same key got there first: answer what it kept
            raise
        if isinstance(outcome, Lost):
            return outcome
        if isinstance(outcome, Done):
            return outcome.answer
        expected = None if loaded.record is None else loaded.record.version
        committed = self.commit(outcome, expected, keyed)
        if committed is not None:
            return outcome.answer(committed)
        if outcome.lost is not None:
            outcome.lost()
        return LOST

    def commit(
        self, write: Write[Any], expected: int | None, keyed: Keyed[Any] | None = None
    ) -> list[EventDict] | None:
        """Seal and commit one write; its events as committed (None: the race was lost, nothing written).

        The accounts are told, the live indexes kept and a match the write finished is kept after the commit.
        """
        record = write.record
        events = self.seal(record, write.events)
        if write.sealed is not None:
            write.sealed(events)
        if write.delete:
            assert expected is not None
            return events if self.store.delete(record, expected, events) else None
        kept = None
        if keyed is not None and write.keep is not None:
            kept = (keyed.key, kept_answer(keyed.digest, write.keep, keyed.key, keyed.caller))
        if not self.store.commit(record, expected, events, kept):
            return None
        self.notices.committed(record, write.events)
        if self.live is not None:
            self.live.committed(record, write.events)
        self.history.finished(record, write.events)
        return events

    def seal(self, record: MatchRecord, new: list[Event]) -> list[EventDict]:
        """Make the changed record ready to commit (version, time, turn clock, event numbers); its new events
        numbered, in the store's form (:data:`~tienlen.events.STORE`), a ``hand_shown`` after each ``hand_ended``
        (:func:`~.shown.with_hands_shown`).

        A new turn deadline is registered with the store now, before the
        commit, so that a crash between the two can only leave a deadline
        for the sweeper to check, never lose one; so is a match this write
        finishes, to be kept (:meth:`HistoryService.finishing`).
        """
        now = self.now()
        record.version += 1
        record.updated_at = now
        shown = with_hands_shown(record, new)
        events = [{"seq": seq, **STORE.dump_event(e)} for seq, e in enumerate(shown, record.last_seq + 1)]
        record.last_seq += len(events)
        if finishes(new):
            record.ended_at = now
            self.history.finishing(record, new)
        if set_deadline(record, now):
            assert record.turn_deadline is not None
            self.store.schedule(record.match_id, record.turn_deadline)
        return events


def set_deadline(record: MatchRecord, now: float) -> bool:
    """Start the clock of a remote seat that came on turn (True), or stop it when no remote seat is on turn."""
    engine = record.engine
    clock = record.clock
    if clock is None or engine is None or record.status != "playing" or engine.turn is None:
        record.turn_deadline = record.deadline_for = None
        return False
    if engine.turn in record.bots:
        record.turn_deadline = record.deadline_for = None
        return False
    turn = (engine.hand_number, len(engine.log))
    if record.turn_deadline is not None and record.deadline_for == turn:
        return False
    record.turn_deadline = now + clock.turn_seconds
    record.deadline_for = turn
    return True
