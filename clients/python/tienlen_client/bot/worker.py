"""One match played by the bot runner: a thread that reads the seat's view, acts on its turns, waits between them.

The worker acts for the account's seat with the account's token (an
account's token acts for the seat it holds). Between its turns it waits on the
match's events long poll (``GET …/events?wait=``), never polling hard. Each
action carries the view's ``version`` and an ``Idempotency-Key``, so the
client's retries of it are safe. A policy that raises, or answers something
that is not an action or that the server refuses, is logged and replaced by
the lowest legal play for that turn.

A policy with a chat hook (:func:`~.policy.chat_hook`) hears the chat of the seats' room and of the
spectators' that the worker reads while it waits for its turn, and the match's end; each answer is said
in the seats' room. A hook that raises, or a message the server refuses, is logged and play goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ..api import Client
from ..seat import Seat
from ..transport import ApiError, RetryPolicy, new_idempotency_key
from .backoff import Backoff
from .policy import Action, ChatHook, MatchPolicy, PolicyFactory, chat_hook, fallback_action, is_action

__all__ = ["MatchWorker", "Stopped"]

log = logging.getLogger("tienlen_bot")

RACED = frozenset({"stale_version", "not_your_turn", "match_not_playing"})
"""Refusals of an action that only mean the match moved on meanwhile: read the view again."""

GONE = frozenset({"match_not_found", "not_seated"})
"""Refusals that mean there is nothing (more) for the account to play in this match."""

TRANSIENT_STATUSES = frozenset({429, 500, 502, 503, 504})
"""Answers after which the worker tries again after a pause."""

WAIT_S = 20.0
"""How long one long poll of the match's events waits."""

CLIENT_RETRY = RetryPolicy(attempts=3, backoff_s=0.25, max_backoff_s=2.0)
"""The retries of each call; past them the worker's own back-off takes over (for as long as it takes)."""


class Stopped(Exception):
    """The runner is stopping: a pause was cut short."""


def stoppable_pause(stopping: threading.Event) -> Callable[[float], None]:
    """A ``sleep`` that raises :class:`Stopped` as soon as ``stopping`` is set (at once if it is already)."""

    def pause(seconds: float) -> None:
        if stopping.wait(seconds):
            raise Stopped

    return pause


