"""Command line: ``tienlen serve | openapi | arena``.

``serve`` runs the Flask app under gunicorn with threaded (gthread) workers.
With ``REDIS_URL`` set it uses that Redis; otherwise it starts a private
``redis-server`` (append-only file in ``./var/redis``, or ``$TIENLEN_DATA_DIR``)
before the workers are forked, and stops it when gunicorn exits.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any

from gunicorn.app.base import BaseApplication

from tienlen.local_redis import LocalRedis

if TYPE_CHECKING:
    from flask import Flask

__all__ = ["TienLenApplication", "build_parser", "gunicorn_options", "main"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8
DEFAULT_DATA_DIR = os.path.join("var", "redis")


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
        # Imported here: only the commands that serve the API need Flask (``tienlen arena`` does not).
        from tienlen.api import create_app

        return create_app()


def _post_worker_init(worker: Any) -> None:
    """gunicorn hook, in each worker: ignore SIGINT.

    On Ctrl-C the terminal signals the whole process group, and the master then
    sends SIGQUIT to every worker.  A gthread worker that handles both re-enters
    its quit handler inside ``ThreadPoolExecutor.shutdown`` and deadlocks on the
    executor's lock until the master SIGKILLs it.  With SIGINT ignored the worker
    gets the master's SIGQUIT only (and SIGTERM still means a graceful stop).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def gunicorn_options(host: str, port: int, workers: int, threads: int) -> dict[str, Any]:
    """The gunicorn settings used by ``serve``."""
    return {
        "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "workers": workers,
        "threads": threads,
        "worker_class": "gthread",
        "accesslog": None,  # the app writes its own JSON log lines
        "errorlog": "-",
        "loglevel": "warning",
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
    }


def _raise_system_exit(signum: int, frame: FrameType | None) -> None:
    """Turn SIGTERM/SIGINT into SystemExit so ``finally`` blocks run (until gunicorn takes over)."""
    raise SystemExit(128 + signum)


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


def _serve(args: argparse.Namespace) -> int:
    """Run gunicorn, with an embedded Redis when ``REDIS_URL`` is not set."""
    refused = port_in_use(args.host, args.port)
    if refused is not None:
        print(f"tienlen: {refused}", file=sys.stderr, flush=True)
        return 1
    previous = {sig: signal.signal(sig, _raise_system_exit) for sig in (signal.SIGTERM, signal.SIGINT)}
    owner_pid = os.getpid()
    embedded: LocalRedis | None = None
    try:
        redis_url = os.environ.get("REDIS_URL", "").strip()
        if redis_url:
            redis_note = f"Redis {redis_url} (from REDIS_URL)"
        else:
            data_dir = os.environ.get("TIENLEN_DATA_DIR") or DEFAULT_DATA_DIR
            embedded = LocalRedis(data_dir, appendonly=True)
            embedded.start()
            # Set before gunicorn forks, so every worker's create_app() finds it.
            os.environ["REDIS_URL"] = embedded.url
            redis_note = f"embedded Redis {embedded.url} (pid {embedded.pid}, AOF in {embedded.data_dir})"
        options = gunicorn_options(args.host, args.port, args.workers, args.threads)
        print(
            f"tienlen: listening on http://{options['bind']} "
            f"({args.workers} workers x {args.threads} threads), using {redis_note}",
            flush=True,
        )
        # gunicorn installs its own SIGTERM/SIGINT handlers; on either it stops the
        # workers and raises SystemExit out of run(), so the finally below still runs.
        TienLenApplication(options).run()
        return 0
    finally:
        # gunicorn workers are forked from this process and unwind through here too:
        # only the master may stop Redis or restore handlers.
        if os.getpid() == owner_pid:
            if embedded is not None:
                # A second Ctrl-C must not interrupt the shutdown of Redis.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                embedded.stop()
                print("tienlen: embedded Redis stopped", file=sys.stderr, flush=True)
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _openapi(args: argparse.Namespace) -> int:
    """Print the OpenAPI document (no Redis needed)."""
    from tienlen.api import openapi_document

    sys.stdout.write(json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n")
    sys.stdout.flush()
    return 0


def _arena(args: argparse.Namespace) -> int:
    """Delegate to ``tienlen.bots.arena.main`` with the remaining arguments."""
    from tienlen.bots.arena import main as arena_main

    return arena_main(list(args.arena_args))


def _positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _port(text: str) -> int:
    """argparse type: a TCP port number."""
    value = int(text)
    if not 0 < value < 65536:
        raise argparse.ArgumentTypeError(f"not a TCP port: {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``tienlen``."""
    parser = argparse.ArgumentParser(prog="tienlen", description="Tiến Lên game server")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser(
        "serve",
        help="run the HTTP server under gunicorn",
        description=(
            "Run the HTTP API under gunicorn (gthread workers). Uses $REDIS_URL if set; otherwise starts "
            "a private redis-server with its append-only file in ./var/redis (or $TIENLEN_DATA_DIR)."
        ),
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument(
        "--workers", type=_positive_int, default=DEFAULT_WORKERS, help=f"processes (default {DEFAULT_WORKERS})"
    )
    serve.add_argument(
        "--threads",
        type=_positive_int,
        default=DEFAULT_THREADS,
        help=f"threads per process (default {DEFAULT_THREADS})",
    )
    serve.set_defaults(handler=_serve)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document as JSON")
    openapi.set_defaults(handler=_openapi)

    arena = sub.add_parser(
        "arena",
        help="run bot matches (arguments are passed to tienlen.bots.arena)",
        add_help=False,
        prefix_chars="\x00",  # pass every remaining argument, --help included, through untouched
    )
    arena.add_argument("arena_args", nargs=argparse.REMAINDER)
    arena.set_defaults(handler=_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tienlen`` command; returns the process exit status."""
    args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
