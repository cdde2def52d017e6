"""Headers every answer carries: no sniffing of content types, no caching of anything private.

An answer is private when it may carry a token or a seat's cards: the answer
to every write (``POST``, ``PUT``, ``PATCH``, ``DELETE``: creating, joining by
id or by room code, rematching, accounts, sessions, personal tokens, quick
play, challenges, actions all answer tokens or cards) and to every request
sent with an ``Authorization`` header (a seat's view, legal plays, hints,
an account's inbox and challenges). Such answers, refusals included, say
``Cache-Control: no-store`` so no browser or proxy keeps them. A ``GET``
without a token answers only what is public (the lobby, a match, a room, a
finished match's replay, the rules), which may be cached.
``tests/api/test_api_outcomes.py`` walks every operation of the OpenAPI
document whose answer holds a token or cards and checks that this rule covers it.
"""

from __future__ import annotations

from flask import Flask, Response, request

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def private_request() -> bool:
    """Whether the answer to the current request may carry a token or a seat's cards."""
    return bool(request.headers.get("Authorization")) or request.method not in SAFE_METHODS


def install_headers(app: Flask) -> None:
    """Add ``X-Content-Type-Options: nosniff`` to every answer and ``Cache-Control: no-store`` to private ones."""

    @app.after_request
    def _security_headers(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        if private_request():
            response.headers["Cache-Control"] = "no-store"
        return response