class MatchWorker(threading.Thread):
    """Plays one match for the account of ``token`` with a policy made by ``policy`` (once, for this match).

    After the run: ``outcome`` is ``finished`` (the match ended; ``final``
    is the last view), ``gone`` (nothing to play: no seat, no match, or
    cancelled), ``stopped`` or ``failed``; ``names`` are the seats' names and
    ``seat`` the account's, once known; ``fallbacks`` counts the turns the
    policy's action was replaced. ``done`` is called at the end, in the
    worker's thread.
    """

    def __init__(
        self,
        base_url: str,
        token: str,
        match_id: str,
        policy: PolicyFactory,
        stopping: threading.Event,
        done: Callable[[MatchWorker], None] = lambda worker: None,
        *,
        wait_s: float = WAIT_S,
    ) -> None:
        super().__init__(name=f"match-{match_id}", daemon=True)
        self.match_id = match_id
        self.token = token
        self.stopping = stopping
        self.pause = stoppable_pause(stopping)
        self.client = Client(base_url, timeout=wait_s + 15, retry=CLIENT_RETRY, sleep=self.pause)
        self.make_policy = policy
        self.done = done
        self.wait_s = wait_s
        self.outcome = "running"
        self.final: dict[str, Any] | None = None
        self.names: list[str | None] = []
        self.seat: int | None = None
        self.fallbacks = 0
        self.said = 0

    def interrupt(self) -> None:
        """Cut the call the worker is blocked on (from another thread), to stop it sooner."""
        self.client.interrupt()

    def run(self) -> None:
        """Play the match to its end (see the class); never raises."""
        try:
            self.outcome = self._play()
        except Stopped:
            self.outcome = "stopped"
        except Exception:
            log.exception("match %s: the worker failed; it is left to its clock", self.match_id)
            self.outcome = "failed"
        finally:
            self.client.close()
            self.done(self)

    # ------------------------------------------------------------------ playing

    def _play(self) -> str:
        seat = self.client.seat(self.match_id, self.token)
        policy = self._policy()
        hook = None if policy is None else chat_hook(policy)
        backoff = Backoff(first_s=0.5, cap_s=15.0)
        view: dict[str, Any] | None = None
        heard: int | None = None  # the last event the chat hook has been given the messages up to
        passed = 0  # the last event a long poll went past (its last_seq), read or not
        while True:
            if self.stopping.is_set():
                raise Stopped
            try:
                if view is None:
                    view = seat.view()
                    self.names = [s.get("name") for s in view["seats"]]
                    self.seat = int(view["seat"])
                if hook is not None:
                    heard = self._catch_up(seat, hook, heard, int(view["last_seq"]))
                if view["status"] == "finished":
                    self.final = view
                    self._hear(seat, hook, [{"type": "match_ended", "match_id": self.match_id, "view": view}])
                    return "finished"
                if view["status"] == "playing" and view["turn"] == view["seat"]:
                    view = self._act(seat, view, policy)
                else:
                    # after what the last poll went past too: events this reader does not read (the messages of
                    # accounts it hides) answer a poll at once, empty, and must not answer the next one again
                    page = seat.events(after=max(int(view["last_seq"]), passed), wait=self.wait_s)
                    passed = max(passed, int(page["last_seq"]))
                    heard = self._hear_after(seat, hook, int(view["last_seq"]) if heard is None else heard, page)
                    if any(event["type"] == "match_cancelled" for event in page["events"]):
                        log.debug("match %s was cancelled", self.match_id)
                        return "gone"
                    if page["events"]:
                        view = None
                backoff.reset()
            except ApiError as error:
                if error.reason in GONE:
                    log.warning("match %s: nothing to play (%s %s)", self.match_id, error.status, error.reason)
                    return "gone"
                if error.status not in TRANSIENT_STATUSES:
                    raise
                view = None
                self.pause(backoff.next_pause())
            except ConnectionError as error:  # ConnectionFailed after the client's retries: the server is away
                log.warning("match %s: %s; trying again", self.match_id, error)
                view = None
                self.pause(backoff.next_pause())

    def _catch_up(self, seat: Seat, hook: ChatHook, heard: int | None, through: int) -> int:
        """Give the hook the messages said between the last event it heard and the view's ``through`` (those
        that came while the bot acted or read its view); the event it has now heard through. At the first
        view it starts from there: what was said before the bot sat down is not answered."""
        if heard is None:
            return through
        while heard < through:
            page = seat.events(after=heard, wait=0)
            if not page["events"] and int(page["last_seq"]) <= heard:
                break  # a page of events it does not read goes on after them (its last_seq); nothing at all ends
            heard = self._hear_after(seat, hook, heard, page)
        return heard

    def _hear_after(self, seat: Seat, hook: ChatHook | None, heard: int, page: dict[str, Any]) -> int:
        """Hear the page's messages after ``heard`` (none twice); the last event heard through now."""
        self._hear(seat, hook, [e for e in page["events"] if e["type"] == "chat_said" and int(e["seq"]) > heard])
        return max(heard, int(page["last_seq"]))

    def _hear(self, seat: Seat, hook: ChatHook | None, events: list[dict[str, Any]]) -> None:
        """Give the hook each message of others (or the match's end, once), and say what it answers in the seats'
        room."""
        if hook is None:
            return
        for event in events:
            if event["type"] == "chat_said" and (event.get("from_seat") == self.seat or not event.get("text")):
                continue  # its own words, or a removed message
            if event["type"] not in ("chat_said", "match_ended"):
                continue
            try:
                answer = hook(event)
            except Stopped:
                raise
            except Exception:
                log.warning("match %s: the chat hook raised; it says nothing", self.match_id, exc_info=True)
                continue
            text, phrase = (None, answer.get("phrase")) if isinstance(answer, dict) else (answer, None)
            if not (isinstance(text, str) and text.strip()) and not isinstance(phrase, str):
                continue
            try:
                seat.chat(text if phrase is None else None, phrase=phrase)
                self.said += 1
            except ApiError as error:  # muted, limited, a bad text: the bot plays on
                log.warning("match %s: the bot's chat was refused (%s %s)", self.match_id, error.status, error.reason)

    def _policy(self) -> MatchPolicy | None:
        try:
            return self.make_policy()
        except Exception:
            log.exception("match %s: the policy could not be made; playing the lowest legal plays", self.match_id)
            return None

    def _act(self, seat: Seat, view: dict[str, Any], policy: MatchPolicy | None) -> dict[str, Any]:
        """Act once for the seat on turn; the view after it (the answer, or the view read again after a race)."""
        action: Action | None = None
        if policy is not None:
            try:
                chosen = policy(view)
            except Stopped:
                raise
            except Exception:
                log.warning("match %s: the policy raised; playing the lowest legal play", self.match_id, exc_info=True)
            else:
                if is_action(chosen):
                    action = chosen
                else:
                    log.warning("match %s: the policy answered %.80r, not an action", self.match_id, chosen)
        if action is None:
            self.fallbacks += 1
            action = fallback_action(seat, view)
        try:
            return seat.act(action, version=int(view["version"]), key=new_idempotency_key())
        except ApiError as error:
            if error.reason in RACED:
                return seat.view()
            if error.status not in (400, 409, 422):
                raise
            log.warning("match %s: %s was refused (%s); playing the lowest legal play", self.match_id, action, error)
        self.fallbacks += 1
        try:
            return seat.act(fallback_action(seat, view), version=int(view["version"]), key=new_idempotency_key())
        except ApiError as error:
            if error.reason in RACED:
                return seat.view()
            raise
