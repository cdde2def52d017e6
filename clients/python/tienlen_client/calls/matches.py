"""The match calls: create a match, join one, read it, its events (a page or a stream), its replay, its
review and its fair deal checked; the presets and the server's health."""

from __future__ import annotations

import time
import urllib.parse
from typing import Any

from ..fair_deal import FairDealCheck, verify_replay
from ..seat import key_header
from ..stream import EventStream
from .base import BaseClient
from .bodies import join_body, with_entropy

__all__ = ["MatchCalls"]


class MatchCalls(BaseClient):
    """``/v1/matches``, ``/v1/rules`` and ``/healthz``."""

    def create_match(
        self,
        seats: list[dict[str, Any]],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: list[list[str]] | None = None,
        *,
        key: str | None = None,
        token: str | None = None,
        entropy: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """``POST /v1/matches`` → 201 ``{match_id, tokens, match}``.

        ``options`` adds other fields of the body (``clock``, ``takeover``,
        ``listed``). Without ``seed`` or ``deal`` the match is dealt fairly
        (docs/fair-deals.md): each remote seat of ``seats`` that names no
        ``entropy`` of its own is sent ``entropy`` (None: a fresh random one
        per seat; "": none). With an account's ``token`` (scope ``play``) the account
        hosts the match and holds its first remote seat (``{"name": …}``; the
        seat takes the account's name), and that token acts for the seat
        (:meth:`seat`). A match with open seats gets a ``room_code``; hosting
        one takes an account's token unless the server allows anonymous
        hosting (else 401 ``account_required``). Safe to retry: it carries one ``Idempotency-Key`` (``key``,
        else a fresh one) on every attempt, and the server answers a retry with
        the same key and body (from the same address, within 24 h) with the
        same ``match_id`` and tokens, making no second match (404 if that match
        was cancelled since). The entropy is drawn once per call, so every
        attempt sends the same body; to send a call again yourself with the
        same ``key``, give it the same ``entropy`` too.
        """
        if seed is None and deal is None:
            seats = [with_entropy(seat, entropy) for seat in seats]
        body: dict[str, Any] = {"seats": seats, **options}
        if rules is not None:
            body["rules"] = rules
        if seed is not None:
            body["seed"] = seed
        if deal is not None:
            body["deal"] = deal
        return dict(self.request("POST", "/v1/matches", body, token=token, headers=key_header(key), expect=201))

    def join(
        self,
        match_id: str,
        name: str | None = None,
        *,
        key: str | None = None,
        token: str | None = None,
        entropy: str | None = None,
    ) -> dict[str, Any]:
        """``POST /v1/matches/{id}/join`` → 201 ``{seat, token}`` (409 ``match_full``).

        Without a ``token`` the seat needs a ``name``. The seat adds ``entropy``
        to the match's fair deal (None: a fresh random one; "": none). With an account's
        ``token`` (scope ``play``) the seat is the account's, under its name
        (``name`` is not needed), and that token acts for it too; an account
        holds one seat of a match (409 ``already_seated``).

        Safe to retry: it carries one ``Idempotency-Key`` on every attempt, and
        the server answers a retry with the same key and body (from the same
        address, within 24 h) with the same seat and token, taking no second seat
        (the entropy is drawn once per call: a call of your own sent again with
        the same ``key`` needs the same ``entropy``).
        """
        path = f"/v1/matches/{match_id}/join"
        body = join_body(name, entropy)
        return dict(self.request("POST", path, body, token=token, headers=key_header(key), expect=201))

    def match(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}``: the public state (a read: always safe to retry)."""
        return dict(self.request("GET", f"/v1/matches/{match_id}", expect=200))

    def replay(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}/replay``: a finished match's ``tienlen-replay/1`` document (409
        ``match_not_finished`` before its end); :func:`~tienlen_client.fair_deal.verify_replay` checks its deal."""
        return dict(self.request("GET", f"/v1/matches/{match_id}/replay", expect=200))

    def review(self, match_id: str, wait: bool = True, timeout: float = 300.0, poll: float = 1.0) -> dict[str, Any]:
        """``GET /v1/matches/{id}/review``: a finished match's review (``status`` ``done``: every decision of every
        seat graded, with the best action). The first call queues it (202: ``status`` ``pending`` or ``running``
        with ``progress``); with ``wait`` this asks again every ``poll`` seconds until it is done or ``timeout``
        seconds passed (then it answers the last progress). 409 ``match_not_finished`` before the end."""
        deadline = time.monotonic() + timeout
        while True:
            found = dict(self.request("GET", f"/v1/matches/{match_id}/review"))
            if found.get("status") == "done" or not wait or time.monotonic() + poll > deadline:
                return found
            time.sleep(poll)

    def verify_deal(self, match_id: str) -> FairDealCheck:
        """Fetch a finished match's replay and check its fair deal: the secret against the commitment, and
        every hand's deal recomputed here (:func:`~tienlen_client.fair_deal.verify_replay`); ``verified`` is
        False, with the ``problem``, for a match whose deal was fixed by its creator (no ``fair_deal``)."""
        return verify_replay(self.replay(match_id))

    def events(self, match_id: str, after: int = 0, wait: float = 0, token: str | None = None) -> dict[str, Any]:
        """Events after ``after``, waiting up to ``wait`` seconds for one (a long poll, at most 30).

        With a seat's ``token`` (or a token of the account seated there) the
        seats' chat room (``chat_said`` of room ``table``) comes too, and an
        account's muted and blocked accounts' messages are left out (see
        :mod:`tienlen_client.chat`). A read: retried after a failed connection
        and a 503 (``too_many_waiters`` after its ``Retry-After``).
        """
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return dict(self.request("GET", f"/v1/matches/{match_id}/events?{query}", token=token, expect=200))

    def follow(
        self,
        match_id: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = 120.0,
    ) -> EventStream:
        """Every event after ``after`` as it happens, until the match ends: see :class:`EventStream`.

        The stream has a connection of its own (this client's stays free for
        calls); ``read_timeout`` is how long it may stay silent (the server
        sends a heartbeat every 15 s by default) before it counts as dropped.
        """
        return EventStream(self.endpoint, match_id, after, read_timeout=read_timeout, give_up_after=give_up_after)

    def rules(self) -> dict[str, Any]:
        """The presets."""
        return dict(self.request("GET", "/v1/rules", expect=200))

    def health(self) -> dict[str, Any]:
        """``GET /healthz`` → ``{"status": "ok"}`` (an :class:`ApiError` 503 when Redis does not answer after
        the retries)."""
        return dict(self.request("GET", "/healthz", expect=200))
