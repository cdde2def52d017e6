"""The answers of the account calls, as typed dictionaries (their JSON as it comes: times are RFC 3339 text)."""

from __future__ import annotations

from typing import Literal, TypedDict

__all__ = ["Account", "IssuedToken", "PersonalToken", "Registered", "Scope", "Session"]

Scope = Literal["play", "account"]


class Account(TypedDict):
    """An account: ``GET /v1/me``."""

    name: str
    kind: Literal["human", "bot"]
    created_at: str


class Session(TypedDict):
    """A session token (keep it secret) and when it stops working: ``POST /v1/sessions``."""

    token: str
    expires_at: str


class Registered(Session):
    """A new account and its first session: ``POST /v1/accounts``."""

    account: Account


class PersonalToken(TypedDict):
    """A personal API token as listed, without its secret: ``GET /v1/me/tokens``."""

    id: str
    label: str
    scopes: list[Scope]
    created_at: str


class IssuedToken(PersonalToken):
    """A new personal API token with its secret, shown only once: ``POST /v1/me/tokens``."""

    token: str
