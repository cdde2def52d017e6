"""The server's log: one format for every line, gunicorn's own included; the request log.

``TIENLEN_LOG_FORMAT=text`` (the default) writes each record as one line::

    2026-12-04T02:50:01.123Z WARNING [4242] tienlen.sweeper: Redis does not answer ...

(time in UTC, level, process id, logger: message); a record's fields (those
of a request line) follow its message as ``key=value``, and each line of a
traceback repeats the head, so every line has a time, a level and a logger.
``TIENLEN_LOG_FORMAT=json`` writes each record as one JSON object a line:
``time``, ``level``, ``pid``, ``logger``, ``message``, the record's fields
(a request line: ``method``, ``route``, ``match_id``, ``status``,
``duration_ms``) and, after an exception, ``traceback``.

Records go to standard error. ``tienlen serve`` gives gunicorn
:func:`logging_config` as its ``logconfig_dict``, so its master and workers
(gunicorn's own lines from ``gunicorn.error`` too, at WARNING and above) and
every library write this format; :func:`install` gives the ``tienlen``
loggers of a process that only builds the app (tests, benchmarks) the same.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from . import wire
from .settings import Settings

if TYPE_CHECKING:
    from flask import Flask, Response

__all__ = ["FIELDS", "LineFormatter", "StderrHandler", "install", "install_logs", "logging_config"]

FIELDS = "tienlen_fields"  # the record attribute (``extra={FIELDS: {...}}``) holding a line's own fields
ROOT = "tienlen"  # the server's loggers, the Flask app's included (it is named tienlen)
GUNICORN_LEAST_LEVEL = logging.WARNING  # gunicorn's start-up chatter (booting workers) stays out below it

requests_log = logging.getLogger("tienlen.requests")


_seconds: tuple[int, str] = (-1, "")  # the last whole second written, and its text (most lines share it)


def timestamp(created: float) -> str:
    """ISO 8601 in UTC with milliseconds: ``2026-12-04T02:50:01.123Z``."""
    global _seconds
    whole = int(created)
    second, text = _seconds
    if second != whole:
        text = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole))
        _seconds = (whole, text)
    return f"{text}.{int((created - whole) * 1000):03d}Z"


class LineFormatter(logging.Formatter):
    """Formats a record as the server's log line: ``text`` or ``json`` (see the module's documentation)."""

    def __init__(self, form: str = "text") -> None:
        """Write ``form`` lines (``text`` or ``json``)."""
        super().__init__()
        if form not in ("text", "json"):
            raise ValueError(f"no log format {form!r}")
        self.form = form

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line (``text`` with a traceback: one line per traceback line)."""
        message = record.getMessage()
        fields: Mapping[str, Any] = getattr(record, FIELDS, None) or {}
        trace = self.formatException(record.exc_info) if record.exc_info else (record.exc_text or "")
        if record.stack_info:
            trace = "\n".join(filter(None, (trace, self.formatStack(record.stack_info))))
        when = timestamp(record.created)
        if self.form == "json":
            line: dict[str, Any] = {
                "time": when,
                "level": record.levelname,
                "pid": record.process,
                "logger": record.name,
                "message": message,
            }
            line.update(fields)
            if trace:
                line["traceback"] = trace
            return wire.dumps(line).decode()
        head = f"{when} {record.levelname} [{record.process}] {record.name}:"
        text = message + "".join(f" {key}={'-' if value is None else value}" for key, value in fields.items())
        lines = text.splitlines() or [""]
        lines += trace.splitlines()
        return "\n".join([f"{head} {lines[0]}", *(f"{head}   {rest}" for rest in lines[1:])])


class StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes the server's lines to standard error (its own class, so :func:`install` finds it again)."""

    def __init__(self) -> None:
        """A handler on standard error."""
        super().__init__(sys.stderr)


def logging_config(settings: Settings) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` of a server: every logger writes ``settings``' format to stderr.

    The ``tienlen`` loggers and the root (libraries) log at ``settings.log_level``;
    ``gunicorn.error`` at WARNING or above. gunicorn applies it (``logconfig_dict``)
    in its master, which the workers inherit.
    """
    handler = {"()": f"{__name__}.StderrHandler", "formatter": "line"}
    gunicorn_level = logging.getLevelName(max(settings.log_level_number, GUNICORN_LEAST_LEVEL))
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": f"{__name__}.LineFormatter", "form": settings.log_format}},
        "handlers": {"stderr": handler},
        "root": {"level": settings.log_level, "handlers": ["stderr"]},
        "loggers": {
            ROOT: {"level": settings.log_level, "handlers": ["stderr"], "propagate": False},
            "gunicorn.error": {"level": gunicorn_level, "handlers": ["stderr"], "propagate": False},
            "gunicorn.access": {"level": "WARNING", "handlers": ["stderr"], "propagate": False},
        },
    }


def install(settings: Settings) -> None:
    """Make the ``tienlen`` loggers of this process write ``settings``' format and level to stderr.

    Only those loggers: a process that builds the app (a test, a benchmark)
    keeps its own root logger. Called again, it replaces what it set before
    (and Flask's default handler on the app's logger).
    """
    from flask.logging import default_handler

    logger = logging.getLogger(ROOT)
    for old in list(logger.handlers):
        if isinstance(old, StderrHandler) or old is default_handler:
            logger.removeHandler(old)
    handler = StderrHandler()
    handler.setFormatter(LineFormatter(settings.log_format))
    logger.addHandler(handler)
    logger.setLevel(settings.log_level)
    logger.propagate = False
    requests_log.setLevel(logging.NOTSET)  # the level is the tienlen logger's


def install_logs(app: Flask, settings: Settings) -> None:
    """:func:`install` ``settings``' log, and log one line per request ``app`` answers on ``tienlen.requests``.

    The request line is at INFO, its message ``request``; its fields: ``method``, ``route`` (the URL rule, e.g.
    ``/v1/matches/<match_id>``), ``match_id``, ``status``, ``duration_ms``.
    """
    from flask import g, request

    install(settings)

    @app.before_request
    def _start_clock() -> None:
        g.started = time.perf_counter()

    @app.after_request
    def _log_request(response: Response) -> Response:
        if not requests_log.isEnabledFor(logging.INFO):
            return response
        started = g.get("started")
        fields = {
            "method": request.method,
            "route": request.url_rule.rule if request.url_rule is not None else request.path,
            "match_id": (request.view_args or {}).get("match_id") or g.get("match_id"),
            "status": response.status_code,
            "duration_ms": None if started is None else round((time.perf_counter() - started) * 1000, 2),
        }
        requests_log.info("request", extra={FIELDS: fields})
        return response
