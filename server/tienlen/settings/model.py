"""The :class:`Settings` object: every setting's field and default, the table of the variables, and :meth:`load`
reading them all (each by its reader in :mod:`.values`, :mod:`.connection`, :mod:`.rate_limits`, :mod:`.web`)."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import DEFAULT_BUDGET_S
from ..redis_options import (
    DEFAULT_DURABILITY,
    DEFAULT_REDIS_TIMEOUT_S,
    DEFAULT_REDIS_URL,
    DEFAULT_SENTINEL_MASTER,
    DURABILITY_LEVELS,
    RedisAccess,
    RedisOptions,
)
from ..store_kinds import DEFAULT_STORE, STORE_KINDS
from . import connection, web
from . import values as read
from .defaults import (
    DEFAULT_CHALLENGE_EXPIRY_S,
    DEFAULT_DATA_DIR,
    DEFAULT_FINISHED_TTL_S,
    DEFAULT_HEARTBEAT_S,
    DEFAULT_LOG_FORMAT,
    DEFAULT_LOG_LEVEL,
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_CHALLENGES_RECEIVED,
    DEFAULT_MAX_CHALLENGES_SENT,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MAX_WAITERS,
    DEFAULT_MAX_WAITERS_PER_ACCOUNT,
    DEFAULT_MAX_WAITERS_PER_ADDRESS,
    DEFAULT_QUEUE_FILL_S,
    DEFAULT_QUEUE_TURN_S,
    DEFAULT_SESSION_DAYS,
    DEFAULT_TRUSTED_PROXIES,
    DEFAULT_TTL_S,
    DEFAULT_WAITING_TTL_S,
    DEFAULT_WRITES_AT_ONCE,
    LOG_FORMATS,
    LOG_LEVELS,
)
from .rate_limits import DEFAULT_RATE_LIMITS, parse_rate_limits
from .variables import VARIABLES


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
    ``TIENLEN_MODERATOR_TOKEN`` (none)          the moderators' token (32 or more printable characters, no spaces):
                                                ``Authorization: Bearer <it>`` on ``/v1/moderation`` acts as a
                                                moderator; unset: no one moderates (403 ``not_moderator``)
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
    moderator_token: str | None = field(default=None, repr=False)  # None: no moderator
    web_dir: Path | None = field(default_factory=web.checkout_web_dir)
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
        store = read.choice(values, "TIENLEN_STORE", STORE_KINDS, DEFAULT_STORE, str.lower)
        sentinels = connection.sentinels(values.get("TIENLEN_REDIS_SENTINELS", ""))
        cluster = read.flag(values, "TIENLEN_REDIS_CLUSTER")
        durability = read.choice(values, "TIENLEN_DURABILITY", DURABILITY_LEVELS, DEFAULT_DURABILITY, str.lower)
        connection.topology(cluster, sentinels)
        return cls(
            store=store,
            redis_url=DEFAULT_REDIS_URL if redis_url is None else connection.redis_url(redis_url),
            embedded_redis=redis_url is None and store == "redis" and not sentinels,
            data_dir=connection.data_dir(values.get("TIENLEN_DATA_DIR") or None),
            redis_cluster=cluster,
            redis_sentinels=sentinels,
            redis_sentinel_master=connection.sentinel_master(values.get("TIENLEN_REDIS_SENTINEL_MASTER")),
            redis_access=connection.redis_access(values, redis_url or DEFAULT_REDIS_URL, sentinels),
            durability=durability,
            redis_timeout_s=read.positive_float(values, "TIENLEN_REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT_S),
            match_ttl_s=read.whole_number(values, "TIENLEN_MATCH_TTL", DEFAULT_TTL_S),
            waiting_ttl_s=read.whole_number(values, "TIENLEN_WAITING_TTL", DEFAULT_WAITING_TTL_S),
            finished_ttl_s=read.whole_number(values, "TIENLEN_FINISHED_TTL", DEFAULT_FINISHED_TTL_S),
            max_body=read.whole_number(values, "TIENLEN_MAX_BODY", DEFAULT_MAX_BODY),
            bot_budget_s=read.positive_float(values, "TIENLEN_BOT_BUDGET", DEFAULT_BUDGET_S),
            max_waiters=read.whole_number(values, "TIENLEN_MAX_WAITERS", DEFAULT_MAX_WAITERS),
            max_waiters_per_account=read.whole_number(
                values, "TIENLEN_MAX_WAITERS_PER_ACCOUNT", DEFAULT_MAX_WAITERS_PER_ACCOUNT
            ),
            max_waiters_per_address=read.whole_number(
                values, "TIENLEN_MAX_WAITERS_PER_ADDRESS", DEFAULT_MAX_WAITERS_PER_ADDRESS
            ),
            writes_at_once=read.whole_number(values, "TIENLEN_WRITES_AT_ONCE", DEFAULT_WRITES_AT_ONCE, least=0),
            heartbeat_s=read.positive_float(values, "TIENLEN_HEARTBEAT", DEFAULT_HEARTBEAT_S),
            rate_limits=parse_rate_limits(values.get("TIENLEN_RATE_LIMITS", "")),
            session_days=read.whole_number(values, "TIENLEN_SESSION_DAYS", DEFAULT_SESSION_DAYS),
            max_tokens=read.whole_number(values, "TIENLEN_MAX_TOKENS", DEFAULT_MAX_TOKENS),
            anonymous_hosting=read.flag(values, "TIENLEN_ANONYMOUS_HOSTING"),
            history_days=read.days_or_forever(values, "TIENLEN_HISTORY_DAYS"),
            queue_fill_s=read.seconds(values, "TIENLEN_QUEUE_FILL_S", DEFAULT_QUEUE_FILL_S),
            queue_turn_s=read.whole_number(values, "TIENLEN_QUEUE_TURN_S", DEFAULT_QUEUE_TURN_S, least=0),
            challenge_expiry_s=read.whole_number(values, "TIENLEN_CHALLENGE_EXPIRY_S", DEFAULT_CHALLENGE_EXPIRY_S),
            max_challenges_sent=read.whole_number(values, "TIENLEN_MAX_CHALLENGES_SENT", DEFAULT_MAX_CHALLENGES_SENT),
            max_challenges_received=read.whole_number(
                values, "TIENLEN_MAX_CHALLENGES_RECEIVED", DEFAULT_MAX_CHALLENGES_RECEIVED
            ),
            cors_origins=web.origins(values.get("TIENLEN_CORS_ORIGINS", "")),
            trusted_proxies=read.whole_number(values, "TIENLEN_TRUSTED_PROXIES", DEFAULT_TRUSTED_PROXIES, least=0),
            moderator_token=read.secret(values, "TIENLEN_MODERATOR_TOKEN"),
            web_dir=web.web_dir(values.get("TIENLEN_WEB_DIR") or None),
            log_level=read.choice(values, "TIENLEN_LOG_LEVEL", LOG_LEVELS, DEFAULT_LOG_LEVEL, str.upper),
            log_format=read.choice(values, "TIENLEN_LOG_FORMAT", LOG_FORMATS, DEFAULT_LOG_FORMAT, str.lower),
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
