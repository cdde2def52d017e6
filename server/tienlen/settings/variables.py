"""The names of the variables the settings read, and the near misses among the others (a misspelt setting)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

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
    "TIENLEN_MODERATOR_TOKEN",
    "TIENLEN_WEB_DIR",
    "TIENLEN_LOG_LEVEL",
    "TIENLEN_LOG_FORMAT",
)


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
