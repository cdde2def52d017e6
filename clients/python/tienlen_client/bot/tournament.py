"""``tienlen-bot --tournament ID``: the entry of the bot's account in one tournament, kept until it ends.

:class:`TournamentEntry` enters the tournament when the runner starts (``PUT …/entry``; a bot that restarts in
a running tournament it entered carries on), plays the table it sits at already (``you``), and from then on
reads what the inbox tells of the tournament (the tables themselves are inbox ``tournament_table_ready``
events, played as any match the account is seated in). It says when the runner is done: the tournament
finished (exit status 0), the entry was refused or withdrawn (:data:`EXIT_REFUSED`), the tournament was
cancelled (:data:`EXIT_CANCELLED`). While the tournament is open it reads it every :data:`CHECK_S` seconds, to
notice a withdrawal made from another client; while it runs, to notice an end whose inbox event was missed.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from ..api import Client
from ..inbox import InboxEvent
from ..tournaments import Tournament
from ..transport import ApiError

__all__ = ["CHECK_S", "EXIT_CANCELLED", "EXIT_REFUSED", "Done", "TournamentEntry"]

log = logging.getLogger("tienlen_bot")

EXIT_REFUSED = 3
"""The exit status when the tournament refused the entry, or the account withdrew from it."""

EXIT_CANCELLED = 4
"""The exit status when the tournament was cancelled before its start."""

CHECK_S = 30.0
"""How often the tournament is read again (a withdrawal from another client, an end the inbox did not tell)."""


@dataclass(frozen=True)
class Done:
    """The runner has nothing more to do for the tournament: ``status`` is its exit status, ``why`` the log line."""

    status: int
    why: str


class TournamentEntry:
    """The account of ``token`` in the tournament ``tournament_id`` (see the module)."""

    def __init__(self, client: Client, token: str, tournament_id: str) -> None:
        """Nothing is sent before :meth:`enter`."""
        self.client = client
        self.token = token
        self.tournament_id = tournament_id
        self.name = tournament_id  # its name once read
        self.done: Done | None = None
        self._checked = 0.0

    def enter(self) -> str | None:
        """Enter (or find the entry made before a restart); the match to play now, if the account sits at one.

        Sets :attr:`done` when there is nothing to play: refused, withdrawn, cancelled, or over already.
        """
        self._checked = time.monotonic()
        try:
            tournament = self.client.enter_tournament(self.token, self.tournament_id)
        except ApiError as error:
            if error.status == 401 or error.reason == "scope_missing":
                self.done = Done(1, f"the server refused the token: {error}")
                return None
            if error.reason != "tournament_not_open":
                self.done = Done(EXIT_REFUSED, f"tournament {self.tournament_id} refused the entry: {error}")
                return None
            tournament = self.client.tournament(self.tournament_id, self.token)  # started: entered before?
            if not tournament["entered"]:
                self.done = Done(EXIT_REFUSED, f"tournament {self.tournament_id} refused the entry: {error}")
                return None
        self.name = tournament["terms"]["name"]
        terms = tournament["terms"]
        log.info(
            "entered tournament %s (%s): %s, %s, tables of %d, %d of %d entrants",
            self.tournament_id,
            self.name,
            terms["format"],
            tournament["status"],
            terms["players"],
            sum(not entrant["withdrawn"] for entrant in tournament["entrants"]),
            terms["max_entrants"],
        )
        return self._now(tournament)

    def heard(self, event: InboxEvent) -> None:
        """An inbox event: the tournament's end sets :attr:`done` (its other events are the runner's)."""
        if event.get("tournament_id") != self.tournament_id or self.done is not None:
            return
        kind = event["type"]
        if kind == "tournament_started":
            log.info("tournament %s (%s) started", self.tournament_id, self.name)
        elif kind == "tournament_table_ready":
            log.info("tournament %s: round %s, match %s", self.tournament_id, event.get("round"), event.get("match_id"))
        elif kind == "tournament_finished":
            self.done = Done(0, f"tournament {self.tournament_id} ({self.name}) finished: place {event.get('place')}")
        elif kind == "tournament_cancelled":
            why = event.get("why", "cancelled")
            self.done = Done(EXIT_CANCELLED, f"tournament {self.tournament_id} ({self.name}) was cancelled ({why})")

    def check(self) -> str | None:
        """Read the tournament again when :data:`CHECK_S` passed; the match to play now, if any."""
        now = time.monotonic()
        if self.done is not None or now - self._checked < CHECK_S:
            return None
        self._checked = now
        return self._now(self.client.tournament(self.tournament_id, self.token))

    def _now(self, tournament: Tournament) -> str | None:
        status = tournament["status"]
        if status == "cancelled":
            self.done = Done(EXIT_CANCELLED, f"tournament {self.tournament_id} ({self.name}) was cancelled")
        elif not tournament["entered"]:
            self.done = Done(EXIT_REFUSED, f"withdrawn from tournament {self.tournament_id} ({self.name})")
        elif status == "finished":
            self.done = Done(0, f"tournament {self.tournament_id} ({self.name}) finished")
        you = tournament["you"]
        return None if you is None or self.done is not None else you["match_id"]
