"""Headers every answer carries: no sniffing of content types, no caching of anything private.

An answer is private when it may carry a seat token (creating, joining and
rematching answer tokens: every ``POST`` under ``/v1/matches``) or a seat's
cards (every request sent with an ``Authorization`` header: views, legal
plays, hints, actions). Such answers, refusals included, say
``Cache-Control: no-store`` so no browser or proxy keeps them.
"""

from __future__ import annotations

from flask import Flask, Response, request

PRIVATE_PREFIX = "/v1/matches"


def private_request() -> bool:
    """Whether the answer to the current request may carry a token or a seat's cards."""
    if request.headers.get("Authorization"):
        return True
    return request.method not in ("GET", "HEAD", "OPTIONS") and request.path.startswith(PRIVATE_PREFIX)


def install_headers(app: Flask) -> None:
    """Add ``X-Content-Type-Options: nosniff`` to every answer and ``Cache-Control: no-store`` to private ones."""

    @app.after_request
    def _security_headers(response: Response) -> Response:
        response.headers["X-Content-Type-Options"] = "nosniff"
        if private_request():
            response.headers["Cache-Control"] = "no-store"
        return response
