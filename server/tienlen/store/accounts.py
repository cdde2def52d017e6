"""What an account store is: accounts, their sessions and personal tokens, and counts of failed attempts.

The service is written against :class:`AccountStore`; :mod:`.redis_accounts`
keeps them in Redis. Names are compared folded (:func:`fold_name`), and a key
holds a name only as its digest (:func:`name_digest`).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field
from typing import Protocol


def fold_name(name: str) -> str:
    """A name as names are compared: NFKC-normalised, then case-folded (``ＡＮＮ``, ``Ann`` and ``ann`` are one).

    For the names an account may take (ASCII letters, digits, ``_``, ``-``) it
    is the lower-case name, as the index always used: keys made before stay.
    """
    return unicodedata.normalize("NFKC", name).casefold()


def name_digest(name: str) -> str:
    """A folded name as a digest: what keys hold in its place (a deleted account's name is spelt nowhere)."""
    return hashlib.sha256(fold_name(name).encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """An account as stored: its id, name as chosen, kind, creation time and password hash."""

    account_id: str
    name: str
    kind: str
    created_at: float
    password_hash: str = field(repr=False)  # never in a repr: a repr may end up in a log


@dataclass(frozen=True, slots=True)
class Grant:
    """What a token may do: act for an account with ``scopes``; ``token_id`` is None for a session."""

    account_id: str
    token_id: str | None
    scopes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """A personal token as listed (its digest kept to revoke it)."""

    token_id: str
    label: str
    scopes: tuple[str, ...]
    created_at: float
    digest: str = field(repr=False)


class AccountStore(Protocol):
    """Accounts, their sessions and personal tokens, and counts of failed logins."""

    def create(self, record: AccountRecord) -> bool:
        """Write a new account and claim its name; False (nothing kept) when the name is taken."""
        ...

    def find(self, name: str) -> AccountRecord | None:
        """The account of ``name`` (any case), or None."""
        ...

    def get(self, account_id: str) -> AccountRecord | None:
        """The account ``account_id``, or None."""
        ...

    def grant(self, digest: str) -> Grant | None:
        """What the token of ``digest`` may do, or None (unknown, revoked or expired)."""
        ...

    def add_session(self, account_id: str, digest: str, ttl_s: int) -> None:
        """Keep a session token's digest for ``ttl_s`` seconds."""
        ...

    def drop_session(self, account_id: str, digest: str) -> None:
        """Revoke a session."""
        ...

    def add_token(self, account_id: str, token: TokenRecord, most: int) -> bool:
        """Keep a personal token (no lifetime), unless the account holds ``most`` already: then False, nothing kept."""
        ...

    def tokens(self, account_id: str) -> list[TokenRecord]:
        """The account's personal tokens, oldest first."""
        ...

    def drop_token(self, account_id: str, token_id: str) -> bool:
        """Revoke a personal token; False when the account has none of that id."""
        ...

    def erase(self, record: AccountRecord) -> None:
        """Delete the account's credentials and every token; its name stays closed."""
        ...

    def challenge_settings(self, account_id: str) -> tuple[bool, bool]:
        """Whether the account takes rated challenges, and casual ones (both by default)."""
        ...

    def set_challenge_settings(self, account_id: str, rated: bool, casual: bool) -> None:
        """Keep whether the account takes rated challenges, and casual ones."""
        ...

    def attempt(self, throttle: str, counters: dict[str, int], window_s: int) -> float:
        """Count one attempt on each of ``throttle``'s ``counters`` (who → the most it allows) at once, unless
        one holds its most already: then count nothing and answer the seconds until the fullest resets.

        Answers 0 when counted; a new counter lasts ``window_s``. Atomic, so
        racing attempts never get past a counter's most together.
        """
        ...

    def refund(self, throttle: str, counters: list[str]) -> None:
        """Take back the attempt counted on each of ``throttle``'s ``counters`` (it succeeded: only failures
        stay counted)."""
        ...
