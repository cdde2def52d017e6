"""Players who come back: accounts, sessions (a login) and personal API tokens.

A password is kept only as its Argon2id hash, a token only as its SHA-256
digest (:func:`~tienlen.store.token_digest`); a token is shown once, when it
is made. A login that fails takes about as long for an unknown name as for a
wrong password (a dummy hash is checked) and answers the same refusal.
Failed logins are counted per name and per client address for
:data:`FAILURE_WINDOW_S`; past :data:`MAX_NAME_FAILURES` or
:data:`MAX_ADDRESS_FAILURES` a login is refused (``rate_limited``) until the
window ends, whatever the password. Deleting an account erases its password
and every token; its name stays closed (as lichess does), so no one else can
take a name others knew.
"""

from __future__ import annotations

import math
import re
import secrets
import time
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..bots import LEVELS
from ..store.accounts import AccountRecord, AccountStore, Grant, TokenRecord, fold_name, name_digest
from ..store.records import new_token, token_digest
from .errors import (
    InvalidCredentials,
    InvalidRequest,
    InvalidToken,
    LoginThrottled,
    NameTaken,
    ScopeMissing,
    TokenNotFound,
    TooManyTokens,
)
from .kept import DELETED_NAME

if TYPE_CHECKING:
    from .history import HistoryService

SCOPES = ("play", "account")  # play: sit and act for the account's seats; account: manage the account
SESSION_SCOPES = SCOPES
ACCOUNT_KINDS = ("human", "bot")
ACCOUNT_NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")  # matched whole (fullmatch): no trailing newline slips through
ACCOUNT_NAME_RULE = "3 to 20 letters, digits, '_' or '-'"


def bare_name(name: str) -> str:
    """``name`` folded (:func:`~tienlen.store.accounts.fold_name`) without any space, control, format (zero-width,
    bidi) or separator character: the form a reserved name is recognised in."""
    return "".join(char for char in fold_name(name) if unicodedata.category(char)[0] not in "CZ")


# The house bots' names and the name a deleted account's seats take, refused in any form (bare_name).
RESERVED_NAMES = frozenset(bare_name(name) for name in (*LEVELS, DELETED_NAME))
FAILURE_WINDOW_S = 15 * 60
MAX_NAME_FAILURES = 10  # failed logins for one name in the window
MAX_ADDRESS_FAILURES = 30  # failed logins from one client address in the window
LOGIN_THROTTLE = "login"  # the failed-login counters' throttle in the store
_HASHER = PasswordHasher()  # Argon2id, argon2-cffi's defaults (RFC 9106's low-memory profile)


def _dummy_hash() -> str:
    """A hash checked for an unknown name, so that refusing it takes as long as a wrong password."""
    return _dummy_hash_of(_HASHER)


@cache
def _dummy_hash_of(hasher: PasswordHasher) -> str:
    """The dummy hash made with ``hasher``'s parameters (one a hasher: it costs what that hasher's checks cost)."""
    return hasher.hash(secrets.token_hex(16))


@dataclass(frozen=True, slots=True)
class Account:
    """An account as its owner sees it."""

    name: str
    kind: str
    created_at: float


@dataclass(frozen=True, slots=True)
class Session:
    """A session token (shown once) and when it stops working."""

    token: str = field(repr=False)  # never in a repr: a repr may end up in a log
    expires_at: float


@dataclass(frozen=True, slots=True)
class Registered:
    """A new account and its first session."""

    account: Account
    token: str = field(repr=False)
    expires_at: float


@dataclass(frozen=True, slots=True)
class PersonalToken:
    """A personal API token as listed (no secret)."""

    id: str
    label: str
    scopes: tuple[str, ...]
    created_at: float


@dataclass(frozen=True, slots=True)
class IssuedToken(PersonalToken):
    """A new personal token with its secret, shown this once."""

    token: str = field(repr=False)


def grant_of(store: AccountStore, token: str | None) -> tuple[Grant, AccountRecord]:
    """What an account's ``token`` may do and its account; :class:`InvalidToken` when it is none of an account's."""
    if not token:
        raise InvalidToken("send an account's token: Authorization: Bearer <token>")
    grant = store.grant(token_digest(token))
    record = None if grant is None else store.get(grant.account_id)
    if grant is None or record is None:
        raise InvalidToken("the token is unknown, revoked or expired")
    return grant, record


def authorized(store: AccountStore, token: str | None, scope: str) -> AccountRecord:
    """The account ``token`` acts for, when the token has ``scope``; :class:`ScopeMissing` (403) when it has not."""
    grant, record = grant_of(store, token)
    if scope not in grant.scopes:
        raise ScopeMissing(f"this token was not given the {scope!r} scope")
    return record


def _account(record: AccountRecord) -> Account:
    return Account(record.name, record.kind, record.created_at)


