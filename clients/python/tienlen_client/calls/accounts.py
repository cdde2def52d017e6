"""The account calls: make an account, log in and out, the account itself, its personal tokens and its
settings (which challenges it takes)."""

from __future__ import annotations

import urllib.parse
from typing import cast

from ..accounts import Account, IssuedToken, PersonalToken, Registered, Scope, Session
from ..inbox import MySettings
from .base import BaseClient

__all__ = ["AccountCalls"]


class AccountCalls(BaseClient):
    """``/v1/accounts``, ``/v1/sessions`` and ``/v1/me`` (its tokens and settings)."""

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

    def my_settings(self, token: str) -> MySettings:
        """``GET /v1/me/settings``: whether the account takes rated challenges and casual ones, and whether it hears
        ``friend_started`` of the accounts it follows."""
        return cast(MySettings, self.request("GET", "/v1/me/settings", token=token, expect=200))

    def set_my_settings(
        self, token: str, rated: bool | None = None, casual: bool | None = None, friends: bool | None = None
    ) -> MySettings:
        """``PUT /v1/me/settings``: change which challenges the account takes and whether it hears of its friends'
        matches (None: unchanged); the settings now.

        Needs the ``account`` scope (a session's token has it). Safe to retry: it sets values.
        """
        sent = (("rated", rated), ("casual", casual), ("friends", friends))
        body = {name: value for name, value in sent if value is not None}
        return cast(MySettings, self.request("PUT", "/v1/me/settings", body, token=token, expect=200))
