"""``tienlen-bot``: one account's bot, unattended: it hears of challenges and matches on the account's inbox,
accepts or declines, keeps a quick-play ticket open, and plays every match it is seated in with a policy.

:class:`Runner` is the loop: the inbox reader (:mod:`.reader`, a thread)
and the match workers (:mod:`.worker`, a thread per match) hand it notes,
and it alone decides (challenges, the queue, starting workers, the one log
line per finished match), so its state needs no lock. :func:`main` is the
console script.
"""

from __future__ import annotations

import datetime
import logging
import queue
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..api import Client
from ..inbox import InboxEvent
from ..transport import ApiError, RetryPolicy
from .backoff import Backoff
from .config import Config, configure_logging, parse_config
from .policy import PolicyError, PolicyFactory, load_policy
from .reader import Heard, InboxReader, Note, Refused
from .tournament import TournamentEntry
from .worker import CLIENT_RETRY, TRANSIENT_STATUSES, WAIT_S, MatchWorker, Stopped, stoppable_pause

__all__ = ["MATCH_EVENTS", "Runner", "WorkerEnded", "main"]

log = logging.getLogger("tienlen_bot")

MATCH_EVENTS = frozenset({"match_started", "your_turn", "queue_matched", "challenge_started", "tournament_table_ready"})
"""Inbox events that name a match the account sits in: the runner makes sure a worker plays it."""

TOO_LATE = frozenset({"challenge_expired", "challenge_closed", "challenge_not_found", "not_challenged"})
"""Refusals of an answer to a challenge that only mean it is over (or not ours)."""

TICKET_CHECK_S = 60.0
"""How often an open ticket is read again (it should be matched by then, or say why not)."""

RESULT_GRACE_S = 30.0
"""How long after its worker saw a match end the runner waits for ``match_finished`` before it logs the end itself."""

MAX_WORKER_FAILURES = 3
"""How often a match whose worker failed is played again (after :data:`RESTART_PAUSE_S`, doubling) before it is
left to its clock and takeover bot (a later ``your_turn`` of it still starts a worker)."""

RESTART_PAUSE_S = 5.0

REMEMBERED = 10_000
"""How many finished matches and answered challenges the runner remembers (the oldest are forgotten)."""


@dataclass(frozen=True)
class WorkerEnded:
    """A match worker's thread ended (its ``outcome`` says how)."""

    worker: MatchWorker
    at: float


