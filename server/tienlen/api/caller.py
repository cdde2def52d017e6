"""Who is asking: the bearer token, the client's address and the player of the current request.

The client's address is :func:`client_address`'s alone: every per-address
count (rate limits, throttles, idempotency scopes, waiting caps) asks it.
Behind trusted proxies (``TIENLEN_TRUSTED_PROXIES``) werkzeug's ``ProxyFix``
has already put the client's address from ``X-Forwarded-For`` in its place.
"""

from __future__ import annotations

import hmac

from flask import request

from ..service import InvalidToken, MatchNotFound
from ..service.core import Core
from ..service.errors import NotModerator
from ..store.records import token_digest
from .services import services


def bearer_token() -> str | None:
    """The token of the request's ``Authorization: Bearer <token>`` header, or None."""
    authorization = request.headers.get("Authorization")
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def client_address() -> str:
    """The client's address: the peer's, or behind ``TIENLEN_TRUSTED_PROXIES`` proxies the one they forwarded."""
    return request.remote_addr or ""


def _service() -> Core:
    return services().game.core


def caller_account(*, required: bool) -> str | None:
    """The id of the account the request's token acts for (any scope); None when no token is sent and none is
    ``required``. :class:`InvalidToken` for a token that is no account's, read without writing anything."""
    token = bearer_token()
    if token is None:
        if required:
            raise InvalidToken("send an account's token: Authorization: Bearer <token>")
        return None
    grant = _service().accounts.grant(token_digest(token))
    if grant is None:
        raise InvalidToken("the token is unknown, revoked or expired")
    return grant.account_id


def caller_player() -> str:
    """Who plays for the request's token at the match of the URL: ``acct:<id>`` for an account (its token, or a
    seat token of a seat it holds), ``seat:<match id>:<seat>`` for an anonymous seat's token.

    Refused without writing anything: :class:`InvalidToken` for no token or a
    token that is neither an account's nor a seat's of the match,
    :class:`MatchNotFound` when there is no such match.
    """
    token = bearer_token()
    if token is None:
        raise InvalidToken("send 'Authorization: Bearer <token>' with a seat's token or an account's")
    service = _service()
    grant = service.accounts.grant(token_digest(token))
    if grant is not None:
        return "acct:" + grant.account_id
    match_id = str((request.view_args or {}).get("match_id", ""))
    record = service.store.load(match_id).record if match_id else None
    if record is None:
        raise MatchNotFound(f"no match {match_id!r}")
    seat = record.seat_of_token(token)
    if seat is None:
        raise InvalidToken("the token is no seat's of this match, nor an account's")
    account = record.seats[seat].account
    return f"acct:{account}" if account else f"seat:{match_id}:{seat}"


def require_moderator() -> None:
    """Refuse the request (:class:`NotModerator`) unless it carries the server's moderator token
    (``TIENLEN_MODERATOR_TOKEN``), compared in constant time; with no moderator token set no one moderates."""
    expected = services().settings.moderator_token
    token = bearer_token()
    if expected is None or token is None or not hmac.compare_digest(token.encode(), expected.encode()):
        raise NotModerator("this act is a moderator's: send the moderator token")
