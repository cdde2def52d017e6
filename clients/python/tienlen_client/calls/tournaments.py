"""The tournaments' calls: create, list, read, enter, withdraw, cancel; the standings; the events (a page, every
event by long poll, or a stream)."""

from __future__ import annotations

import datetime
import urllib.parse
from collections.abc import Iterator
from typing import Any, cast

from ..tournaments import (
    FINAL_TOURNAMENT_EVENTS,
    Placing,
    Placings,
    Tournament,
    TournamentEvent,
    TournamentFeed,
    TournamentFormat,
    TournamentPage,
    TournamentStandings,
    TournamentStatus,
    TournamentStream,
    TournamentSummary,
)
from ..transport import ApiError, error_body
from .base import BaseClient
from .bodies import instant, segment

__all__ = ["TournamentCalls"]


class TournamentCalls(BaseClient):
    """``/v1/tournaments``."""

    def create_tournament(
        self,
        token: str,
        name: str,
        format: TournamentFormat,
        *,
        players: int | None = None,
        preset: str | None = None,
        hands: int | None = None,
        turn_seconds: int | None = None,
        starts_at: datetime.datetime | str | None = None,
        min_entrants: int | None = None,
        max_entrants: int | None = None,
        rated: bool | None = None,
        bots: bool | None = None,
        rounds: int | None = None,
        window_s: float | None = None,
        deals: int | None = None,
    ) -> Tournament:
        """``POST /v1/tournaments`` → 201 the tournament (scope ``play``); what is not given takes the server's
        default (see docs/api.md). ``swiss`` needs ``rounds``, ``arena`` ``window_s``, ``duplicate`` ``deals``;
        ``starts_at`` None: it starts as soon as ``max_entrants`` entered.

        422 ``bad_terms`` (naming the field), 409 ``too_many_tournaments`` (3 open already). Not idempotent:
        sent once (a retry could make two).
        """
        given: dict[str, Any] = {
            "players": players,
            "preset": preset,
            "hands": hands,
            "turn_seconds": turn_seconds,
            "min_entrants": min_entrants,
            "max_entrants": max_entrants,
            "rated": rated,
            "bots": bots,
            "rounds": rounds,
            "window_s": window_s,
            "deals": deals,
        }
        body = {"name": name, "format": format, **{key: value for key, value in given.items() if value is not None}}
        if starts_at is not None:
            body["starts_at"] = instant(starts_at)
        return cast(Tournament, self.request("POST", "/v1/tournaments", body, token=token, expect=201, once=True))

    def tournaments(
        self, status: TournamentStatus = "open", cursor: str | None = None, limit: int = 20, token: str | None = None
    ) -> TournamentPage:
        """``GET /v1/tournaments``: a page of the tournaments of ``status`` (``open`` soonest first, the others
        newest first); pass ``next_cursor`` as ``cursor`` for the next; with ``token`` each one's ``entered`` says
        whether that account entered it. A read, retried."""
        query: dict[str, Any] = {"status": status, "limit": limit}
        if cursor is not None:
            query["cursor"] = cursor
        path = f"/v1/tournaments?{urllib.parse.urlencode(query)}"
        return cast(TournamentPage, self.request("GET", path, token=token, expect=200))

    def all_tournaments(self, status: TournamentStatus = "open", page_size: int = 100) -> Iterator[TournamentSummary]:
        """Every tournament of ``status``, one page (``page_size``) asked at a time, as they are iterated."""
        cursor: str | None = None
        while True:
            page = self.tournaments(status, cursor, page_size)
            yield from page["tournaments"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def tournament(self, tournament_id: str, token: str | None = None) -> Tournament:
        """``GET /v1/tournaments/{id}``: terms, status, entrants, rounds and their tables; with ``token`` (scope
        ``play``) ``entered`` and ``you`` (the caller's table now). 404 ``tournament_not_found``. A read."""
        path = f"/v1/tournaments/{segment(tournament_id)}"
        return cast(Tournament, self.request("GET", path, token=token, expect=200))

    def enter_tournament(self, token: str, tournament_id: str) -> Tournament:
        """``PUT …/entry``: enter before the start (200 entered already, 201 now: both answer the tournament).

        403 ``bots_not_admitted`` for a bot account where bots are not, 409 ``tournament_full``, 409
        ``tournament_not_open`` once started. Idempotent: retried as every write is.
        """
        path = f"/v1/tournaments/{segment(tournament_id)}/entry"
        response, attempts = self.transport.send("PUT", path, None, token=token)
        if response.status not in (200, 201):
            raise ApiError(response.status, error_body(response), f"PUT {path}", attempts)
        return cast(Tournament, response.json())

    def withdraw_from_tournament(self, token: str, tournament_id: str) -> None:
        """``DELETE …/entry`` → 204: withdraw before the start (409 ``not_entered``, 409 ``tournament_not_open``).

        Retried as every write is: a ``not_entered`` after more than one attempt
        (:attr:`ApiError.attempts` > 1) may mean an earlier one was applied.
        """
        self.request("DELETE", f"/v1/tournaments/{segment(tournament_id)}/entry", token=token, expect=204)

    def cancel_tournament(self, token: str, tournament_id: str) -> None:
        """``DELETE /v1/tournaments/{id}`` → 204: its creator cancels it before the start (403 ``not_creator``,
        409 ``tournament_not_open``); the entrants hear ``tournament_cancelled``."""
        self.request("DELETE", f"/v1/tournaments/{segment(tournament_id)}", token=token, expect=204)

    def standings(self, tournament_id: str) -> TournamentStandings:
        """``GET …/standings``: every entrant ranked 1..n with its score and tiebreaks; ``final`` once over."""
        path = f"/v1/tournaments/{segment(tournament_id)}/standings"
        return cast(TournamentStandings, self.request("GET", path, expect=200))

    def player_tournaments(self, name: str, limit: int = 20) -> list[Placing]:
        """``GET /v1/players/{name}/tournaments``: where the player finished the tournaments it played to their
        end, newest first (its latest ``limit``, 1 to 100; 404 ``player_not_found``)."""
        path = f"/v1/players/{segment(name)}/tournaments?limit={int(limit)}"
        return cast(Placings, self.request("GET", path, expect=200))["placings"]

    def tournament_events(self, tournament_id: str, after: int = 0, wait: float = 0) -> TournamentFeed:
        """``GET …/events``: the events with ``seq`` > ``after``, oldest first; with ``wait`` (seconds, up to 30)
        as soon as one comes (a long poll). Pass ``last_seq`` as the next ``after``. A read, retried."""
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        path = f"/v1/tournaments/{segment(tournament_id)}/events?{query}"
        return cast(TournamentFeed, self.request("GET", path, expect=200))

    def all_tournament_events(
        self, tournament_id: str, after: int = 0, wait: float = 25.0
    ) -> Iterator[TournamentEvent]:
        """Every event after ``after`` as it comes, long-polling (``wait`` seconds a poll), until
        ``tournament_finished`` or ``tournament_cancelled`` (yielded last). Nothing is asked before the first
        event is; each poll is a read of its own, retried as reads are."""
        while True:
            feed = self.tournament_events(tournament_id, after, wait)
            for event in feed["events"]:
                yield event
                if event["type"] in FINAL_TOURNAMENT_EVENTS:
                    return
            after = max(after, feed["last_seq"])

    def follow_tournament(
        self, tournament_id: str, after: int = 0, *, read_timeout: float = 45.0, give_up_after: float | None = 120.0
    ) -> TournamentStream:
        """Every event after ``after`` as it comes (``GET …/stream``, Server-Sent Events, on a connection of its
        own), until the tournament ends: see :class:`~tienlen_client.tournaments.TournamentStream`."""
        return TournamentStream(
            self.endpoint, tournament_id, after, read_timeout=read_timeout, give_up_after=give_up_after
        )