class _Remembered:
    """A set that forgets its oldest members past :data:`REMEMBERED`."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, None] = OrderedDict()

    def add(self, item: str) -> None:
        self._items[item] = None
        while len(self._items) > REMEMBERED:
            self._items.popitem(last=False)

    def __contains__(self, item: object) -> bool:
        return item in self._items


class Runner:
    """Runs a bot for the account of ``config.token`` with ``policy`` until stopped (see the module).

    :meth:`run` blocks; :meth:`stop` (from any thread, or a signal handler)
    makes it return soon. ``finished`` counts the matches that finished
    while it ran; ``fallbacks`` the turns its workers played the lowest legal
    play instead of the policy's action (counted as each worker ends);
    ``exit_status`` is 0, or 1 when the server refused the token; with
    ``config.tournament``, 3 when the tournament refused the entry or the
    account withdrew, 4 when it was cancelled (:mod:`.tournament`); it stops
    once the tournament is over and its matches played.
    """

    def __init__(self, config: Config, policy: PolicyFactory, *, wait_s: float = WAIT_S) -> None:
        """Set the runner up; nothing is sent before :meth:`run`.

        Raises:
            ValueError: when ``config.url`` is not an http(s) URL.
        """
        self.config = config
        self.policy = policy
        self.wait_s = wait_s
        self.stopping = threading.Event()
        self.notes: queue.Queue[Note] = queue.Queue()
        self.client = Client(config.url, retry=CLIENT_RETRY, sleep=stoppable_pause(self.stopping))
        self.reader = InboxReader(config.url, config.token, self.notes, self.stopping)
        self.workers: dict[str, MatchWorker] = {}
        self.ended_at: dict[str, float] = {}  # match → when its worker saw it finished
        self.finished = 0
        self.fallbacks = 0
        self.exit_status = 0
        self._count_lock = threading.Lock()
        self._worker_failures: dict[str, int] = {}
        self._replay_at: dict[str, float] = {}  # match → when to play it again after its worker failed
        self._finished = _Remembered()
        self._answered = _Remembered()
        self._ready = False  # the backlog was handled
        self._queued = False  # a ticket is open (its id may be unknown: 409 already_queued)
        self._ticket: str | None = None
        self._ticket_checked = 0.0
        self._queue_after = 0.0
        self._queue_backoff = Backoff(first_s=1.0, cap_s=60.0)
        tournament = config.tournament
        self.entry = None if tournament is None else TournamentEntry(self.client, config.token, tournament)

    @property
    def ticket(self) -> str | None:
        """The id of the quick-play ticket the runner holds open (None: none, or one whose id it does not know)."""
        return self._ticket

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Run until stopped, refused, or ``max_matches`` matches finished; the exit status."""
        config = self.config
        queued = "no queue" if config.queue_players is None else f"queue for {config.queue_players} players"
        accepted = ",".join(sorted(config.accept)) or "none"
        log.info(
            "tienlen-bot on %s: policy %s, accepting %s challenges, %s", config.url, config.policy, accepted, queued
        )
        try:
            if not self._enter():
                return self.exit_status
            self.reader.start()
            while not self.stopping.is_set():
                try:
                    note = self.notes.get(timeout=0.5)
                except queue.Empty:
                    note = None
                try:
                    if note is not None:
                        self._handle(note)
                    self._overdue()
                    self._keep_queue()
                    if self.entry is not None and self._tournament_over():
                        break
                except Stopped:
                    break
                except (ApiError, ConnectionError) as error:
                    log.warning("%s", error)
                except Exception:  # a bug, or an answer of an unexpected shape: this note is lost, not the bot
                    log.exception("could not handle %r", note)
                if config.max_matches is not None and self.finished >= config.max_matches:
                    log.info("%d matches finished (--max-matches): stopping", self.finished)
                    break
        finally:
            self._shut_down()
        return self.exit_status

    def stop(self) -> None:
        """Make :meth:`run` return soon: stop reading, cut the workers' waits (safe from any thread)."""
        self.stopping.set()
        self.reader.close()
        for worker in tuple(self.workers.values()):
            worker.interrupt()
        self.client.interrupt()

    def _shut_down(self) -> None:
        self.stop()
        if self._ticket is not None:
            try:
                with Client(self.config.url, timeout=5, retry=RetryPolicy(attempts=2, backoff_s=0.1)) as client:
                    client.leave_queue(self.config.token, self._ticket)
                log.info("left the queue (ticket %s)", self._ticket)
            except (ApiError, ConnectionError) as error:
                log.warning("could not leave the queue: %s", error)
        if self.reader.is_alive():
            self.reader.join(5)
        for worker in tuple(self.workers.values()):
            worker.join(5)
        self.client.close()
        log.info("stopped")

    # ------------------------------------------------------------------ a tournament

    def _enter(self) -> bool:
        """With ``--tournament``: enter it (and play the table the account sits at); False when refused."""
        if self.entry is None:
            return True
        try:
            match_id = self.entry.enter()
        except (ApiError, ConnectionError) as error:
            log.error("could not enter tournament %s: %s", self.entry.tournament_id, error)
            self.exit_status = 1
            return False
        if self.entry.done is not None:
            log.error("%s", self.entry.done.why)
            self.exit_status = self.entry.done.status
            return False
        if match_id is not None:
            self._play(match_id)
        return True

    def _tournament_over(self) -> bool:
        """Whether the tournament is over (or the entry gone) and no match of the account is left to play."""
        assert self.entry is not None
        match_id = self.entry.check()
        if match_id is not None:
            self._play(match_id)
        done = self.entry.done
        if done is None or self._playing():
            return False
        (log.info if done.status == 0 else log.error)("%s", done.why)
        self.exit_status = done.status
        return True

    def _handle(self, note: Note) -> None:
        if isinstance(note, Heard):
            if note.backlog:
                self._catch_up(note.events)
            else:
                for event in note.events:
                    self._heard(event)
        elif isinstance(note, WorkerEnded):
            self._worker_ended(note)
        elif isinstance(note, Refused):
            log.error("%s", note.why)
            self.exit_status = 1
            self.stopping.set()

    # ------------------------------------------------------------------ the inbox

    def _catch_up(self, events: list[InboxEvent]) -> None:
        """What happened while the bot was away: resume its unfinished matches, answer challenges still open."""
        opened: dict[str, None] = {}
        pending: dict[str, InboxEvent] = {}
        for event in events:
            kind = event["type"]
            if self.entry is not None:
                self.entry.heard(event)
            if kind in MATCH_EVENTS:
                opened[event["match_id"]] = None
            elif kind == "match_finished":
                self._finished.add(event["match_id"])
            elif kind == "challenge_received":
                pending[event["challenge_id"]] = event
            elif kind in ("challenge_cancelled", "challenge_started"):
                pending.pop(event["challenge_id"], None)
        for match_id in opened:
            if match_id not in self._finished:
                log.info("match %s: resuming", match_id)
                self._play(match_id)
        now = datetime.datetime.now(datetime.UTC)
        for event in pending.values():
            if _expires_after(event, now):
                self._answer(event)
        self._ready = True

    def _heard(self, event: InboxEvent) -> None:
        kind = event["type"]
        log.debug("inbox: %s", event)
        if self.entry is not None:
            self.entry.heard(event)
        if kind == "challenge_received":
            self._answer(event)
        elif kind in MATCH_EVENTS:
            if kind == "queue_matched" and (self._ticket is None or event.get("ticket") == self._ticket):
                self._queued, self._ticket = False, None
            self._play(event["match_id"])
        elif kind == "queue_left" and (self._ticket is None or event.get("ticket") == self._ticket):
            self._queued, self._ticket = False, None  # left from another client: queued again when idle
        elif kind == "match_finished":
            self._result(event["match_id"], event.get("seat"), event.get("place"), event)

    def _answer(self, event: InboxEvent) -> None:
        """Accept or decline a challenge, as configured (once per challenge)."""
        challenge = event["challenge_id"]
        if challenge in self._answered or self.stopping.is_set():
            return
        self._answered.add(challenge)
        rated = bool(event.get("rated"))
        accept = self.config.accepts(rated)
        verb, done = ("accept", "accepted") if accept else ("decline", "declined")
        about = f"challenge {challenge} from {event.get('from')} ({'rated' if rated else 'casual'})"
        try:
            if accept:
                answer = self.client.accept_challenge(self.config.token, challenge)
            else:
                answer = self.client.decline_challenge(self.config.token, challenge)
        except ApiError as error:
            if error.reason in TOO_LATE:
                log.info("%s: too late to %s (%s)", about, verb, error.reason)
                return
            raise
        log.info("%s: %s", about, done)
        if accept and answer["status"] == "started" and answer["match_id"]:
            self._play(answer["match_id"])

    # ------------------------------------------------------------------ matches

    def _play(self, match_id: str) -> None:
        """Make sure a worker plays ``match_id`` (unless it finished); leave the queue while playing."""
        if match_id in self._finished or self.stopping.is_set():
            return
        worker = self.workers.get(match_id)
        if worker is not None and (worker.is_alive() or worker.outcome == "finished"):
            return
        worker = MatchWorker(
            self.config.url,
            self.config.token,
            match_id,
            self.policy,
            self.stopping,
            self._ended,
            wait_s=self.wait_s,
        )
        self.workers[match_id] = worker
        worker.start()
        log.debug("match %s: playing", match_id)
        if self._queued and self._ticket is not None:
            self._leave_queue()

    def _ended(self, worker: MatchWorker) -> None:
        """A worker's last word (in its thread): count its fallbacks, tell the loop."""
        with self._count_lock:
            self.fallbacks += worker.fallbacks
        self.notes.put(WorkerEnded(worker, time.monotonic()))

    def _worker_ended(self, note: WorkerEnded) -> None:
        worker = note.worker
        match_id = worker.match_id
        if self.workers.get(match_id) is not worker:
            return
        if worker.outcome == "finished":
            if match_id not in self._finished:
                self.ended_at[match_id] = note.at  # its result comes with match_finished
            return
        del self.workers[match_id]
        if worker.outcome == "failed" and not self.stopping.is_set():
            failures = self._worker_failures.get(match_id, 0) + 1
            self._worker_failures[match_id] = failures
            if failures <= MAX_WORKER_FAILURES:  # it may be on turn: no your_turn would come to start another
                self._replay_at[match_id] = note.at + RESTART_PAUSE_S * 2 ** (failures - 1)

    def _overdue(self) -> None:
        """Timers: a failed worker's match played again after a pause; matches a worker saw end whose
        ``match_finished`` did not come in time, logged from the final view."""
        now = time.monotonic()
        for match_id, due in list(self._replay_at.items()):
            if now >= due:
                del self._replay_at[match_id]
                log.info("match %s: playing it again after its worker failed", match_id)
                self._play(match_id)
        for match_id, ended in list(self.ended_at.items()):
            if now - ended >= RESULT_GRACE_S:
                worker = self.workers.get(match_id)
                final = worker.final if worker is not None else None
                seat = None if worker is None else worker.seat
                place = None if final is None or seat is None else final["seats"][seat].get("place")
                self._result(match_id, seat, place, None)

    def _result(self, match_id: str, seat: int | None, place: int | None, event: InboxEvent | None) -> None:
        """The one log line of a finished match (and it counts towards ``max_matches``)."""
        self.ended_at.pop(match_id, None)
        self._worker_failures.pop(match_id, None)
        self._replay_at.pop(match_id, None)
        if match_id in self._finished:
            return
        self._finished.add(match_id)
        self.finished += 1
        worker = self.workers.pop(match_id, None)
        names = [] if worker is None else worker.names
        where = f"seat {seat}"
        if names:
            shown = ", ".join(f"{name}*" if index == seat else str(name) for index, name in enumerate(names))
            where += f" of {len(names)} ({shown})"
        if event is None:
            rating = ", no match_finished heard"
        elif event.get("rating_before") is not None and event.get("rating_after") is not None:
            rating = f", rating {event.get('rating_before')}→{event.get('rating_after')}"
        else:
            rating = ", casual"
        log.info("match %s finished: %s, place %s%s", match_id, where, place, rating)

    # ------------------------------------------------------------------ the queue

    def _playing(self) -> list[str]:
        """The matches being played, or played out and waiting for their result."""
        return [
            match_id
            for match_id, worker in self.workers.items()
            if match_id not in self._finished and (worker.is_alive() or worker.outcome == "finished")
        ]

    def _keep_queue(self) -> None:
        """Keep one ticket open while no match is being played (and more may be played)."""
        players = self.config.queue_players
        if players is None or not self._ready or self.stopping.is_set():
            return
        now = time.monotonic()
        if self._queued:
            if self._ticket is not None and now - self._ticket_checked >= TICKET_CHECK_S:
                self._check_ticket(now)
            return
        playing = self._playing()
        limit = self.config.max_matches
        if playing or now < self._queue_after or (limit is not None and self.finished + len(playing) >= limit):
            return
        rated = not self.config.queue_casual
        try:
            ticket = self.client.enqueue(self.config.token, players, self.config.preset, rated)
        except ApiError as error:
            if error.reason == "already_queued":
                self._queued = True  # taken by another client, or before a restart: that ticket is kept
                self._ticket, self._ticket_checked = self._open_ticket(), now
                log.info("ticket %s of this account is open already: waiting for its table", self._ticket)
            elif error.status in TRANSIENT_STATUSES:
                self._queue_after = now + self._queue_backoff.next_pause()
                log.warning("queue: %s", error)
            else:
                self._queue_after = now + TICKET_CHECK_S
                log.error("the queue refused the ticket (%s); trying again in %.0f s", error, TICKET_CHECK_S)
            return
        except ConnectionError as error:
            self._queue_after = now + self._queue_backoff.next_pause()
            log.warning("queue: %s", error)
            return
        self._queue_backoff.reset()
        self._queued, self._ticket, self._ticket_checked = True, ticket["ticket"], now
        kind = "rated" if ticket["rated"] else "casual"
        log.info("queued for a %s table of %d (ticket %s)", kind, ticket["players"], ticket["ticket"])
        self._ticket_now(ticket)

    def _open_ticket(self) -> str | None:
        """The id of the account's open ticket (None: it holds none any more, or the server cannot say)."""
        try:
            return self.client.my_ticket(self.config.token)["ticket"]
        except ApiError as error:
            if error.reason != "ticket_not_found":
                raise
            self._queued = False  # gone meanwhile (matched or left): the inbox says which
            return None

    def _check_ticket(self, now: float) -> None:
        assert self._ticket is not None
        self._ticket_checked = now
        try:
            ticket = self.client.ticket(self.config.token, self._ticket)
        except ApiError as error:
            if error.reason != "ticket_not_found":
                raise
            self._queued, self._ticket = False, None
            return
        self._ticket_now(ticket)

    def _ticket_now(self, ticket: Any) -> None:
        if ticket["status"] == "left":
            self._queued, self._ticket = False, None
        elif ticket["status"] == "matched" and ticket.get("match_id"):
            self._queued, self._ticket = False, None
            self._play(str(ticket["match_id"]))

    def _leave_queue(self) -> None:
        """Give the open ticket up (a match started elsewhere); if it was matched meanwhile, that match is played."""
        assert self._ticket is not None
        try:
            self.client.leave_queue(self.config.token, self._ticket)
        except ApiError as error:
            if error.reason == "already_matched":
                return  # queue_matched is on its way
            if error.reason != "ticket_not_found":
                raise
        log.info("left the queue (ticket %s): playing a match", self._ticket)
        self._queued, self._ticket = False, None


def _expires_after(event: InboxEvent, now: datetime.datetime) -> bool:
    """Whether a challenge is still open at ``now`` (True when its expiry cannot be read: the server will say)."""
    try:
        expires = datetime.datetime.fromisoformat(event.get("expires_at", ""))
    except ValueError:
        return True
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=datetime.UTC)
    return expires > now


def main(argv: Sequence[str] | None = None) -> int:
    """The console script ``tienlen-bot`` (see ``--help``); the exit status.

    0 after SIGINT, SIGTERM or ``--max-matches``; 1 when the server refused
    the token; 2 for bad arguments or a policy that cannot be loaded.
    """
    config = parse_config(argv)
    configure_logging(config.log_level)
    try:
        policy = load_policy(config.policy)
        runner = Runner(config, policy)
    except (PolicyError, ValueError) as error:
        print(f"tienlen-bot: {error}", file=sys.stderr)
        return 2

    def on_signal(signum: int, frame: object) -> None:
        runner.stop()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    return runner.run()
