"""The browser table and the offline API docs: static files only, outside the OpenAPI contract.

- ``GET /`` and ``GET /m/<match_id>`` answer the page of the browser table
  (``clients/web/public/index.html``); the page itself calls only the public
  API. ``GET /web/<file>`` answers its scripts and styles.
- ``GET /docs/assets/<file>`` answers Swagger UI's own files, from the
  ``flask-swagger-ui`` package (its ``dist/VERSION`` names the Swagger UI
  release), so ``/docs`` loads nothing from another host.
- :func:`install_cors` lets pages on the origins of ``TIENLEN_CORS_ORIGINS``
  call the API (flask-cors); without that variable no CORS header is sent.
  Such a page may send the request headers of :data:`CORS_ALLOW_HEADERS`
  and read every answer header the OpenAPI document describes
  (:func:`documented_headers`: ``Retry-After``, ``RateLimit-*``) and ``Allow``.

A missing file is 404 ``not_found`` in the API's error shape.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import flask_swagger_ui
from flask import Blueprint, Flask, Response, current_app, send_from_directory
from flask_cors import CORS
from flask_smorest import abort

WEB_DIR_VARIABLE = "TIENLEN_WEB_DIR"
CORS_VARIABLE = "TIENLEN_CORS_ORIGINS"
# server/tienlen/api/routes/web.py -> the repository's clients/web/public (an editable install, `make serve`)
DEFAULT_WEB_DIR = Path(__file__).resolve().parents[4] / "clients" / "web" / "public"
SWAGGER_UI_DIR = Path(flask_swagger_ui.__file__).resolve().parent / "dist"
SWAGGER_UI_URL = "/docs/assets/"
# The request headers a page on another origin may send.
CORS_ALLOW_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"]
# Answer headers a page may read besides those the OpenAPI document describes: Werkzeug's on a 405.
CORS_UNDOCUMENTED_EXPOSE_HEADERS = ["Allow"]
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")

blp = Blueprint("web", __name__)


def _setting(config: Mapping[str, Any] | None, name: str) -> str:
    """A variable from ``config`` (as given to ``create_app``), else the environment, else empty."""
    if config is not None and name in config:
        return str(config[name])
    return os.environ.get(name, "")


def web_dir(config: Mapping[str, Any] | None = None) -> Path:
    """Where the browser table's files are: ``TIENLEN_WEB_DIR``, else the repository's ``clients/web/public``."""
    configured = _setting(config, WEB_DIR_VARIABLE).strip()
    return Path(configured) if configured else DEFAULT_WEB_DIR


def cors_origins(config: Mapping[str, Any] | None = None) -> list[str]:
    """The origins of ``TIENLEN_CORS_ORIGINS`` (comma separated, or ``*``); none by default.

    Raises ValueError for an entry that is not ``*`` or ``scheme://host[:port]``.
    """
    origins = [o.strip().rstrip("/") for o in _setting(config, CORS_VARIABLE).split(",") if o.strip()]
    for origin in origins:
        if origin != "*" and not _ORIGIN.match(origin):
            raise ValueError(f"{CORS_VARIABLE}: {origin!r} is not '*' or an origin such as https://example.com:8443")
    return origins


def documented_headers(document: Mapping[str, Any]) -> list[str]:
    """The names of every answer header the OpenAPI ``document`` describes, in its operations or shared answers."""
    answers: list[Any] = list(document.get("components", {}).get("responses", {}).values())
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, Mapping):
                answers.extend(operation.get("responses", {}).values())
    names = {name for answer in answers if isinstance(answer, Mapping) for name in answer.get("headers", {})}
    return sorted(names)


def install_cors(app: Flask, config: Mapping[str, Any] | None = None) -> None:
    """Send CORS headers on the API's answers for the configured origins (nothing when none are).

    Call it once every operation is documented: the headers a page may read are those of the app's OpenAPI
    document (``app.extensions["tienlen_api"]``) and :data:`CORS_UNDOCUMENTED_EXPOSE_HEADERS`.
    """
    origins = cors_origins(config)
    if not origins:
        return
    document = app.extensions["tienlen_api"].spec.to_dict()
    CORS(
        app,
        resources={r"/v1/*": {}, r"/healthz": {}, r"/openapi.json": {}},
        origins="*" if "*" in origins else origins,
        allow_headers=CORS_ALLOW_HEADERS,
        expose_headers=documented_headers(document) + CORS_UNDOCUMENTED_EXPOSE_HEADERS,
        methods=["GET", "POST", "DELETE", "OPTIONS"],
        max_age=600,
    )


def register(app: Flask, config: Mapping[str, Any] | None = None) -> None:
    """Serve the browser table and Swagger UI's files (CORS is :func:`install_cors`, once the API is documented)."""
    app.config["TIENLEN_WEB_DIR_PATH"] = web_dir(config)
    app.register_blueprint(blp)


def _send(directory: Path, filename: str) -> Response:
    if not directory.is_dir():
        abort(404, message=f"the browser table is not installed here (set {WEB_DIR_VARIABLE})", reason="not_found")
    return send_from_directory(directory, filename, max_age=0)


def _page() -> Response:
    return _send(Path(current_app.config["TIENLEN_WEB_DIR_PATH"]), "index.html")


@blp.get("/")
def table_page() -> Response:
    """The browser table: the lobby, or the match the page remembers."""
    return _page()


@blp.get("/m/<string:match_id>")
def match_page(match_id: str) -> Response:
    """The browser table at one match (the link players share); the page itself asks the API about it."""
    return _page()


@blp.get("/web/<path:filename>")
def web_file(filename: str) -> Response:
    """A script, style or image of the browser table."""
    return _send(Path(current_app.config["TIENLEN_WEB_DIR_PATH"]), filename)


@blp.get(f"{SWAGGER_UI_URL}<path:filename>")
def swagger_ui_file(filename: str) -> Response:
    """A file of Swagger UI, served here so that ``/docs`` works offline."""
    return _send(SWAGGER_UI_DIR, filename)
