"""Settings of the server: every ``TIENLEN_*`` variable and ``REDIS_URL``, read once, typed and checked.

:meth:`Settings.load` reads the environment (or a mapping given to
``create_app``) and refuses a bad value with a :class:`SettingsError` naming
the variable, e.g. ``TIENLEN_MAX_BODY must be a positive integer, not 'abc'``;
``tienlen serve`` prints that one line and exits 2 before anything starts.
Every other module takes its values from the :class:`Settings` object.
"""

from __future__ import annotations

import difflib
import functools
import logging
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .bots import DEFAULT_BUDGET_S
from .redis_options import (
    DEFAULT_DURABILITY,
    DEFAULT_REDIS_TIMEOUT_S,
    DEFAULT_REDIS_URL,
    DEFAULT_SENTINEL_MASTER,
    DURABILITY_LEVELS,
    RedisAccess,
    RedisOptions,
)
from .store_kinds import DEFAULT_STORE, STORE_KINDS

__all__ = [
    "DEFAULT_RATE_LIMITS",
    "DURABILITY_LEVELS",
    "LOG_FORMATS",
    "LOG_LEVELS",
    "VARIABLES",
    "Settings",
    "SettingsError",
    "checkout_web_dir",
    "misspelt",
    "parse_rate_limits",
    "shown_url",
]

DEFAULT_DATA_DIR = Path("var", "redis")
DEFAULT_TTL_S = 7 * 24 * 3600
DEFAULT_MAX_BODY = 64 * 1024
DEFAULT_MAX_WAITERS = 5000
DEFAULT_MAX_WAITERS_PER_ACCOUNT = 8  # a page follows its inbox and a match or two: room to spare
DEFAULT_MAX_WAITERS_PER_ADDRESS = 64  # an address may be many people (a school, a carrier's NAT)
DEFAULT_HEARTBEAT_S = 15.0
DEFAULT_FINISHED_TTL_S = 24 * 3600
DEFAULT_WAITING_TTL_S = 3600
DEFAULT_WRITES_AT_ONCE = 1
DEFAULT_SESSION_DAYS = 30
DEFAULT_MAX_TOKENS = 50  # personal tokens one account may hold at once
DEFAULT_TRUSTED_PROXIES = 0  # proxy hops whose X-Forwarded-* headers are believed: none
DEFAULT_QUEUE_FILL_S = 15.0
DEFAULT_QUEUE_TURN_S = 30
DEFAULT_CHALLENGE_EXPIRY_S = 60
DEFAULT_MAX_CHALLENGES_SENT = 8
DEFAULT_MAX_CHALLENGES_RECEIVED = 32
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_LOG_FORMAT = "text"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
# What one client may do, by kind of request, each counted per account or per address as its views
# declare (api/limits.py; docs/operations.md has the table): create, join, act and hint, wait (long
# polls and streams), make an account, log in, export a history, make personal tokens.
# ``TIENLEN_RATE_LIMITS`` overrides any of them.
DEFAULT_RATE_LIMITS = {
    "create": "60/minute",
    "join": "60/minute",
    "act": "600/minute",
    "hint": "120/minute",
    "wait": "300/minute",
    "account": "20/hour",
    "login": "60/minute",
    "export": "10/minute",
    "token": "10/hour",
}
# The browser table's files in a checkout of the project (see checkout_web_dir).
CHECKOUT_WEB_FILES = Path("clients", "web", "public")
REDIS_SCHEMES = ("redis", "rediss", "unix")
_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")

