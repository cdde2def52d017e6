"""``tienlen serve``: the API under gunicorn, on a given Redis or a private one.

The default workers are gevent's: every connection is a greenlet, so
thousands of clients can wait for their turn (long polls, event streams)
without holding a thread each; bots and hints think in a real thread pool.
``--worker-class gthread`` keeps threaded workers (then each waiting client
holds a thread). With ``REDIS_URL`` set the server uses that Redis; otherwise
it starts a private ``redis-server`` (append-only file in ``./var/redis``, or
``$TIENLEN_DATA_DIR``) before the workers are forked, and stops it on exit.

The settings (:class:`~tienlen.settings.Settings`) are read once, here,
before anything starts, and handed to every worker's app. Exit status: 2 for
a setting that cannot be used (one line naming it); 1 when the port is taken,
the data directory is another running server's (the line names its pid) or
the private Redis does not start; 0 once stopped.
"""

from __future__ import annotations

import functools
import gc
import logging
import logging.config
import os
import resource
import shutil
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from types import FrameType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from gunicorn.app.base import BaseApplication
from gunicorn.glogging import Logger as GunicornLogger

from .cli import BAD_SETTING_STATUS
from .engine import accel
from .local_redis import DataDirError, DataDirInUseError, LocalRedis
from .logs import logging_config, route_unhandled
from .settings import Settings, SettingsError, misspelt, shown_url

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["ServeConfig", "TienLenApplication", "gunicorn_options", "port_in_use", "serve"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
# gunicorn's own classes, but gevent's answers leave in one write each (tienlen.http_workers)
WORKER_CLASS_PATHS = {"gevent": "tienlen.http_workers.OneWriteGeventWorker", "gthread": "gthread"}
WORKER_CLASSES = tuple(WORKER_CLASS_PATHS)
DEFAULT_WORKER_CLASS = "gevent"
SPARE_CONNECTIONS = 1000  # connections a gevent worker takes beyond its waiting clients
REFUSED_STATUS = 1  # exit status when the port, the data directory or the private Redis is not to be had


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """What ``tienlen serve`` was asked for."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    workers: int = DEFAULT_WORKERS
    worker_class: str = DEFAULT_WORKER_CLASS
    threads: int = DEFAULT_THREADS

    @property
    def shape(self) -> str:
        """The workers in words, for the start-up line."""
        if self.worker_class == "gthread":
            return f"{self.workers} threaded workers x {self.threads} threads"
        return f"{self.workers} gevent workers"


class TienLenApplication(BaseApplication):  # type: ignore[misc]  # gunicorn is untyped
    """A gunicorn application whose WSGI callable is ``tienlen.api.create_app()``.

    ``create_app`` is called in :meth:`load`, i.e. in each worker after the fork
    (``preload_app`` stays off), so every worker builds its own app and Redis pool.
    """

    def __init__(self, options: Mapping[str, Any], app_factory: Callable[[], Flask] | None = None) -> None:
        """Keep the gunicorn settings and an optional factory (default: ``tienlen.api.create_app``)."""
        self.options = dict(options)
        self.app_factory: Callable[[], Flask] | None = app_factory
        super().__init__()

    def load_config(self) -> None:
        """Apply the known settings; unknown ones (e.g. absent from older gunicorn) are skipped."""
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Flask:
        """Build the WSGI app (called in the worker process)."""
        if self.app_factory is not None:
            return self.app_factory()
        from .api import create_app

        return create_app()


def _post_worker_init(worker: Any) -> None:
    """gunicorn hook, in each worker: freeze startup objects, start the sweeper, ignore SIGINT, end waits on SIGTERM.

    What nothing caught in the worker, gevent's hub's errors included, goes to the log
    (:func:`~tienlen.logs.route_unhandled`).

    On Ctrl-C the terminal signals the whole process group, and the master then
    sends SIGQUIT to every worker.  A gthread worker that handles both re-enters
    its quit handler inside ``ThreadPoolExecutor.shutdown`` and deadlocks on the
    executor's lock until the master SIGKILLs it.  With SIGINT ignored the worker
    gets the master's SIGQUIT only (and SIGTERM still means a graceful stop).

    On SIGTERM (a graceful stop) every event stream ends and every long poll
    answers what it has, so those clients reconnect to another server instead
    of holding this one for its whole graceful timeout.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from .http_workers import answer_refusals_as_json  # here: the master must not load the app's modules

    answer_refusals_as_json()
    route_unhandled()  # gevent's hub now exists: its errors go to the log too
    # The app, its modules and tables live as long as the worker: kept out of the garbage collector's
    # full passes, which then scan only what requests made (a full pass over them all stalls every
    # waiting client of the worker: docs/benchmarks.md, make bench-http).
    gc.freeze()
    app = worker.wsgi
    if "tienlen" in getattr(app, "extensions", {}):
        from .api import start_sweeper

        start_sweeper(app)
    graceful = signal.getsignal(signal.SIGTERM)

    def on_term(signum: int, frame: FrameType | None) -> None:
        if "tienlen" in getattr(app, "extensions", {}):
            from .api import gevent_patched, shutdown

            # Not in the handler itself: ending the waits takes locks the interrupted code may
            # hold. Under gevent the handler runs in the event loop, where only spawning is allowed.
            if gevent_patched():
                import gevent

                gevent.spawn(shutdown, app)
            else:
                threading.Thread(target=shutdown, args=(app,), daemon=True).start()
        if callable(graceful):
            graceful(signum, frame)

    signal.signal(signal.SIGTERM, on_term)


class NoAccessLogger(GunicornLogger):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's logger without its access log: the app writes one line per request itself (``tienlen.requests``).

    With a ``logconfig_dict`` gunicorn counts its access log as on and builds
    every request's access line (some twenty fields, the time formatted) only
    for its logger to drop it: about 7 % of a ``/healthz`` request.
    """

    @property
    def access_log_enabled(self) -> bool:
        """Never: the access line is not built."""
        return False


def engine_note() -> str:
    """Which engine the bots and the referee run on, for the first log line (an operator sees a missing core)."""
    if accel.ENGINE == "compiled":
        return "compiled (the core in native/)"
    return f"pure Python (Hard weaker; {accel.BUILD_HINT})"


def gunicorn_options(
    config: ServeConfig, *, max_waiters: int, log_config: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The gunicorn settings of ``serve``; a gevent worker takes ``max_waiters`` and spare connections.

    ``log_config`` (:func:`tienlen.logs.logging_config`) gives gunicorn's own lines the server's log format.
    """
    options: dict[str, Any] = {
        "bind": f"[{config.host}]:{config.port}" if ":" in config.host else f"{config.host}:{config.port}",
        "workers": config.workers,
        "worker_class": WORKER_CLASS_PATHS[config.worker_class],
        "accesslog": None,  # the app writes its own request lines (tienlen.requests)
        "errorlog": "-",
        "loglevel": "warning",
        "logconfig_dict": log_config,
        "logger_class": "tienlen.serving.NoAccessLogger",
        "graceful_timeout": 5,
        "timeout": 30,
        "keepalive": 5,
        # Each worker binds its own listening socket and the kernel spreads new
        # connections over them. With one shared socket, the first worker to wake
        # takes every keep-alive client while the other idles on its core.
        "reuse_port": True,
        "proc_name": "tienlen",
        # gunicorn >= 24 opens a control socket at a per-user default path; several
        # servers on one machine (tests, bench, make serve) would fight over it.
        "control_socket_disable": True,
        "post_worker_init": _post_worker_init,
        "child_exit": _child_exit,
    }
    if config.worker_class == "gthread":
        options["threads"] = config.threads
    else:
        options["worker_connections"] = max_waiters + SPARE_CONNECTIONS
    return options


def port_in_use(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on, or None when it can.

    The workers bind their own ``SO_REUSEPORT`` sockets, so gunicorn's master
    never finds out that a port is taken (its workers would fail and be
    respawned forever). A plain bind here refuses any port already listened
    on, another ``tienlen serve`` included.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        return f"cannot resolve {host!r}: {error}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # as gunicorn does: connections of an earlier server in TIME_WAIT do not count
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return f"cannot listen on {host}:{port}: {error.strerror or error}"
    return None


def _metrics_dir() -> str | None:
    """Make a fresh temp dir for the workers' metrics when ``PROMETHEUS_MULTIPROC_DIR`` is not set; it, or None.

    Set before gunicorn forks (and before any worker imports prometheus_client),
    so every worker writes its values there and ``/metrics`` sums them.
    """
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return None
    made = tempfile.mkdtemp(prefix="tienlen-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = made
    return made


def _child_exit(server: Any, worker: Any) -> None:
    """gunicorn hook, in the master: a worker's live gauges (waiting connections) stop counting when it exits."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def _raise_system_exit(signum: int, frame: FrameType | None) -> None:
    """Turn SIGTERM/SIGINT into SystemExit so ``finally`` blocks run (until gunicorn takes over)."""
    raise SystemExit(128 + signum)


def _open_files_to_the_limit() -> None:
    """Every waiting client is an open socket: allow as many as the hard limit does."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 1 << 20, hard))


def _refuse(reason: str, status: int) -> int:
    """Say why the server does not start, in one line on standard error; the exit status."""
    print(f"tienlen: {reason}", file=sys.stderr, flush=True)
    return status


def _app_of(settings: Settings) -> Flask:
    """The app of a worker (imported there, after the fork)."""
    from .api import create_app

    return create_app(settings)


def _lean_log_records() -> None:
    """Log records that find no caller, thread or process name: the server's lines write none of them.

    The Logging HOWTO's "Optimization": each skipped lookup (a walk up the stack
    for the caller above all) is paid once a request, by its request line.
    """
    logging._srcfile = None
    logging.logThreads = False
    logging.logMultiprocessing = False


def _store_refusal(settings: Settings) -> str | None:
    """Why the store cannot be used as the settings say (Redis refused the credentials or TLS; ``fsync`` on a
    Redis before 7.2), or None.

    Asked only when there is something to refuse (a user, a password or TLS given; ``fsync``), and in a child
    process: this one (gunicorn's master) must not load redis-py and :mod:`ssl` before its gevent workers patch.
    """
    access = settings.redis_access
    parts = urlsplit(settings.redis_url)
    told = parts.password or parts.username or parts.scheme == "rediss" or access.sentinel_password
    if settings.durability != "fsync" and not told:
        return None
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's lines end in os._exit)
        answer = ""
        try:
            os.close(reader)
            from .api import refusal

            answer = refusal(settings) or ""
        except BaseException as error:  # told to the parent, which decides
            answer = f"the store could not be asked: {type(error).__name__}"
        finally:
            os.write(writer, answer.encode())
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as answer_pipe:
        answered = answer_pipe.read().decode()
    os.waitpid(child, 0)
    return answered or None


def serve(config: ServeConfig) -> int:
    """Run gunicorn until it is stopped, with a private Redis when ``REDIS_URL`` is not set; the exit status.

    Nothing starts when a setting cannot be used (2; a data directory that cannot be made too), the port
    is taken (1), or the private Redis's data directory is another server's (1).
    """
    try:
        settings = Settings.load()
    except SettingsError as error:
        return _refuse(str(error), BAD_SETTING_STATUS)
    refused = port_in_use(config.host, config.port)
    if refused is not None:
        return _refuse(refused, REFUSED_STATUS)
    log_config = logging_config(settings)
    logging.config.dictConfig(log_config)
    route_unhandled()  # the workers inherit it; each routes its gevent hub once gevent is loaded
    _lean_log_records()
    log = logging.getLogger("tienlen.serve")
    for name, meant in misspelt(os.environ):
        log.warning("%s is not a setting of this server and is ignored: did you mean %s?", name, meant)
    _open_files_to_the_limit()
    previous = {sig: signal.signal(sig, _raise_system_exit) for sig in (signal.SIGTERM, signal.SIGINT)}
    owner_pid = os.getpid()
    embedded: LocalRedis | None = None
    metrics_dir: str | None = None
    try:
        if settings.embedded_redis:
            embedded = LocalRedis(settings.data_dir, appendonly=True)
            try:
                embedded.start()
            except DataDirError as error:
                return _refuse(f"TIENLEN_DATA_DIR: {error}", BAD_SETTING_STATUS)
            except DataDirInUseError as error:
                way_out = "give this server a TIENLEN_DATA_DIR of its own, or set REDIS_URL to a running Redis"
                return _refuse(f"{error}: {way_out}", REFUSED_STATUS)
            except RuntimeError as error:
                return _refuse(f"the private Redis did not start: {error}", REFUSED_STATUS)
            settings = replace(settings, redis_url=embedded.url)  # every worker's app uses it
            redis_note = f"embedded Redis {embedded.url} (pid {embedded.pid}, AOF in {embedded.data_dir})"
        elif settings.redis_sentinels:
            sentinels = ",".join(f"{host}:{port}" for host, port in settings.redis_sentinels)
            redis_note = f"the primary {settings.redis_sentinel_master!r} of the Redis Sentinels {sentinels}"
        else:
            redis_note = f"Redis {shown_url(settings.redis_url)} (from REDIS_URL)"
        refusal = _store_refusal(settings)
        if refusal is not None:
            return _refuse(refusal, BAD_SETTING_STATUS)
        metrics_dir = _metrics_dir()
        options = gunicorn_options(config, max_waiters=settings.max_waiters, log_config=log_config)
        log.info(
            "listening on http://%s (%s), using %s, durability %s, engine %s",
            options["bind"],
            config.shape,
            redis_note,
            settings.durability,
            engine_note(),
        )
        # gunicorn installs its own SIGTERM/SIGINT handlers; on either it stops the
        # workers and raises SystemExit out of run(), so the finally below still runs.
        TienLenApplication(options, functools.partial(_app_of, settings)).run()
        return 0
    finally:
        # gunicorn workers are forked from this process and unwind through here too:
        # only the master may stop Redis or restore handlers.
        if os.getpid() == owner_pid:
            if metrics_dir is not None:
                shutil.rmtree(metrics_dir, ignore_errors=True)
            if embedded is not None and embedded.running:
                # A second Ctrl-C must not interrupt the shutdown of Redis.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                embedded.stop()
                log.info("embedded Redis stopped")
            for sig, handler in previous.items():
                signal.signal(sig, handler)
