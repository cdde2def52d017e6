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

What nothing caught goes through the same log (:func:`route_unhandled`):
an exception that ends a thread, one that gevent's hub would print (a
greenlet's, a thinking thread's), one Python can only ignore (in ``__del__``)
and a warning each make one record on ``tienlen.unhandled`` (or
``py.warnings``), in the configured format: the exception's type, where it
was raised and its message, then its traceback. No line is written for them
straight to standard error, and none holds a repr of the objects involved
(gevent would print the failed task with its arguments: a match's record,
hands and all), nor any frame's locals.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any

from . import wire
from .settings import Settings

if TYPE_CHECKING:
    from flask import Flask, Response

__all__ = [
    "FIELDS",
    "LineFormatter",
    "StderrHandler",
    "install",
    "install_logs",
    "log_unhandled",
    "logging_config",
    "route_unhandled",
]

FIELDS = "tienlen_fields"  # the record attribute (``extra={FIELDS: {...}}``) holding a line's own fields
ROOT = "tienlen"  # the server's loggers, the Flask app's included (it is named tienlen)
GUNICORN_LEAST_LEVEL = logging.WARNING  # gunicorn's start-up chatter (booting workers) stays out below it

requests_log = logging.getLogger("tienlen.requests")
unhandled_log = logging.getLogger("tienlen.unhandled")
MESSAGE_MOST = 300  # characters of an unhandled exception's message written in its line
_CARD = r"(?:10|[2-9JQKA])[SCDH]"
# What in an unhandled exception's message may be a secret: long hex (token digests, a fair deal's secret), long
# token-like runs, long numbers (seeds, hand masks) and runs of three or more cards (a hand).
SECRET_LIKE = re.compile(
    r"[0-9A-Fa-f]{16,}|[A-Za-z0-9_-]{20,}|\d{8,}"
    rf"|(?<![0-9A-Za-z]){_CARD}(?:[^0-9A-Za-z]{{1,4}}{_CARD}){{2,}}(?![0-9A-Za-z])"
)


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


def _where(tb: TracebackType | None) -> str:
    """Where an exception was raised: ``file:line in function`` of its innermost frame (``-`` when unknown)."""
    frames = traceback.extract_tb(tb) if tb is not None else []
    if not frames:
        return "-"
    last = frames[-1]
    return f"{last.filename}:{last.lineno} in {last.name}"


def log_unhandled(
    source: str, kind: type[BaseException], error: BaseException | None, tb: TracebackType | None
) -> None:
    """Log an exception that nothing caught, once, on ``tienlen.unhandled`` at ERROR.

    The line names ``source`` (a thread, gevent's hub), the exception's type,
    its message (on one line, at most :data:`MESSAGE_MOST` characters) and
    where it was raised (field ``where``), with whatever in it may be a secret
    hidden (:data:`SECRET_LIKE`); its traceback follows: the frames
    (file, line, function, source line) and the same type and message, never
    a local, an argument or an exception chained to it. Nothing here takes a
    repr of the object that failed.
    """
    if not unhandled_log.isEnabledFor(logging.ERROR):
        return
    message = SECRET_LIKE.sub("<hidden>", " ".join(str(error).split())) if error is not None else ""
    if len(message) > MESSAGE_MOST:
        message = message[:MESSAGE_MOST] + "..."
    frames = traceback.format_list(traceback.extract_tb(tb)) if tb is not None else []
    trace = "".join(["Traceback (most recent call last):\n", *frames, f"{kind.__name__}: {message}"])
    record = unhandled_log.makeRecord(
        unhandled_log.name,
        logging.ERROR,
        "(unhandled)",
        0,
        "unhandled %s in %s: %s",
        (kind.__name__, source, message),
        None,
        extra={FIELDS: {"where": _where(tb)}},
        sinfo=trace,
    )
    unhandled_log.handle(record)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    if issubclass(args.exc_type, SystemExit):
        return
    name = args.thread.name if args.thread is not None else "a thread"
    log_unhandled(f"thread {name}", args.exc_type, args.exc_value, args.exc_traceback)


def _excepthook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    log_unhandled("the main thread", kind, error, tb)


def _unraisablehook(args: Any) -> None:
    what = args.object
    name = getattr(what, "__qualname__", None) if callable(what) else None  # a function's name is code, not data
    source = f"{args.err_msg or 'Exception ignored in'} {name or 'a ' + type(what).__name__}"
    log_unhandled(source, args.exc_type, args.exc_value, args.exc_traceback)


def _hub_print_exception(hub: Any, context: Any, kind: Any, error: Any, tb: Any) -> None:
    """gevent's ``Hub.print_exception``, through the log: the context is named by its type, never by its repr."""
    if not isinstance(error, BaseException):
        error = None
    if not (isinstance(kind, type) and issubclass(kind, BaseException)):
        kind = type(error) if error is not None else Exception
    if isinstance(context, tuple) and context:  # a thread pool's (worker, task): named by the worker's type
        context = context[0]
    what = "gevent's hub" if context is None else f"gevent's hub (a {type(context).__name__})"
    log_unhandled(what, kind, error, tb)


def route_unhandled() -> None:
    """Send what nothing caught to the log: threads' and the main thread's exceptions, ignored ones, warnings, and
    gevent's hub's errors (when gevent is loaded); see the module's documentation. Called again, it does the same.
    """
    threading.excepthook = _thread_excepthook
    sys.excepthook = _excepthook
    sys.unraisablehook = _unraisablehook
    logging.captureWarnings(True)
    if "gevent.hub" in sys.modules:
        from gevent.hub import Hub

        Hub.print_exception = _hub_print_exception
