"""The calls of the API v1: :class:`Client` (no token, or an account's) and :class:`~.seat.Seat` (a seat's token,
or the token of the account that holds the seat).

Retries (see :class:`~tienlen_client.transport.Transport`): every read may be
sent again, since it changes nothing. Every write carries an
``Idempotency-Key``, a fresh one per call, the same on each of its attempts;
each write's docstring says whether the server honours it there, and so
whether sending the write again is safe.
"""

from __future__ import annotations

import datetime
import ssl
import time
import urllib.parse
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, cast

from .accounts import Account, IssuedToken, PersonalToken, Registered, Scope, Session
from .challenges import Challenge
from .history import Export, KeptMatch, KeptPage, Player
from .inbox import ChallengeSettings, InboxPage, OnlineBot
from .queue import Ticket
from .ratings import Leaderboard
from .rooms import Room, RoomSeat
from .seat import Seat, key_header
from .stream import EventStream, InboxStream
from .transport import NO_RETRY, ApiError, Endpoint, Response, RetryPolicy, Transport, error_body

__all__ = ["Client", "Seat"]


class Client:
    """Calls that need no seat token, over one kept-alive HTTP connection.

    ``base_url`` is ``http://host[:port]`` or ``https://host[:port]``, with an
    optional path prefix (``https://cards.example/tienlen`` calls
    ``/tienlen/v1/...``). ``timeout`` is how long any one read may wait;
    ``retry`` how calls are retried (:class:`~tienlen_client.transport.RetryPolicy`);
    ``ssl_context`` checks an ``https`` server's certificate (default: the
    system's authorities). Not thread-safe: give each thread its own.
    """

    def __init__(
        self,
        base_url: str,
        timeout: float = 40.0,
        *,
        retry: RetryPolicy | None = None,
        ssl_context: ssl.SSLContext | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """Remember the server's address; the connection opens on the first call.

        Raises:
            ValueError: when ``base_url`` is not an ``http``/``https`` URL.
        """
        self.endpoint = Endpoint.parse(base_url, ssl_context)
        self.transport = Transport(self.endpoint, timeout, retry, sleep)

    @property
    def base_url(self) -> str:
        """The server's base URL, written out in full (scheme, host, port, prefix)."""
        return self.endpoint.url

    # ------------------------------------------------------------------ transport

    def send(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Response:
        """Send one request once and answer its status, raw body and headers, whatever the status.

        ``path`` is the API path (``/v1/...``; the base URL's prefix is put in
        front); ``body`` is sent as JSON; ``token`` as ``Authorization: Bearer``.
        A write gets an ``Idempotency-Key`` unless ``headers`` has one. Nothing
        is retried (but a kept-alive connection the server closed meanwhile).

        Raises:
            ConnectionFailed: when the connection fails.
        """
        response, _ = self.transport.send(method, path, body, token=token, headers=headers, retry=NO_RETRY)
        return response

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        expect: int | None = None,
        once: bool = False,
    ) -> Any:
        """Send one call (retried as the transport's policy says, or ``once``: never) and answer its JSON body.

        Raises:
            ApiError: when the status is not ``expect`` (or, without ``expect``, is 400 or more).
            ValueError: when an expected answer is not JSON.
            ConnectionFailed: when no attempt got an answer.
        """
        retry = NO_RETRY if once else None
        response, attempts = self.transport.send(method, path, body, token=token, headers=headers, retry=retry)
        refused = response.status >= 400 if expect is None else response.status != expect
        if refused:
            raise ApiError(response.status, error_body(response), f"{method} {path}", attempts)
        return response.json()

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        self.transport.close()

    def interrupt(self) -> None:
        """Cut the connection a call of another thread is blocked on (e.g. a long poll): that call raises
        :class:`ConnectionFailed` at once, without a retry (safe from any thread)."""
        self.transport.interrupt()

    def __enter__(self) -> Client:
        """The client itself; the connection is closed at the end of the ``with``."""
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the connection."""
        self.close()

    # ------------------------------------------------------------------ calls

    def create_match(
        self,
        seats: list[dict[str, Any]],
        rules: dict[str, Any] | None = None,
        seed: int | None = None,
        deal: list[list[str]] | None = None,
        *,
        key: str | None = None,
        token: str | None = None,
        **options: Any,
    ) -> dict[str, Any]:
        """``POST /v1/matches`` → 201 ``{match_id, tokens, match}``.

        ``options`` adds other fields of the body (``clock``, ``takeover``,
        ``listed``). With an account's ``token`` (scope ``play``) the account
        hosts the match and holds its first remote seat (``{"name": …}``; the
        seat takes the account's name), and that token acts for the seat
        (:meth:`seat`). A match with open seats gets a ``room_code``; hosting
        one takes an account's token unless the server allows anonymous
        hosting (else 401 ``account_required``). Safe to retry: it carries one ``Idempotency-Key`` (``key``,
        else a fresh one) on every attempt, and the server answers a retry with
        the same key and body (from the same address, within 24 h) with the
        same ``match_id`` and tokens, making no second match (404 if that match
        was cancelled since).
        """
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

        Without a ``token`` the seat needs a ``name``. With an account's
        ``token`` (scope ``play``) the seat is the account's, under its name
        (``name`` is not needed), and that token acts for it too; an account
        holds one seat of a match (409 ``already_seated``). ``entropy`` (0 to 64
        printable ASCII characters) is the seat's part of the match's fair deal.

        Safe to retry: it carries one ``Idempotency-Key`` on every attempt, and
        the server answers a retry with the same key and body (from the same
        address, within 24 h) with the same seat and token, taking no second seat.
        """
        path = f"/v1/matches/{match_id}/join"
        body = _join_body(name, entropy)
        return dict(self.request("POST", path, body, token=token, headers=key_header(key), expect=201))

    def match(self, match_id: str) -> dict[str, Any]:
        """``GET /v1/matches/{id}``: the public state (a read: always safe to retry)."""
        return dict(self.request("GET", f"/v1/matches/{match_id}", expect=200))

    def events(self, match_id: str, after: int = 0, wait: float = 0) -> dict[str, Any]:
        """Events after ``after``, waiting up to ``wait`` seconds for one (a long poll, at most 30).

        A read: retried after a failed connection and a 503 (``too_many_waiters``
        after its ``Retry-After``).
        """
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return dict(self.request("GET", f"/v1/matches/{match_id}/events?{query}", expect=200))

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

    # ------------------------------------------------------------------ accounts

    def create_account(self, name: str, password: str, kind: str = "human") -> Registered:
        """``POST /v1/accounts`` → 201 the account and a session token (409 ``name_taken``).

        ``kind`` is ``human`` or ``bot``. A retry after an attempt that was
        applied answers 409 ``name_taken``: when :attr:`ApiError.attempts` > 1,
        try :meth:`login`.
        """
        body = {"name": name, "password": password, "kind": kind}
        return cast(Registered, self.request("POST", "/v1/accounts", body, expect=201))

    def login(self, name: str, password: str) -> Session:
        """``POST /v1/sessions`` → 201 a session token (401 ``invalid_credentials``, 429 ``rate_limited``)."""
        body = {"name": name, "password": password}
        return cast(Session, self.request("POST", "/v1/sessions", body, expect=201))

    def logout(self, token: str) -> None:
        """``DELETE /v1/sessions/current`` → 204: the session ``token`` stops working."""
        self.request("DELETE", "/v1/sessions/current", token=token, expect=204)

    def me(self, token: str) -> Account:
        """``GET /v1/me``: the account an account's ``token`` (a session's or a personal one) acts for."""
        return cast(Account, self.request("GET", "/v1/me", token=token, expect=200))

    def delete_account(self, token: str, password: str) -> None:
        """``DELETE /v1/me`` → 204: erase the account's password and every token (its name stays closed)."""
        self.request("DELETE", "/v1/me", {"password": password}, token=token, expect=204)

    def create_token(self, token: str, label: str, scopes: list[Scope]) -> IssuedToken:
        """``POST /v1/me/tokens`` → 201 a personal API token; its secret (``token``) is shown only here."""
        body = {"label": label, "scopes": list(scopes)}
        return cast(IssuedToken, self.request("POST", "/v1/me/tokens", body, token=token, expect=201))

    def tokens(self, token: str) -> list[PersonalToken]:
        """``GET /v1/me/tokens``: the account's personal tokens, oldest first, without their secrets."""
        return cast(list[PersonalToken], self.request("GET", "/v1/me/tokens", token=token, expect=200))

    def revoke_token(self, token: str, token_id: str) -> None:
        """``DELETE /v1/me/tokens/{id}`` → 204: that personal token stops working at once (404 ``token_not_found``)."""
        self.request("DELETE", f"/v1/me/tokens/{urllib.parse.quote(token_id, safe='')}", token=token, expect=204)

    def seat(self, match_id: str, token: str) -> Seat:
        """Calls made for one seat: with its token, or with a token of the account that holds it."""
        return Seat(self, match_id, token)

    # ------------------------------------------------------------------ rooms

    def room(self, code: str) -> Room:
        """``GET /v1/rooms/{code}``: the match a room code names (any case; 404 ``room_not_found``).

        422 ``invalid_request`` for text that cannot be a code. Lookups of
        unknown codes are counted per address: past 20 in 10 minutes the
        server answers 429 ``rate_limited`` with a ``Retry-After`` longer than
        the client waits, so it is raised.
        """
        return cast(Room, self.request("GET", f"/v1/rooms/{_segment(code)}", expect=200))

    def join_room(
        self,
        code: str,
        name: str | None = None,
        *,
        key: str | None = None,
        token: str | None = None,
        entropy: str | None = None,
    ) -> RoomSeat:
        """``POST /v1/rooms/{code}/join`` → 201 the match's id, the seat and its token.

        As :meth:`join` (``name`` without a token; with an account's ``token``
        the seat is the account's, and 409 ``already_seated`` when it holds one
        there already); 404 ``room_not_found``, 409 ``match_full``. Safe to
        retry, as :meth:`join` is.
        """
        body = _join_body(name, entropy)
        path = f"/v1/rooms/{_segment(code)}/join"
        return cast(RoomSeat, self.request("POST", path, body, token=token, headers=key_header(key), expect=201))

    # ------------------------------------------------------------------ history

    def player(self, name: str) -> Player:
        """``GET /v1/players/{name}``: an account's profile (name in any case; 404 ``player_not_found``)."""
        return cast(Player, self.request("GET", f"/v1/players/{_segment(name)}", expect=200))

    def player_matches(self, name: str, cursor: str | None = None, limit: int = 20) -> KeptPage:
        """``GET /v1/players/{name}/matches``: one page of the matches the player sat in, newest first.

        ``limit`` is 1 to 100 (else 422 ``invalid_request``); pass a page's
        ``next_cursor`` as ``cursor`` for the next one: a cursor names a
        position, so no match is skipped or repeated while new ones end.
        """
        query: dict[str, str | int] = {"limit": limit}
        if cursor is not None:
            query["cursor"] = cursor
        path = f"/v1/players/{_segment(name)}/matches?{urllib.parse.urlencode(query)}"
        return cast(KeptPage, self.request("GET", path, expect=200))

    def all_player_matches(self, name: str, page_size: int = 100) -> Iterator[KeptMatch]:
        """Every match the player sat in, newest first, asking for one page (``page_size``) at a time.

        Nothing is asked before the first match is; each page is a read of its own, retried as reads are.
        """
        cursor: str | None = None
        while True:
            page = self.player_matches(name, cursor, page_size)
            yield from page["matches"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def challenge(
        self,
        token: str,
        to: list[str],
        players: int = 2,
        *,
        preset: str | None = None,
        rated: bool = False,
        **options: Any,
    ) -> Challenge:
        """``POST /v1/challenges`` → 201 :class:`~.challenges.Challenge`: challenge accounts and house bots.

        ``to`` names the players of seats 1, 2, …; the last fills the seats
        left (a house bot then: an account holds one seat). The account of
        ``token`` (scope ``play``) sits at seat 0. The house bots (``easy``,
        ``medium``, ``hard``) accept at once: a challenge of house bots alone
        answers ``status`` ``started`` with ``match_id``, ``match`` (dealt) and
        the challenger's seat token in ``tokens`` (the account's token acts for
        the seat too: :meth:`seat`). A challenge of accounts is ``pending``
        until each accepts (:meth:`accept_challenge`); each must be online
        (listening to its events) and take the kind (rated or casual), else
        :class:`ApiError` ``player_offline`` or ``challenge_refused``. With
        ``rated`` the match moves every rating in it when it ends.
        ``options`` adds other fields (``takeover``).

        Sent once, never retried: the server keeps no answer to give a retry,
        so a lost answer might have made a challenge (and, of house bots, a
        match: look for it in the account's :meth:`player_matches` once it ends).
        """
        body: dict[str, Any] = {"to": to, "players": players, "rated": rated, **options}
        if preset is not None:
            body["preset"] = preset
        return cast(Challenge, self.request("POST", "/v1/challenges", body, token=token, expect=201, once=True))

    def challenge_status(self, token: str, challenge_id: str) -> Challenge:
        """``GET /v1/challenges/{id}`` → the challenge, for its sender or a challenged account (else 404)."""
        path = f"/v1/challenges/{_segment(challenge_id)}"
        return cast(Challenge, self.request("GET", path, token=token, expect=200))

    def accept_challenge(self, token: str, challenge_id: str) -> Challenge:
        """``POST /v1/challenges/{id}/accept`` → the challenge; ``started``, with its match, once all accepted.

        Safe to send again: an accept sent again answers the challenge as it
        is, also once the match started. The account's ``token`` then acts for
        its seat (:meth:`seat` with ``match_id``). Refusals: ``not_challenged``
        (403), ``challenge_expired`` (410), ``challenge_closed`` (409).
        """
        path = f"/v1/challenges/{_segment(challenge_id)}/accept"
        return cast(Challenge, self.request("POST", path, token=token, expect=200))

    def decline_challenge(self, token: str, challenge_id: str) -> Challenge:
        """``POST /v1/challenges/{id}/decline`` → the challenge, ``declined``; the others hear of it.

        Sent once, never retried: declining again answers 409 ``challenge_closed``.
        """
        path = f"/v1/challenges/{_segment(challenge_id)}/decline"
        return cast(Challenge, self.request("POST", path, token=token, expect=200, once=True))

    def withdraw_challenge(self, token: str, challenge_id: str) -> None:
        """``DELETE /v1/challenges/{id}`` → 204: its sender withdraws a pending challenge; the challenged hear.

        Sent once, never retried: withdrawing again answers 409 ``challenge_closed``.
        """
        self.request("DELETE", f"/v1/challenges/{_segment(challenge_id)}", token=token, expect=204, once=True)

    def leaderboard(
        self, players: int = 4, kind: str = "human", cursor: str | None = None, limit: int = 20
    ) -> Leaderboard:
        """``GET /v1/leaderboard``: one page of the ratings at ``players`` seats of ``kind`` accounts, best first.

        Pass a page's ``next_cursor`` as ``cursor`` for the next one.
        """
        query: dict[str, str | int] = {"players": players, "kind": kind, "limit": limit}
        if cursor is not None:
            query["cursor"] = cursor
        return cast(Leaderboard, self.request("GET", f"/v1/leaderboard?{urllib.parse.urlencode(query)}", expect=200))

    def export(
        self, name: str, since: datetime.datetime | str | None = None, until: datetime.datetime | str | None = None
    ) -> Export:
        """``GET /v1/players/{name}/matches/export``: the player's replays, one at a time (see :class:`Export`).

        Each is a ``tienlen-replay/1`` document with ``match_id`` and
        ``ended_at``, newest first; ``since`` <= ``ended_at`` < ``until``
        (RFC 3339 text, or datetimes with a time zone). The answer is read
        line by line on a connection of its own as the items are asked for.

        Raises:
            ValueError: for a datetime without a time zone.
        """
        query = {key: _instant(value) for key, value in (("since", since), ("until", until)) if value is not None}
        path = f"/v1/players/{_segment(name)}/matches/export"
        if query:
            path += "?" + urllib.parse.urlencode(query)
        transport = self.transport
        return Export(self.endpoint, path, timeout=transport.timeout, retry=transport.retry, sleep=transport.sleep)

    # ------------------------------------------------------------------ one connection for a bot, quick play

    def my_events(self, token: str, after: int = 0, wait: float = 0) -> InboxPage:
        """``GET /v1/me/events``: the account's inbox events with ``seq`` > ``after`` (at most 500), oldest first.

        With ``wait`` (seconds, up to 30) and nothing new, the answer comes as
        soon as an event does (a long poll). Pass the answer's ``last_seq`` as
        the next ``after`` to miss nothing. Listening makes the account
        *online* for a minute. Scope ``play``; a read, retried.
        """
        query = urllib.parse.urlencode({"after": after, "wait": wait})
        return cast(InboxPage, self.request("GET", f"/v1/me/events?{query}", token=token, expect=200))

    def follow_my_events(
        self,
        token: str,
        after: int = 0,
        *,
        read_timeout: float = 45.0,
        give_up_after: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> InboxStream:
        """The account's inbox events after ``after`` as they come (``GET /v1/me/events/stream``), for as long
        as it is iterated: see :class:`~tienlen_client.stream.InboxStream`.

        It reconnects with ``Last-Event-ID`` by itself (after a growing pause
        with jitter, ``sleep`` making it), giving up after ``give_up_after``
        seconds without a connection (None: never); the stream has a connection
        of its own. The events are :class:`~tienlen_client.inbox.InboxEvent`.
        """
        return InboxStream(
            self.endpoint, token, after, read_timeout=read_timeout, give_up_after=give_up_after, sleep=sleep
        )

    def my_settings(self, token: str) -> ChallengeSettings:
        """``GET /v1/me/settings``: whether the account takes rated challenges and casual ones."""
        return cast(ChallengeSettings, self.request("GET", "/v1/me/settings", token=token, expect=200))

    def set_my_settings(self, token: str, rated: bool | None = None, casual: bool | None = None) -> ChallengeSettings:
        """``PUT /v1/me/settings``: change which challenges the account takes (None: unchanged); the settings now.

        Needs the ``account`` scope (a session's token has it). Safe to retry: it sets values.
        """
        body = {name: value for name, value in (("rated", rated), ("casual", casual)) if value is not None}
        return cast(ChallengeSettings, self.request("PUT", "/v1/me/settings", body, token=token, expect=200))

    def bots(self) -> list[OnlineBot]:
        """``GET /v1/bots``: the bot accounts online (listening to their inbox in the last minute), latest first."""
        return cast(list[OnlineBot], self.request("GET", "/v1/bots", expect=200)["bots"])

    def enqueue(self, token: str, players: int = 4, preset: str | None = None, rated: bool = True) -> Ticket:
        """``POST /v1/queue`` → 202 a quick-play ticket for a table of ``players`` (scope ``play``).

        When it is matched the account hears ``queue_matched`` then
        ``match_started`` on its inbox (or :meth:`ticket` says so), and its
        token acts for the seat. 409 ``already_queued`` when the account holds
        a ticket already: also the answer to a retry whose first attempt was
        applied (:attr:`ApiError.attempts` > 1).
        """
        body: dict[str, Any] = {"players": players, "rated": rated}
        if preset is not None:
            body["preset"] = preset
        return cast(Ticket, self.request("POST", "/v1/queue", body, token=token, expect=202))

    def my_ticket(self, token: str) -> Ticket:
        """``GET /v1/queue``: the account's open ticket, from whichever client took it (the one a 409
        ``already_queued`` is about); 404 ``ticket_not_found`` when it holds none. A read, retried."""
        return cast(Ticket, self.request("GET", "/v1/queue", token=token, expect=200))

    def ticket(self, token: str, ticket: str, wait: float = 0) -> Ticket:
        """``GET /v1/queue/{ticket}``: the ticket now; with ``wait`` (up to 30 s) as soon as it is matched.

        404 ``ticket_not_found`` for another account's or an unknown ticket. A read, retried.
        """
        path = f"/v1/queue/{_segment(ticket)}?{urllib.parse.urlencode({'wait': wait})}"
        return cast(Ticket, self.request("GET", path, token=token, expect=200))

    def leave_queue(self, token: str, ticket: str) -> None:
        """``DELETE /v1/queue/{ticket}`` → 204: give the ticket up (409 ``already_matched`` once it found a table).

        Retried as every write is: a refusal after more than one attempt
        (:attr:`ApiError.attempts` > 1) may mean an earlier one was applied.
        """
        self.request("DELETE", f"/v1/queue/{_segment(ticket)}", token=token, expect=204)


def _join_body(name: str | None, entropy: str | None) -> dict[str, str]:
    """The body of a join: the seat's name and fair-deal entropy, each when given."""
    body = {} if name is None else {"name": name}
    if entropy is not None:
        body["entropy"] = entropy
    return body


def _segment(text: str) -> str:
    """``text`` as one segment of a path (a name or a code, quoted)."""
    return urllib.parse.quote(text, safe="")


def _instant(value: datetime.datetime | str) -> str:
    """An RFC 3339 date-time: text as it is, a datetime with its offset.

    Raises:
        ValueError: for a datetime without a time zone.
    """
    if isinstance(value, str):
        return value
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"give the time zone of {value.isoformat()} (e.g. datetime.UTC)")
    return value.isoformat()
