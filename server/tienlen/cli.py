"""Command line: ``tienlen serve | openapi | replay | arena``.

``serve`` is :mod:`tienlen.serving`; ``openapi`` prints the contract;
``replay`` referees a finished match's replay (:mod:`tienlen.replay`);
``arena`` is :mod:`tienlen.bots.arena` (``--ratings``: a round robin with Elo
ratings). Outside bots against ours over HTTP are a client's job: the
``tienlen-tournament`` command (``clients/python/tienlen_tournament``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["build_parser", "main"]

# Exit status of a setting that cannot be used, here and in tienlen serve (this module's top imports nothing of
# the server, so it can say so even when the engine refuses TIENLEN_ENGINE as it is imported).
BAD_SETTING_STATUS = 2


def _serve(args: argparse.Namespace) -> int:
    """Run the server (see :mod:`tienlen.serving`)."""
    from .serving import ServeConfig, serve

    return serve(ServeConfig(args.host, args.port, args.workers, args.worker_class, args.threads))


def _openapi(args: argparse.Namespace) -> int:
    """Print the OpenAPI document (no Redis needed)."""
    from tienlen.api import openapi_document

    sys.stdout.write(json.dumps(openapi_document(), indent=2, sort_keys=True) + "\n")
    sys.stdout.flush()
    return 0


def _replay(args: argparse.Namespace) -> int:
    """Referee a replay again with the engine; exit 1 naming the first thing that does not hold."""
    from .replay import ReplayError, referee

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as error:
        print(f"tienlen replay: cannot read {args.file}: {error.strerror or error}", file=sys.stderr)
        return 2
    try:
        found = referee(json.loads(text))
    except (json.JSONDecodeError, RecursionError):
        print(f"tienlen replay: {args.file} is not JSON", file=sys.stderr)
        return 1
    except ReplayError as error:
        print(f"tienlen replay: refused: {error}", file=sys.stderr)
        return 1
    ending = "abandoned, no winner" if found.abandoned else f"winner seat {found.winner}"
    if not found.abandoned and found.winner is None:
        ending = "a shared win"
    scores = " ".join(str(s) for s in found.scores)
    hands = f"{found.hands} hand" + ("s" if found.hands != 1 else "")
    print(f"every action legal: {hands}, {found.actions} actions; {ending}; scores {scores}")
    if found.fair_deal:
        print(f"deal verified: commitment and {hands}")
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
    """The argument parser for ``tienlen``; imports the server (and so the engine, which reads ``TIENLEN_ENGINE``)."""
    from .serving import (
        DEFAULT_HOST,
        DEFAULT_PORT,
        DEFAULT_THREADS,
        DEFAULT_WORKER_CLASS,
        DEFAULT_WORKERS,
        WORKER_CLASSES,
    )

    parser = argparse.ArgumentParser(prog="tienlen", description="Tiến Lên game server")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser(
        "serve",
        help="run the HTTP server under gunicorn",
        description=(
            "Run the HTTP API under gunicorn (gevent workers: waiting clients hold no thread). Uses $REDIS_URL "
            "if set; otherwise starts a private redis-server with its append-only file in ./var/redis "
            "(or $TIENLEN_DATA_DIR). Exits 2 when a setting (TIENLEN_*, REDIS_URL) cannot be used, 1 when the "
            "port or the data directory is taken, before anything starts."
        ),
    )
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})")
    serve.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    serve.add_argument(
        "--workers", type=_positive_int, default=DEFAULT_WORKERS, help=f"processes (default {DEFAULT_WORKERS})"
    )
    serve.add_argument(
        "--worker-class",
        choices=WORKER_CLASSES,
        default=DEFAULT_WORKER_CLASS,
        help=f"gevent (thousands of waiting clients) or gthread (a thread each) (default {DEFAULT_WORKER_CLASS})",
    )
    serve.add_argument(
        "--threads",
        type=_positive_int,
        default=DEFAULT_THREADS,
        help=f"threads per process with --worker-class gthread (default {DEFAULT_THREADS})",
    )
    serve.set_defaults(handler=_serve)

    openapi = sub.add_parser("openapi", help="print the OpenAPI document as JSON")
    openapi.set_defaults(handler=_openapi)

    replay = sub.add_parser(
        "replay",
        help="referee a replay (GET /v1/matches/{id}/replay) again with the engine",
        description="Play a tienlen-replay/1 file through the rules engine from its seed (or, for a fair-dealt "
        "match, check its secret against the commitment and deal every hand by tienlen-deal/1): exit 0 and print "
        "the result when every deal and action holds, exit 1 naming the first that does not.",
    )
    replay.add_argument("file", help="the replay's JSON file, or - for standard input")
    replay.set_defaults(handler=_replay)

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
    """Entry point of the ``tienlen`` command; returns the process exit status.

    A ``TIENLEN_ENGINE`` the engine refuses as it is imported (:class:`~tienlen.engine.accel.CompiledCoreError`,
    an ImportError that names its ``setting``; the class cannot be imported here, its module being the one that
    failed) stops every command with one line and exit 2, as any other setting stops ``tienlen serve``.
    """
    try:
        parser = build_parser()
    except ImportError as error:
        if getattr(error, "setting", None) is None:
            raise
        print(f"tienlen: {error}", file=sys.stderr, flush=True)
        return BAD_SETTING_STATUS
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
