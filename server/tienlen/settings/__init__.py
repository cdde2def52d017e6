"""Settings of the server: every ``TIENLEN_*`` variable and ``REDIS_URL``, read once, typed and checked.

:meth:`Settings.load` reads the environment (or a mapping given to
``create_app``) and refuses a bad value with a :class:`SettingsError` naming
the variable, e.g. ``TIENLEN_MAX_BODY must be a positive integer, not 'abc'``;
``tienlen serve`` prints that one line and exits 2 before anything starts.
Every other module takes its values from the :class:`Settings` object.

One module per job:

- :mod:`.model`: the :class:`Settings` object, its fields and the table of
  the variables (its docstring), and :meth:`Settings.load` reading them all;
- :mod:`.variables`: the names of the variables read (:data:`VARIABLES`) and
  :func:`misspelt`, the near misses among the other ``TIENLEN_*`` ones;
- :mod:`.defaults`: what an unset variable means, and the log levels and
  formats a variable may name;
- :mod:`.values`: :class:`SettingsError` and the readers of one plain value
  (a choice, a flag, a whole number, seconds, days);
- :mod:`.connection`: the Redis variables (``REDIS_URL`` and
  :func:`shown_url`, the data directory, the sentinels, the TLS files);
- :mod:`.rate_limits`: :data:`DEFAULT_RATE_LIMITS` and
  :func:`parse_rate_limits` (``TIENLEN_RATE_LIMITS``);
- :mod:`.web`: the browser table's files (:func:`checkout_web_dir`,
  ``TIENLEN_WEB_DIR``) and the CORS origins.
"""

from __future__ import annotations

from ..redis_options import DURABILITY_LEVELS
from .connection import REDIS_SCHEMES, shown_url
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
from .model import Settings
from .rate_limits import DEFAULT_RATE_LIMITS, parse_rate_limits
from .values import SettingsError
from .variables import VARIABLES, misspelt
from .web import CHECKOUT_WEB_FILES, checkout_web_dir

__all__ = [
    "CHECKOUT_WEB_FILES",
    "DEFAULT_CHALLENGE_EXPIRY_S",
    "DEFAULT_DATA_DIR",
    "DEFAULT_FINISHED_TTL_S",
    "DEFAULT_HEARTBEAT_S",
    "DEFAULT_LOG_FORMAT",
    "DEFAULT_LOG_LEVEL",
    "DEFAULT_MAX_BODY",
    "DEFAULT_MAX_CHALLENGES_RECEIVED",
    "DEFAULT_MAX_CHALLENGES_SENT",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MAX_WAITERS",
    "DEFAULT_MAX_WAITERS_PER_ACCOUNT",
    "DEFAULT_MAX_WAITERS_PER_ADDRESS",
    "DEFAULT_QUEUE_FILL_S",
    "DEFAULT_QUEUE_TURN_S",
    "DEFAULT_RATE_LIMITS",
    "DEFAULT_SESSION_DAYS",
    "DEFAULT_TRUSTED_PROXIES",
    "DEFAULT_TTL_S",
    "DEFAULT_WAITING_TTL_S",
    "DEFAULT_WRITES_AT_ONCE",
    "DURABILITY_LEVELS",
    "LOG_FORMATS",
    "LOG_LEVELS",
    "REDIS_SCHEMES",
    "VARIABLES",
    "Settings",
    "SettingsError",
    "checkout_web_dir",
    "misspelt",
    "parse_rate_limits",
    "shown_url",
]