# Every variable Settings reads, in the order of its docstring's table.
VARIABLES = (
    "TIENLEN_STORE",
    "REDIS_URL",
    "TIENLEN_DATA_DIR",
    "TIENLEN_REDIS_CLUSTER",
    "TIENLEN_REDIS_SENTINELS",
    "TIENLEN_REDIS_SENTINEL_MASTER",
    "TIENLEN_REDIS_SENTINEL_USERNAME",
    "TIENLEN_REDIS_SENTINEL_PASSWORD",
    "TIENLEN_REDIS_TLS_CA",
    "TIENLEN_REDIS_TLS_CERT",
    "TIENLEN_REDIS_TLS_KEY",
    "TIENLEN_DURABILITY",
    "TIENLEN_REDIS_TIMEOUT",
    "TIENLEN_MATCH_TTL",
    "TIENLEN_WAITING_TTL",
    "TIENLEN_FINISHED_TTL",
    "TIENLEN_MAX_BODY",
    "TIENLEN_BOT_BUDGET",
    "TIENLEN_MAX_WAITERS",
    "TIENLEN_MAX_WAITERS_PER_ACCOUNT",
    "TIENLEN_MAX_WAITERS_PER_ADDRESS",
    "TIENLEN_WRITES_AT_ONCE",
    "TIENLEN_HEARTBEAT",
    "TIENLEN_RATE_LIMITS",
    "TIENLEN_SESSION_DAYS",
    "TIENLEN_MAX_TOKENS",
    "TIENLEN_ANONYMOUS_HOSTING",
    "TIENLEN_HISTORY_DAYS",
    "TIENLEN_QUEUE_FILL_S",
    "TIENLEN_QUEUE_TURN_S",
    "TIENLEN_CHALLENGE_EXPIRY_S",
    "TIENLEN_MAX_CHALLENGES_SENT",
    "TIENLEN_MAX_CHALLENGES_RECEIVED",
    "TIENLEN_CORS_ORIGINS",
    "TIENLEN_TRUSTED_PROXIES",
    "TIENLEN_WEB_DIR",
    "TIENLEN_LOG_LEVEL",
    "TIENLEN_LOG_FORMAT",
)


class SettingsError(ValueError):
    """A variable has a value the server cannot use; the message names it and says what it must be."""


