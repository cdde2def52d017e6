"""The calls of the API v1: :class:`Client` (no token, or an account's) and :class:`Seat` (one seat's token).

Retries (see :class:`~tienlen_client.transport.Transport`): every read may be
sent again, since it changes nothing. Every write carries an
``Idempotency-Key``, a fresh one per call, the same on each of its attempts;
each write's docstring says whether the server honours it there, and so
whether sending the write again is safe.
"""

from __future__ import annotations

import ssl
import time
import urllib.parse
from collections.abc import Callable
from types import TracebackType
from typing import Any, cast

from .accounts import Account, IssuedToken, PersonalToken, Registered, Scope, Session
from .stream import EventStream
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
    ) -> Any:
        """Send one call (retried as the transport's policy says) and answer its JSON body.

        Raises:
            ApiError: when the status is not ``expect`` (or, without ``expect``, is 400 or more).
            ValueError: when an expected answer is not JSON.
            ConnectionFailed: when no attempt got an answer.
        """
        response, attempts = self.transport.send(method, path, body, token=token, headers=headers)
        refused = response.status >= 400 if expect is None else response.status != expect
        if refused:
            raise ApiError(response.status, error_body(response), f"{method} {path}", attempts)
        return response.json()

    def close(self) -> None:
        """Close the connection (the next call opens a new one)."""
        self.transport.close()

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
        **options: Any,
    ) -> dict[str, Any]:
        """``POST /v1/matches`` → 201 ``{match_id, tokens, match}``.

        ``options`` adds other fields of the body (``clock``, ``takeover``,
        ``listed``). Safe to retry: it carries one ``Idempotency-Key`` (``key``,
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
        return dict(self.request("POST", "/v1/matches", body, headers=_key(key), expect=201))

    def join(self, match_id: str, name: str, *, key: str | None = None) -> dict[str, Any]:
        """``POST /v1/matches/{id}/join`` → 201 ``{seat, token}`` (409 ``match_full``).

        Safe to retry: it carries one ``Idempotency-Key`` on every attempt, and
        the server answers a retry with the same key and body (from the same
        address, within 24 h) with the same seat and token, taking no second seat.
        """
        path = f"/v1/matches/{match_id}/join"
        return dict(self.request("POST", path, {"name": name}, headers=_key(key), expect=201))

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
        """Calls made with one seat's token."""
        return Seat(self, match_id, token)


class Seat:
    """One seat of one match, authenticated by its token."""

    def __init__(self, client: Client, match_id: str, token: str) -> None:
        """A seat of ``match_id`` whose calls go through ``client`` with ``token``."""
        self.client = client
        self.match_id = match_id
        self.token = token

    def _call(self, method: str, tail: str, body: Any = None, key: str | None = None, expect: int = 200) -> Any:
        return self.client.request(
            method, f"/v1/matches/{self.match_id}{tail}", body, token=self.token, headers=_key(key), expect=expect
        )

    def view(self) -> dict[str, Any]:
        """The seat's view (public state plus its own cards)."""
        return dict(self._call("GET", "/view"))

    def legal(self) -> dict[str, Any]:
        """``{can_pass, plays}``."""
        return dict(self._call("GET", "/legal"))

    def hint(self) -> dict[str, Any]:
        """``{action, explanation}``."""
        return dict(self._call("GET", "/hint"))

    def play(self, cards: list[str], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Play cards; answers the view after every bot reply (see :meth:`act` for retries)."""
        return self.act({"type": "play", "cards": cards}, version, key)

    def pass_turn(self, version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """Pass (see :meth:`act` for retries)."""
        return self.act({"type": "pass"}, version, key)

    def act(self, action: dict[str, Any], version: int | None = None, key: str | None = None) -> dict[str, Any]:
        """``POST …/actions`` with an optional ``version``; answers the seat's view after every bot reply.

        Safe to retry: the server keeps the answer under the ``Idempotency-Key``
        (``key``, else a fresh one for this call) for 24 h and answers a retry
        with it, applying nothing again, also after a 503 ``outcome_unknown``.
        """
        body = dict(action)
        if version is not None:
            body["version"] = version
        return dict(self._call("POST", "/actions", body, key))

    def leave(self, *, key: str | None = None) -> dict[str, Any]:
        """``POST …/leave`` → the public match: the seat opens again (waiting) or a bot takes it over.

        Retried, but the server keeps no answer for it (the ``Idempotency-Key``
        it carries, as every write does, is ignored): leaving twice changes
        nothing more, yet the seat's token stops working once it has left, so a
        retry after an attempt that was applied (e.g. one answered 503
        ``outcome_unknown``) answers 401 ``invalid_token``; when
        :attr:`ApiError.attempts` > 1, read the match to tell.
        """
        return dict(self._call("POST", "/leave", key=key))

    def rematch(self, *, key: str | None = None) -> dict[str, Any]:
        """``POST …/rematch`` → 201 ``{match_id, seat, token}`` in the next match (409 ``match_not_finished``).

        Safe to retry: the same seat's call again answers the same seat and token.
        """
        return dict(self._call("POST", "/rematch", key=key, expect=201))

    def cancel(self, *, key: str | None = None) -> None:
        """``DELETE /v1/matches/{id}`` → 204: cancel a match still waiting for seats (409 ``match_not_waiting``).

        Retried, but the server keeps no answer for it (the ``Idempotency-Key``
        it carries is ignored): a cancelled match is gone, so a retry after an
        attempt that was applied answers 404 ``match_not_found``; when
        :attr:`ApiError.attempts` > 1, that most likely means the match was
        cancelled by this call.
        """
        self._call("DELETE", "", key=key, expect=204)


def _key(key: str | None) -> dict[str, str] | None:
    """The ``Idempotency-Key`` header for a given key (None: the transport makes a fresh one)."""
    return {"Idempotency-Key": key} if key else None