class AccountService:
    """The account use cases over an :class:`~tienlen.store.accounts.AccountStore`.

    With ``history`` (the matches' kept history) deleting an account also
    takes its name out of every match it sat in.
    """

    def __init__(
        self,
        store: AccountStore,
        session_ttl_s: int,
        history: HistoryService | None = None,
        *,
        max_tokens: int,
    ) -> None:
        self.store = store
        self.session_ttl_s = session_ttl_s
        self.history = history
        self.max_tokens = max_tokens

    # ----- accounts and sessions -----------------------------------------------------------

    def register(self, name: str, password: str, kind: str) -> Registered:
        """A new account named ``name`` and its first session.

        The name is never one of :data:`RESERVED_NAMES` in any form (:func:`bare_name`; :class:`NameTaken`),
        matches :data:`ACCOUNT_NAME` whole (:class:`InvalidRequest`) and is unique once folded (case, width:
        :func:`~tienlen.store.accounts.fold_name`; :class:`NameTaken`).
        """
        if bare_name(name) in RESERVED_NAMES:
            raise NameTaken(f"{name!r} is reserved: a house bot's or a deleted seat's", errors={"name": ["reserved"]})
        if not ACCOUNT_NAME.fullmatch(name):
            raise InvalidRequest(f"a name is {ACCOUNT_NAME_RULE}", errors={"name": [ACCOUNT_NAME_RULE]})
        record = AccountRecord(secrets.token_hex(10), name, kind, time.time(), _HASHER.hash(password))
        if not self.store.create(record):
            raise NameTaken(f"the name {name!r} is taken (names are unique ignoring case and width)")
        session = self._open_session(record)
        return Registered(_account(record), session.token, session.expires_at)

    def login(self, name: str, password: str, address: str) -> Session:
        """A new session for ``name`` and ``password``; refused alike for a wrong name or password."""
        return self._open_session(self._check_password(name, password, address))

    def logout(self, token: str | None) -> None:
        """Revoke the session of ``token`` (a personal token is revoked through its id instead)."""
        grant, _record = self._grant(token)
        if grant.token_id is not None:
            raise InvalidRequest("this is a personal token: revoke it with DELETE /v1/me/tokens/{id}")
        assert token is not None
        self.store.drop_session(grant.account_id, token_digest(token))

    def me(self, token: str | None) -> Account:
        """The account that ``token`` acts for (any scope)."""
        return _account(self._grant(token)[1])

    def delete(self, token: str | None, password: str, address: str) -> None:
        """Erase the account of ``token`` (scope ``account``) once ``password`` is confirmed.

        Its credentials and tokens go; in every match it sat in, kept or
        live, its seats are renamed ``(deleted)`` and lose the account (once
        more after the erase, for a seat bound meanwhile).
        """
        record = self.authorize(token, "account")
        self._check_password(record.name, password, address)
        self.close(record)

    def close(self, record: AccountRecord) -> None:
        """Erase the account as :meth:`delete` does, without its password: a moderator's closing of it. Its
        tokens and sessions are revoked at once, nobody logs in as it again, its name stays taken."""
        if self.history is not None:
            self.history.forget(record.account_id, record.name)
        self.store.erase(record)
        if self.history is not None:
            self.history.forget(record.account_id, record.name)

    # ----- personal tokens -------------------------------------------------------------------

    def create_token(self, token: str | None, label: str, scopes: list[str]) -> IssuedToken:
        """A new personal token of the account of ``token`` (scope ``account``), its secret shown once;
        :class:`TooManyTokens` when the account holds ``max_tokens`` already."""
        record = self.authorize(token, "account")
        secret = new_token()
        kept = TokenRecord(secrets.token_hex(8), label, tuple(dict.fromkeys(scopes)), time.time(), token_digest(secret))
        if not self.store.add_token(record.account_id, kept, self.max_tokens):
            raise TooManyTokens(f"an account holds at most {self.max_tokens} personal tokens: revoke one first")
        return IssuedToken(kept.token_id, kept.label, kept.scopes, kept.created_at, secret)

    def tokens(self, token: str | None) -> list[PersonalToken]:
        """The personal tokens of the account of ``token`` (scope ``account``), oldest first, without secrets."""
        record = self.authorize(token, "account")
        kept = self.store.tokens(record.account_id)
        return [PersonalToken(t.token_id, t.label, t.scopes, t.created_at) for t in kept]

    def revoke_token(self, token: str | None, token_id: str) -> None:
        """Revoke the personal token ``token_id`` of the account of ``token`` (scope ``account``), at once."""
        record = self.authorize(token, "account")
        if not self.store.drop_token(record.account_id, token_id):
            raise TokenNotFound(f"no personal token {token_id!r} of this account")

    # ----- who is asking ---------------------------------------------------------------------

    def authorize(self, token: str | None, scope: str) -> AccountRecord:
        """The account ``token`` acts for, when the token has ``scope``; else refused (401 or 403)."""
        return authorized(self.store, token, scope)

    def _grant(self, token: str | None) -> tuple[Grant, AccountRecord]:
        return grant_of(self.store, token)

    def _open_session(self, record: AccountRecord) -> Session:
        token = new_token()
        self.store.add_session(record.account_id, token_digest(token), self.session_ttl_s)
        return Session(token, time.time() + self.session_ttl_s)

    def _check_password(self, name: str, password: str, address: str) -> AccountRecord:
        """The account of ``name`` when ``password`` is its own; failures counted and throttled.

        The attempt is counted before the password is checked (and taken back
        when it was right), in one step with the check of the counters: racing
        wrong passwords never get more than the window allows between them.
        """
        counters = {f"name:{name_digest(name)}": MAX_NAME_FAILURES, f"addr:{address}": MAX_ADDRESS_FAILURES}
        left_s = self.store.attempt(LOGIN_THROTTLE, counters, FAILURE_WINDOW_S)
        if left_s:
            raise LoginThrottled("too many failed logins: wait before trying again", retry_after_s=math.ceil(left_s))
        record = self.store.find(name)
        try:
            _HASHER.verify(_dummy_hash() if record is None else record.password_hash, password)
        except (VerificationError, InvalidHashError):
            record = None
        if record is None:
            raise InvalidCredentials("no account has that name and password")
        self.store.refund(LOGIN_THROTTLE, list(counters))
        return record
