"""The browser table and the offline API docs: static files only, outside the OpenAPI contract.

- ``GET /``, ``GET /m/<match_id>``, ``GET /m/<match_id>/replay``, ``GET /m/<match_id>/watch``,
  ``GET /p/<name>``, ``GET /leaderboard``, ``GET /puzzles``, ``GET /friends``, ``GET /learn``, ``GET /tournaments``,
  ``GET /t/<tournament_id>``, ``GET /moderate``
  and ``GET /account`` answer the page of the browser table
  (``index.html`` of the settings' ``web_dir``: ``TIENLEN_WEB_DIR``, else a
  checkout's ``clients/web/public``), which shows the lobby, a match, its
  replay, the match watched, a player's profile or signing in; the page itself calls only the
  public API. ``GET /web/<file>`` answers its scripts and styles.
- ``GET /docs/assets/<file>`` answers Swagger UI's own files, from the
  ``flask-swagger-ui`` package (its ``dist/VERSION`` names the Swagger UI
  release), so ``/docs`` loads nothing from another host.
- :func:`install_cors` lets pages on the settings' ``cors_origins``
  (``TIENLEN_CORS_ORIGINS``) call the API (flask-cors); without them no CORS
  header is sent.
  Such a page may send the request headers of :data:`CORS_ALLOW_HEADERS`
  and read every answer header the OpenAPI document describes
  (:func:`documented_headers`: ``Retry-After``, ``RateLimit-*``) and ``Allow``.

A missing file is 404 ``not_found`` in the API's error shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, Flask, Response, send_from_directory
from flask_cors import CORS
from flask_smorest import abort

from ..services import services_of
from .common import settings

SWAGGER_UI_DIR = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
SWAGGER_UI_URL = "/docs/assets/"
# The request headers a page on another origin may send.
CORS_ALLOW_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"]
# Answer headers a page may read besides those the OpenAPI document describes: Werkzeug's on a 405.
CORS_UNDOCUMENTED_EXPOSE_HEADERS = ["Allow"]

blp = Blueprint("web", __name__)


def documented_headers(document: Mapping[str, Any]) -> list[str]:
    """The names of every answer header the OpenAPI ``document`` describes, in its operations or shared answers."""
    answers: list[Any] = list(document.get("components", {}).get("responses", {}).values())
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, Mapping):
                answers.extend(operation.get("responses", {}).values())
    names = {name for answer in answers if isinstance(answer, Mapping) for name in answer.get("headers", {})}
    return sorted(names)


def install_cors(app: Flask, origins: Sequence[str]) -> None:
    """Send CORS headers on the API's answers for ``origins`` (the settings' ``cors_origins``; none: nothing).

    Call it once every operation is documented: the headers a page may read are those of the app's OpenAPI
    document (``services_of(app).document``) and :data:`CORS_UNDOCUMENTED_EXPOSE_HEADERS`.
    """
    if not origins:
        return
    document = services_of(app).document.spec.to_dict()
    CORS(
        app,
        resources={r"/v1/*": {}, r"/healthz": {}, r"/openapi.json": {}},
        origins="*" if "*" in origins else list(origins),
        allow_headers=CORS_ALLOW_HEADERS,
        expose_headers=documented_headers(document) + CORS_UNDOCUMENTED_EXPOSE_HEADERS,
        methods=["GET", "POST", "DELETE", "OPTIONS"],
        max_age=600,
    )


def register(app: Flask) -> None:
    """Serve the browser table (from the app's settings' ``web_dir``) and Swagger UI's files.

    CORS is :func:`install_cors`, once the API is documented.
    """
    app.register_blueprint(blp)


def _send(directory: Path | None, filename: str) -> Response:
    if directory is not None and directory.is_dir():
        return send_from_directory(directory, filename, max_age=0)
    abort(404, message="the browser table is not installed here (set TIENLEN_WEB_DIR)", reason="not_found")
    raise AssertionError("unreachable")  # abort raised


def _page() -> Response:
    return _send(settings().web_dir, "index.html")


@blp.get("/")
def table_page() -> Response:
    """The browser table: the lobby, or the match the page remembers."""
    return _page()


@blp.get("/m/<string:match_id>")
def match_page(match_id: str) -> Response:
    """The browser table at one match (the link players share); the page itself asks the API about it."""
    return _page()


@blp.get("/m/<string:match_id>/replay")
def replay_page(match_id: str) -> Response:
    """The browser table's replay of a finished match, move by move."""
    return _page()


@blp.get("/m/<string:match_id>/watch")
def watch_page(match_id: str) -> Response:
    """The browser table's view of a match for anyone watching it: the public table only, followed as it is played."""
    return _page()


@blp.get("/p/<string:name>")
def profile_page(name: str) -> Response:
    """The browser table's profile of a player: who they are and their matches."""
    return _page()


@blp.get("/leaderboard")
def leaderboard_page() -> Response:
    """The browser table's leaderboards: by table size, players or bots, best rating first."""
    return _page()


@blp.get("/puzzles")
def puzzles_page() -> Response:
    """The browser table's puzzles: a position from a real endgame, both hands shown, answered move by move."""
    return _page()


@blp.get("/friends")
def friends_page() -> Response:
    """The browser table's page of the accounts one follows: who plays (with Watch), who is online, who is away."""
    return _page()


@blp.get("/learn")
def lesson_page() -> Response:
    """The browser table's first lesson: short steps on real cards, each checked by the server, then a Quick game."""
    return _page()


@blp.get("/tournaments")
def tournaments_page() -> Response:
    """The browser table's tournaments: upcoming, running and finished; join, withdraw, create one."""
    return _page()


@blp.get("/t/<string:tournament_id>")
def tournament_page(tournament_id: str) -> Response:
    """The browser table's page of one tournament: terms, entrants, live standings, each round's tables."""
    return _page()


@blp.get("/moderate")
def moderate_page() -> Response:
    """The browser table's page for moderators (the moderator token, pasted there): reports, mutes, closing
    accounts, the featured match and the audit list."""
    return _page()


@blp.get("/account")
def account_page() -> Response:
    """The browser table's forms to sign in and sign up (and Sign out, when signed in)."""
    return _page()


@blp.get("/web/<path:filename>")
def web_file(filename: str) -> Response:
    """A script, style or image of the browser table."""
    return _send(settings().web_dir, filename)


@blp.get(f"{SWAGGER_UI_URL}<path:filename>")
def swagger_ui_file(filename: str) -> Response:
    """A file of Swagger UI, served here so that ``/docs`` works offline."""
    return _send(SWAGGER_UI_DIR, filename)
