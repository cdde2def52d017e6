"""Who is asking: the bearer token and the client's address of the current request."""

from __future__ import annotations

from flask import request


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
    """The client's address (the peer's: behind a proxy, have it pass the client's as the peer address)."""
    return request.remote_addr or ""
