"""The command line of ``tienlen-bot``: its options, read into a :class:`Config`."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "ACCEPT_KINDS",
    "TOKEN_VARIABLE",
    "URL_VARIABLE",
    "Config",
    "build_parser",
    "configure_logging",
    "parse_accept",
    "parse_config",
]

TOKEN_VARIABLE = "TIENLEN_TOKEN"
"""Where the token is read when ``--token`` is not given."""

URL_VARIABLE = "TIENLEN_URL"
"""Where the server's URL is read when ``--url`` is not given (else ``http://127.0.0.1:8000``)."""

ACCEPT_KINDS = ("rated", "casual")
"""The kinds of challenge ``--accept`` names."""

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True)
class Config:
    """What the bot runner does.

    ``accept``: which challenges it accepts (``rated``, ``casual``; the others
    are declined). ``queue_players``: the table size of the quick-play ticket
    it keeps open while it is not playing (None: it does not queue), rated
    unless ``queue_casual``, with the rules of ``preset`` (None: the server's).
    ``max_matches``: it stops after that many finished matches (None: never).
    ``tournament``: the id of a tournament it enters and plays to its end (then it stops).
    """

    url: str
    token: str
    policy: str
    accept: frozenset[str] = frozenset(ACCEPT_KINDS)
    queue_players: int | None = None
    queue_casual: bool = False
    preset: str | None = None
    max_matches: int | None = None
    log_level: str = "INFO"
    tournament: str | None = None

    def accepts(self, rated: bool) -> bool:
        """Whether a challenge, rated or casual as given, is accepted."""
        return ("rated" if rated else "casual") in self.accept


def parse_accept(text: str) -> frozenset[str]:
    """``--accept``: ``rated``, ``casual``, both with a comma, or ``none``.

    Raises:
        argparse.ArgumentTypeError: for anything else.
    """
    words = [word.strip().lower() for word in text.split(",") if word.strip()]
    if words == ["none"]:
        return frozenset()
    unknown = [word for word in words if word not in ACCEPT_KINDS]
    if not words or unknown:
        raise argparse.ArgumentTypeError(f"expected rated, casual, rated,casual or none, not {text!r}")
    return frozenset(words)


def _table_size(text: str) -> int:
    try:
        players = int(text)
    except ValueError:
        players = 0
    if not 2 <= players <= 4:
        raise argparse.ArgumentTypeError(f"a table has 2 to 4 players, not {text!r}")
    return players


def _positive(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if count < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return count


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``tienlen-bot``."""
    parser = argparse.ArgumentParser(
        prog="tienlen-bot",
        description="Play every match an account is seated in with a policy, unattended: accept challenges, "
        "keep a quick-play ticket open, or enter a tournament and play its rounds; reconnect after failures.",
        epilog="The policy is module:name (or path/to/file.py:name): a function policy(view) -> action, or a class "
        "instantiated once per match whose act(view) gives the action. An action is {'type': 'play', 'cards': "
        "[...]} or {'type': 'pass'}. Exit status: 0 when stopped (SIGINT, SIGTERM, --max-matches) or when the "
        "tournament of --tournament is over; 1 when the server refused the token; 2 for bad arguments or policy; "
        "3 when the tournament refused the entry (not open, full, bots not admitted) or the account withdrew; "
        "4 when the tournament was cancelled.",
    )
    parser.add_argument("--url", help=f"the server's base URL (default: ${URL_VARIABLE}, else http://127.0.0.1:8000)")
    parser.add_argument("--token", help=f"a personal token with scope play (default: ${TOKEN_VARIABLE})")
    parser.add_argument("--policy", required=True, metavar="MODULE:NAME", help="the policy: a function or a class")
    parser.add_argument(
        "--accept",
        type=parse_accept,
        default=frozenset(ACCEPT_KINDS),
        metavar="KINDS",
        help="challenges to accept: rated, casual, rated,casual (default) or none; the others are declined",
    )
    parser.add_argument(
        "--queue", type=_table_size, metavar="N", help="keep a quick-play ticket for N players open while not playing"
    )
    parser.add_argument("--casual", action="store_true", help="queue for casual (unrated) tables")
    parser.add_argument("--preset", help="the rules' preset of the queued tables (default: the server's)")
    parser.add_argument(
        "--max-matches", type=_positive, metavar="K", help="stop after K finished matches (default: run until stopped)"
    )
    parser.add_argument(
        "--tournament",
        metavar="ID",
        help="enter the tournament ID (before its start), play each of its rounds' tables as the inbox tells them "
        "(tournament_table_ready), and stop when it is over",
    )
    parser.add_argument("--log-level", default="INFO", type=str.upper, choices=LOG_LEVELS)
    return parser


def parse_config(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """Read the command line (``argv``; default the process's) and the environment (``environ``).

    Raises:
        SystemExit: with status 2 and a message for bad arguments (argparse's way).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    env = os.environ if environ is None else environ
    token = args.token or env.get(TOKEN_VARIABLE) or ""
    if not token:
        parser.error(f"give a token: --token or ${TOKEN_VARIABLE}")
    if ":" not in args.policy or not args.policy.rpartition(":")[2]:
        parser.error(f"--policy is MODULE:NAME or FILE.py:NAME, not {args.policy!r}")
    if args.tournament is not None and args.queue is not None:
        parser.error("--queue and --tournament do not go together: a queued table could clash with a round's")
    if (args.casual or args.preset) and args.queue is None:
        parser.error("--casual and --preset are options of --queue N")
    return Config(
        url=args.url or env.get(URL_VARIABLE) or "http://127.0.0.1:8000",
        token=token,
        policy=args.policy,
        accept=args.accept,
        queue_players=args.queue,
        queue_casual=args.casual,
        preset=args.preset,
        max_matches=args.max_matches,
        tournament=args.tournament,
        log_level=args.log_level,
    )


def configure_logging(level: str) -> None:
    """Log lines with their time and level on standard error, at ``level`` and above."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