@functools.cache
def checkout_web_dir() -> Path | None:
    """The browser table's files of the checkout this package runs from, or None when there is none.

    Looks in each folder above the ``tienlen`` package for
    ``clients/web/public/index.html``: a checkout (an editable install,
    ``make serve``) has it, wherever the package sits in it; an installed
    package (a wheel, the Docker image) has not, and is given
    ``TIENLEN_WEB_DIR`` instead. Looked up once a process.
    """
    for folder in Path(__file__).resolve().parents:
        if (folder / CHECKOUT_WEB_FILES / "index.html").is_file():
            return folder / CHECKOUT_WEB_FILES
    return None


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server can be configured with, each from one environment variable.

    An unset variable takes its default, and so does an empty one that names
    a URL, a directory or a list (a number or a level must be given when set);
    a value that cannot be used is refused by :meth:`load` (``tienlen serve``
    exits 2 with one line naming the variable).

    ========================== ================ ====================================================================
    variable                   default          meaning
    ========================== ================ ====================================================================
    ``TIENLEN_STORE``          ``redis``        the kind of store that keeps the matches (today only ``redis``)
    ``REDIS_URL``              (embedded Redis) the Redis to keep matches in (``redis://``, ``rediss://`` (TLS) or
                                                ``unix://``), with its user and password if it asks for them (the
                                                data nodes' on every topology); unset, ``tienlen serve`` starts a
                                                private one (``create_app`` alone uses ``redis://127.0.0.1:6379/0``)
    ``TIENLEN_DATA_DIR``       ``./var/redis``  where the embedded Redis keeps its append-only file, and the lock
                                                that keeps a second server out of it
    ``TIENLEN_REDIS_CLUSTER``  ``0``            ``1``: ``REDIS_URL`` names any node of a Redis Cluster
    ``TIENLEN_REDIS_SENTINELS`` (none)          ``host:port`` of Redis Sentinels, comma separated: the primary is
                                                the one they name (and after a failover the new one); of
                                                ``REDIS_URL`` only the scheme, user, password and database count
    ``TIENLEN_REDIS_SENTINEL_MASTER`` ``mymaster`` the name under which the sentinels watch the primary
    ``TIENLEN_REDIS_SENTINEL_USERNAME`` (none)  the sentinels' own ACL user (with the password below)
    ``TIENLEN_REDIS_SENTINEL_PASSWORD`` (none)  the sentinels' own password (their ``requirepass``); never logged
    ``TIENLEN_REDIS_TLS_CA``   (system's)       with ``rediss://``: the CA file (PEM) that signed the certificates
                                                of Redis (and of the sentinels)
    ``TIENLEN_REDIS_TLS_CERT`` (none)           with ``rediss://``: the server's client certificate (PEM), when
                                                Redis asks for one (``tls-auth-clients``)
    ``TIENLEN_REDIS_TLS_KEY``  (in the cert)    with ``rediss://``: the client certificate's key (PEM)
    ``TIENLEN_DURABILITY``     ``local``        what a write waits for before the server answers: ``local`` (the
                                                primary has it), ``replica`` (a replica has it too: ``WAIT``) or
                                                ``fsync`` (on the primary's disk: ``WAITAOF``, Redis 7.2+); not
                                                confirmed in time: 503 ``outcome_unknown``
    ``TIENLEN_REDIS_TIMEOUT``  ``1``            seconds any Redis call may take before the request answers 503
    ``TIENLEN_MATCH_TTL``      ``604800``       seconds a match in play is kept after its last change
    ``TIENLEN_WAITING_TTL``    ``3600``         seconds a match still waiting for seats is kept after its last
                                                change
    ``TIENLEN_FINISHED_TTL``   ``86400``        seconds a finished match is kept after its end
    ``TIENLEN_MAX_BODY``       ``65536``        largest request body in bytes (413 above)
    ``TIENLEN_BOT_BUDGET``     ``0.2``          seconds a Hard bot or a hint may think per decision (Expert: 5x)
    ``TIENLEN_MAX_WAITERS``    ``5000``         long polls and streams one worker holds at once (503
                                                ``too_many_waiters`` above)
    ``TIENLEN_MAX_WAITERS_PER_ACCOUNT`` ``8``   long polls and streams one account holds at once, on all servers
                                                together (429 ``too_many_waits`` above)
    ``TIENLEN_MAX_WAITERS_PER_ADDRESS`` ``64``  long polls and streams one client address holds at once, on all
                                                servers together (429 ``too_many_waits`` above)
    ``TIENLEN_WRITES_AT_ONCE`` ``1``            writes a gevent worker holding waiting clients runs at once, each
                                                after its other work; ``0``: every write as it comes
    ``TIENLEN_HEARTBEAT``      ``15``           seconds between an idle stream's heartbeats
    ``TIENLEN_RATE_LIMITS``    (the defaults)   ``off``, or ``kind=limit`` pairs separated by ``;`` over
                                                :data:`DEFAULT_RATE_LIMITS`, each limit in flask-limiter's notation
                                                (``10/minute``, ``5 per second``)
    ``TIENLEN_SESSION_DAYS``   ``30``           days a login's session token works
    ``TIENLEN_MAX_TOKENS``     ``50``           personal tokens one account may hold at once (409
                                                ``too_many_tokens`` above)
    ``TIENLEN_ANONYMOUS_HOSTING`` ``0``         ``1``: a match with open seats may be made without an account (a
                                                private server); by default hosting one takes an account
    ``TIENLEN_HISTORY_DAYS``   (keep)           days a finished match stays in its players' histories; unset: kept
    ``TIENLEN_QUEUE_FILL_S``   ``15``           seconds a quick-play ticket waits for players before house bots take
                                                the seats left (``0``: at once)
    ``TIENLEN_QUEUE_TURN_S``   ``30``           seconds per turn in quick-play matches (``0``: no turn clock)
    ``TIENLEN_CHALLENGE_EXPIRY_S`` ``60``       seconds a challenge waits for every challenged player to accept
                                                (410 ``challenge_expired`` after)
    ``TIENLEN_MAX_CHALLENGES_SENT`` ``8``       pending challenges one account may have sent at once (409
                                                ``too_many_challenges`` above)
    ``TIENLEN_MAX_CHALLENGES_RECEIVED`` ``32``  pending challenges one account may have been sent at once (409
                                                ``too_many_challenges`` above)
    ``TIENLEN_CORS_ORIGINS``   (none)           origins whose pages may call the API, comma separated
                                                (``https://host[:port]``), or ``*``
    ``TIENLEN_TRUSTED_PROXIES`` ``0``           proxy hops in front of the server whose ``X-Forwarded-For``,
                                                ``-Proto`` and ``-Host`` are believed (werkzeug's ``ProxyFix``);
                                                ``0``: the headers are ignored, the client is the peer
    ``TIENLEN_WEB_DIR``        (the checkout's) the browser table's files; by default the checkout's
                                                ``clients/web/public`` (:func:`checkout_web_dir`), none when
                                                installed from a wheel (``/`` then answers 404)
    ``TIENLEN_LOG_LEVEL``      ``INFO``         ``DEBUG``, ``INFO`` (one line per request), ``WARNING``, ``ERROR``
                                                or ``CRITICAL``
    ``TIENLEN_LOG_FORMAT``     ``text``         ``text`` (time, level, pid, logger: message) or ``json`` (one JSON
                                                object a line)
    ========================== ================ ====================================================================

    Other ``TIENLEN_*`` variables are not the server's (the tests' and the
    tournament bots' own) and are left alone.
    """

    store: str = DEFAULT_STORE
    redis_url: str = field(default=DEFAULT_REDIS_URL, repr=False)  # may hold a password
    embedded_redis: bool = False  # REDIS_URL unset: `tienlen serve` starts a Redis in data_dir
    data_dir: Path = DEFAULT_DATA_DIR
    redis_cluster: bool = False
    redis_sentinels: tuple[tuple[str, int], ...] = ()  # (): no Sentinel, REDIS_URL names the primary
    redis_sentinel_master: str = DEFAULT_SENTINEL_MASTER
    redis_access: RedisAccess = field(default_factory=RedisAccess)  # the sentinels' credentials, the TLS files
    durability: str = DEFAULT_DURABILITY
    redis_timeout_s: float = DEFAULT_REDIS_TIMEOUT_S
    match_ttl_s: int = DEFAULT_TTL_S
    waiting_ttl_s: int = DEFAULT_WAITING_TTL_S
    finished_ttl_s: int = DEFAULT_FINISHED_TTL_S
    max_body: int = DEFAULT_MAX_BODY
    bot_budget_s: float = DEFAULT_BUDGET_S
    max_waiters: int = DEFAULT_MAX_WAITERS
    max_waiters_per_account: int = DEFAULT_MAX_WAITERS_PER_ACCOUNT
    max_waiters_per_address: int = DEFAULT_MAX_WAITERS_PER_ADDRESS
    writes_at_once: int = DEFAULT_WRITES_AT_ONCE
    heartbeat_s: float = DEFAULT_HEARTBEAT_S
    rate_limits: dict[str, str] | None = field(default_factory=lambda: dict(DEFAULT_RATE_LIMITS))  # None: off
    session_days: int = DEFAULT_SESSION_DAYS
    max_tokens: int = DEFAULT_MAX_TOKENS
    anonymous_hosting: bool = False
    history_days: int | None = None  # None: kept for good
    queue_fill_s: float = DEFAULT_QUEUE_FILL_S
    queue_turn_s: int = DEFAULT_QUEUE_TURN_S  # 0: no turn clock
    challenge_expiry_s: int = DEFAULT_CHALLENGE_EXPIRY_S
    max_challenges_sent: int = DEFAULT_MAX_CHALLENGES_SENT
    max_challenges_received: int = DEFAULT_MAX_CHALLENGES_RECEIVED
    cors_origins: tuple[str, ...] = ()
    trusted_proxies: int = DEFAULT_TRUSTED_PROXIES  # 0: X-Forwarded-* ignored
    web_dir: Path | None = field(default_factory=checkout_web_dir)
    log_level: str = DEFAULT_LOG_LEVEL
    log_format: str = DEFAULT_LOG_FORMAT

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> Settings:
        """Settings from the environment, then ``overrides`` (same names as the variables).

        Raises :class:`SettingsError` (a ValueError) for the first variable whose value cannot be used.
        """
        merged: dict[str, Any] = {k: v for k, v in os.environ.items() if k in VARIABLES}
        merged.update(overrides or {})
        values = {name: str(merged[name]).strip() for name in VARIABLES if name in merged}
        redis_url = values.get("REDIS_URL") or None
        store = _choice(values, "TIENLEN_STORE", STORE_KINDS, DEFAULT_STORE, str.lower)
        sentinels = _sentinels(values.get("TIENLEN_REDIS_SENTINELS", ""))
        cluster = _flag(values, "TIENLEN_REDIS_CLUSTER")
        durability = _choice(values, "TIENLEN_DURABILITY", DURABILITY_LEVELS, DEFAULT_DURABILITY, str.lower)
        _topology(cluster, sentinels)
        return cls(
            store=store,
            redis_url=DEFAULT_REDIS_URL if redis_url is None else _redis_url(redis_url),
            embedded_redis=redis_url is None and store == "redis" and not sentinels,
            data_dir=_data_dir(values.get("TIENLEN_DATA_DIR") or None),
            redis_cluster=cluster,
            redis_sentinels=sentinels,
            redis_sentinel_master=_sentinel_master(values.get("TIENLEN_REDIS_SENTINEL_MASTER")),
            redis_access=_redis_access(values, redis_url or DEFAULT_REDIS_URL, sentinels),
            durability=durability,
            redis_timeout_s=_positive_float(values, "TIENLEN_REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT_S),
            match_ttl_s=_whole_number(values, "TIENLEN_MATCH_TTL", DEFAULT_TTL_S),
            waiting_ttl_s=_whole_number(values, "TIENLEN_WAITING_TTL", DEFAULT_WAITING_TTL_S),
            finished_ttl_s=_whole_number(values, "TIENLEN_FINISHED_TTL", DEFAULT_FINISHED_TTL_S),
            max_body=_whole_number(values, "TIENLEN_MAX_BODY", DEFAULT_MAX_BODY),
            bot_budget_s=_positive_float(values, "TIENLEN_BOT_BUDGET", DEFAULT_BUDGET_S),
            max_waiters=_whole_number(values, "TIENLEN_MAX_WAITERS", DEFAULT_MAX_WAITERS),
            max_waiters_per_account=_whole_number(
                values, "TIENLEN_MAX_WAITERS_PER_ACCOUNT", DEFAULT_MAX_WAITERS_PER_ACCOUNT
            ),
            max_waiters_per_address=_whole_number(
                values, "TIENLEN_MAX_WAITERS_PER_ADDRESS", DEFAULT_MAX_WAITERS_PER_ADDRESS
            ),
            writes_at_once=_whole_number(values, "TIENLEN_WRITES_AT_ONCE", DEFAULT_WRITES_AT_ONCE, least=0),
            heartbeat_s=_positive_float(values, "TIENLEN_HEARTBEAT", DEFAULT_HEARTBEAT_S),
            rate_limits=parse_rate_limits(values.get("TIENLEN_RATE_LIMITS", "")),
            session_days=_whole_number(values, "TIENLEN_SESSION_DAYS", DEFAULT_SESSION_DAYS),
            max_tokens=_whole_number(values, "TIENLEN_MAX_TOKENS", DEFAULT_MAX_TOKENS),
            anonymous_hosting=_flag(values, "TIENLEN_ANONYMOUS_HOSTING"),
            history_days=_days_or_forever(values, "TIENLEN_HISTORY_DAYS"),
            queue_fill_s=_seconds(values, "TIENLEN_QUEUE_FILL_S", DEFAULT_QUEUE_FILL_S),
            queue_turn_s=_whole_number(values, "TIENLEN_QUEUE_TURN_S", DEFAULT_QUEUE_TURN_S, least=0),
            challenge_expiry_s=_whole_number(values, "TIENLEN_CHALLENGE_EXPIRY_S", DEFAULT_CHALLENGE_EXPIRY_S),
            max_challenges_sent=_whole_number(values, "TIENLEN_MAX_CHALLENGES_SENT", DEFAULT_MAX_CHALLENGES_SENT),
            max_challenges_received=_whole_number(
                values, "TIENLEN_MAX_CHALLENGES_RECEIVED", DEFAULT_MAX_CHALLENGES_RECEIVED
            ),
            cors_origins=_origins(values.get("TIENLEN_CORS_ORIGINS", "")),
            trusted_proxies=_whole_number(values, "TIENLEN_TRUSTED_PROXIES", DEFAULT_TRUSTED_PROXIES, least=0),
            web_dir=_web_dir(values.get("TIENLEN_WEB_DIR") or None),
            log_level=_choice(values, "TIENLEN_LOG_LEVEL", LOG_LEVELS, DEFAULT_LOG_LEVEL, str.upper),
            log_format=_choice(values, "TIENLEN_LOG_FORMAT", LOG_FORMATS, DEFAULT_LOG_FORMAT, str.lower),
        )

    @classmethod
    def of(cls, config: Settings | Mapping[str, Any] | None) -> Settings:
        """``config`` itself when it is Settings, else :meth:`load` with it as the overrides."""
        return config if isinstance(config, Settings) else cls.load(config)

    def redis_options(self, cooperative: bool) -> RedisOptions:
        """How to reach Redis as these settings say (``cooperative``: the worker runs requests as gevent
        greenlets, sharing one bounded pool); the options not set here keep :mod:`tienlen.redis_options`'
        defaults."""
        return RedisOptions(
            self.redis_url,
            cluster=self.redis_cluster,
            timeout_s=self.redis_timeout_s,
            cooperative=cooperative,
            sentinels=self.redis_sentinels,
            sentinel_master=self.redis_sentinel_master,
            durability=self.durability,
            access=self.redis_access,
        )

    @property
    def log_level_number(self) -> int:
        """The log level as the :mod:`logging` number."""
        return logging.getLevelNamesMapping()[self.log_level]


def misspelt(names: Iterable[str]) -> list[tuple[str, str]]:
    """The ``TIENLEN_*`` names among ``names`` that are no setting but nearly one: (the name, the setting meant).

    The server ignores ``TIENLEN_*`` variables it does not know (the tests' and the tournament bots' own), so a
    misspelt setting would be ignored without a word; ``tienlen serve`` warns about these.
    """
    found = []
    for name in sorted(names):
        if name.startswith("TIENLEN_") and name not in VARIABLES:
            close = difflib.get_close_matches(name, VARIABLES, n=1, cutoff=0.85)
            if close:
                found.append((name, close[0]))
    return found


def parse_rate_limits(text: str) -> dict[str, str] | None:
    """The limits ``TIENLEN_RATE_LIMITS`` asks for: None for ``off``, else the defaults with its overrides.

    The text is ``kind=limit`` pairs separated by ``;``, each limit in
    flask-limiter's notation (``60/minute``, ``10 per second``, several
    joined by ``,``); the kinds are those of :data:`DEFAULT_RATE_LIMITS`.
    Raises :class:`SettingsError` for a pair that is not one, or a limit
    flask-limiter cannot read.
    """
    from limits import parse_many

    text = text.strip()
    if text.lower() in ("off", "0", "false", "no"):
        return None
    limits = dict(DEFAULT_RATE_LIMITS)
    for part in filter(None, (p.strip() for p in text.split(";"))):
        kind, _, limit = part.partition("=")
        kind, limit = kind.strip(), limit.strip()
        if kind not in DEFAULT_RATE_LIMITS or not limit:
            known = ", ".join(DEFAULT_RATE_LIMITS)
            raise SettingsError(f"TIENLEN_RATE_LIMITS: {part!r} is not kind=limit with a kind of {known}, or 'off'")
        try:
            parse_many(limit)
        except ValueError:
            raise SettingsError(
                f"TIENLEN_RATE_LIMITS: {kind}={limit!r} is not a limit such as 60/minute or '10 per second'"
            ) from None
        limits[kind] = limit
    return limits


def shown_url(url: str) -> str:
    """``url`` as a log line or an error may show it: its password replaced by ``***`` (user and host kept).

    Read by hand, not by :func:`urllib.parse.urlsplit`: a password holding an unquoted ``/`` or ``@`` is masked
    whole too (everything between ``://`` and the last ``@`` after the user's ``:``).
    """
    scheme, sep, rest = url.partition("://")
    who, at, where = rest.rpartition("@")
    if not sep or not at or ":" not in who:
        return url
    return f"{scheme}://{who.split(':', 1)[0]}:***@{where}"


def _redis_url(text: str) -> str:
    """``REDIS_URL`` checked; an error shows it with its password masked."""
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        parts, port = urlsplit(""), -1
    if parts.scheme not in REDIS_SCHEMES or (parts.scheme != "unix" and not parts.hostname) or port == -1:
        raise SettingsError(
            f"REDIS_URL must be a redis://host:port/db (or rediss://, unix://) URL, not {shown_url(text)!r}"
        )
    if parts.query:
        raise SettingsError(
            "REDIS_URL takes no ?options: TLS files are TIENLEN_REDIS_TLS_*, the timeout TIENLEN_REDIS_TIMEOUT"
        )
    return text


def _redis_access(values: Mapping[str, str], redis_url: str, sentinels: tuple[tuple[str, int], ...]) -> RedisAccess:
    """The sentinels' credentials and the TLS files; each refused where it would not be used."""
    username = values.get("TIENLEN_REDIS_SENTINEL_USERNAME") or None
    password = values.get("TIENLEN_REDIS_SENTINEL_PASSWORD") or None
    if (username or password) and not sentinels:
        given = "TIENLEN_REDIS_SENTINEL_USERNAME" if username else "TIENLEN_REDIS_SENTINEL_PASSWORD"
        raise SettingsError(f"{given} is for the sentinels: set TIENLEN_REDIS_SENTINELS too")
    if username and not password:
        raise SettingsError("TIENLEN_REDIS_SENTINEL_USERNAME needs TIENLEN_REDIS_SENTINEL_PASSWORD")
    files = {name: values.get(f"TIENLEN_REDIS_TLS_{name}") or None for name in ("CA", "CERT", "KEY")}
    for name, path in files.items():
        if path is None:
            continue
        if urlsplit(redis_url).scheme != "rediss":
            raise SettingsError(f"TIENLEN_REDIS_TLS_{name} is for TLS: REDIS_URL must then be a rediss:// URL")
        if not os.access(Path(path).expanduser(), os.R_OK) or not Path(path).expanduser().is_file():
            raise SettingsError(f"TIENLEN_REDIS_TLS_{name} must be a readable file, not {path!r}")
    if files["KEY"] and not files["CERT"]:
        raise SettingsError("TIENLEN_REDIS_TLS_KEY needs TIENLEN_REDIS_TLS_CERT (the certificate it is the key of)")

    def expanded(path: str | None) -> str | None:
        return None if path is None else str(Path(path).expanduser())

    return RedisAccess(username, password, expanded(files["CA"]), expanded(files["CERT"]), expanded(files["KEY"]))


def _sentinels(text: str) -> tuple[tuple[str, int], ...]:
    """The ``host:port`` pairs of ``TIENLEN_REDIS_SENTINELS`` (none when empty)."""
    found = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        host, _, port = part.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise SettingsError(
                f"TIENLEN_REDIS_SENTINELS must be host:port pairs separated by commas "
                f"(10.0.0.1:26379,10.0.0.2:26379), not {text!r}"
            )
        found.append((host, int(port)))
    return tuple(found)


def _sentinel_master(text: str | None) -> str:
    if text is None:
        return DEFAULT_SENTINEL_MASTER
    if not text or any(c.isspace() for c in text):
        raise SettingsError(f"TIENLEN_REDIS_SENTINEL_MASTER must be the primary's name in the sentinels, not {text!r}")
    return text


def _topology(cluster: bool, sentinels: tuple[tuple[str, int], ...]) -> None:
    """Refuse the combination this server does not run: Sentinel with Cluster (any durability runs on either)."""
    if cluster and sentinels:
        raise SettingsError(
            "TIENLEN_REDIS_SENTINELS cannot be used with TIENLEN_REDIS_CLUSTER=1 (a Cluster fails over by itself)"
        )


def _data_dir(text: str | None) -> Path:
    if text is None:
        return DEFAULT_DATA_DIR
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise SettingsError(f"TIENLEN_DATA_DIR must be a directory (or not exist yet), not {text!r}")
    return path


def _web_dir(text: str | None) -> Path | None:
    if text is None:
        return checkout_web_dir()
    path = Path(text).expanduser()
    if not path.is_dir():
        raise SettingsError(f"TIENLEN_WEB_DIR must be a directory, not {text!r}")
    return path


def _origins(text: str) -> tuple[str, ...]:
    origins = tuple(o.strip().rstrip("/") for o in text.split(",") if o.strip())
    for origin in origins:
        if origin != "*" and not _ORIGIN.match(origin):
            raise SettingsError(
                f"TIENLEN_CORS_ORIGINS: {origin!r} is not '*' or an origin such as https://example.com:8443"
            )
    return origins


def _choice(
    values: Mapping[str, str], name: str, choices: tuple[str, ...], default: str, case: Callable[[str], str]
) -> str:
    raw = values.get(name)
    if raw is None:
        return default
    chosen = case(raw)
    if chosen not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return chosen


def _flag(values: Mapping[str, str], name: str) -> bool:
    raw = values.get(name, "").lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name} must be 1 or 0, not {values[name]!r}")


def _days_or_forever(values: Mapping[str, str], name: str) -> int | None:
    """A positive number of days, or None (for good) when the variable is unset or empty."""
    if not values.get(name):
        return None
    return _whole_number(values, name, 1)


def _whole_number(values: Mapping[str, str], name: str, default: int, *, least: int = 1) -> int:
    raw = values.get(name)
    if raw is None:
        return default
    wanted = "a positive integer" if least == 1 else f"a whole number, {least} or more"
    try:
        number = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be {wanted}, not {raw!r}") from None
    if number < least:
        raise SettingsError(f"{name} must be {wanted}, not {raw!r}")
    return number


def _seconds(values: Mapping[str, str], name: str, default: float) -> float:
    """A number of seconds, 0 or more."""
    return _number(values, name, default, zero=True)


def _positive_float(values: Mapping[str, str], name: str, default: float) -> float:
    return _number(values, name, default, zero=False)


def _number(values: Mapping[str, str], name: str, default: float, *, zero: bool) -> float:
    """A finite number above 0 (or 0 and above, with ``zero``)."""
    raw = values.get(name)
    if raw is None:
        return default
    wanted = "a number of seconds, 0 or more" if zero else "a positive number"
    try:
        number = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be {wanted}, not {raw!r}") from None
    if not (number >= 0 if zero else number > 0) or number == float("inf"):
        raise SettingsError(f"{name} must be {wanted}, not {raw!r}")
    return number
