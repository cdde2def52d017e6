"""Accounts for the client tests: a new account on a live server and a personal token of it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from tienlen_client import Client, Scope

__all__ = ["PASSWORD", "Member", "new_member"]

PASSWORD = "a long enough password"


@dataclass(frozen=True)
class Member:
    """An account: its ``name``, a ``session`` token and a personal ``token`` with the scopes asked for."""

    name: str
    session: str
    token: str


def new_member(client: Client, scopes: list[Scope] | None = None, kind: str = "bot") -> Member:
    """A new account (a fresh name) and a personal token with ``scopes`` (default: ``play``)."""
    name = "c" + secrets.token_hex(6)
    session = client.create_account(name, PASSWORD, kind=kind)["token"]
    token = client.create_token(session, "a bot", scopes if scopes is not None else ["play"])["token"]
    return Member(name, session, token)
