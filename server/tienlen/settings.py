"""Settings of the server, from the environment (or a mapping given to ``create_app``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
DEFAULT_TTL_S = 7 * 24 * 3600
DEFAULT_MAX_BODY = 64 * 1024
DEFAULT_BOT_BUDGET_S = 0.2
DEFAULT_MAX_WAITERS = 5000
DEFAULT_HEARTBEAT_S = 15.0
DEFAULT_FINISHED_TTL_S = 24 * 3600
DEFAULT_WAITING_TTL_S = 3600
DEFAULT_REDIS_TIMEOUT_S = 1.0
DEFAULT_WRITES_AT_ONCE = 1
# What one client may do, by kind of request: create and join per address, act and hint per seat
# token, wait (long polls and streams) per address. ``TIENLEN_RATE_LIMITS`` overrides any of them.
DEFAULT_RATE_LIMITS = {
    "create": "60/minute",
    "join": "60/minute",
    "act": "600/minute",
    "hint": "120/minute",
    "wait": "300/minute",
}


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app can be configured with.

    Environment: ``REDIS_URL``, ``TIENLEN_MATCH_TTL`` (seconds of inactivity
    before a match is dropped), ``TIENLEN_MAX_BODY`` (bytes),
    ``TIENLEN_LOG_LEVEL``, ``TIENLEN_BOT_BUDGET`` (seconds a Hard bot or a hint
    may think), ``TIENLEN_MAX_WAITERS`` (long polls and streams one worker
    holds at once), ``TIENLEN_HEARTBEAT`` (seconds between a stream's
    heartbeats), ``TIENLEN_REDIS_CLUSTER`` (``1``: ``REDIS_URL`` names a node
    of a Redis Cluster), ``TIENLEN_REDIS_TIMEOUT`` (seconds any Redis call may
    take), ``TIENLEN_RATE_LIMITS`` (``off``, or ``kind=limit;...`` over
    :data:`DEFAULT_RATE_LIMITS`), ``TIENLEN_FINISHED_TTL`` and
    ``TIENLEN_WAITING_TTL`` (seconds a finished match, and a match still
    waiting for seats, is kept after its last change), ``TIENLEN_WRITES_AT_ONCE``
    (writes a gevent worker holding waiting clients runs at once, each after
    its other work; ``0``: every write as it comes).
    """

    redis_url: str = DEFAULT_REDIS_URL
    match_ttl_s: int = DEFAULT_TTL_S
    max_body: int = DEFAULT_MAX_BODY
    log_level: str = "INFO"
    bot_budget_s: float = DEFAULT_BOT_BUDGET_S
    max_waiters: int = DEFAULT_MAX_WAITERS
    heartbeat_s: float = DEFAULT_HEARTBEAT_S
    redis_cluster: bool = False
    redis_timeout_s: float = DEFAULT_REDIS_TIMEOUT_S
    rate_limits: dict[str, str] | None = None  # None: off
    finished_ttl_s: int = DEFAULT_FINISHED_TTL_S
    waiting_ttl_s: int = DEFAULT_WAITING_TTL_S
    writes_at_once: int = DEFAULT_WRITES_AT_ONCE

    @classmethod
    def load(cls, overrides: Mapping[str, Any] | None = None) -> Settings:
        """Settings from the environment, then ``overrides`` (same names as the variables)."""
        merged: dict[str, Any] = {k: v for k, v in os.environ.items() if k == "REDIS_URL" or k.startswith("TIENLEN_")}
        merged.update(overrides or {})
        return cls(
            redis_url=str(merged.get("REDIS_URL", DEFAULT_REDIS_URL)),
            match_ttl_s=_positive_int(merged, "TIENLEN_MATCH_TTL", DEFAULT_TTL_S),
            max_body=_positive_int(merged, "TIENLEN_MAX_BODY", DEFAULT_MAX_BODY),
            log_level=str(merged.get("TIENLEN_LOG_LEVEL", "INFO")).upper(),
            bot_budget_s=float(merged.get("TIENLEN_BOT_BUDGET", DEFAULT_BOT_BUDGET_S)),
            max_waiters=_positive_int(merged, "TIENLEN_MAX_WAITERS", DEFAULT_MAX_WAITERS),
            heartbeat_s=_positive_float(merged, "TIENLEN_HEARTBEAT", DEFAULT_HEARTBEAT_S),
            redis_cluster=_flag(merged, "TIENLEN_REDIS_CLUSTER"),
            redis_timeout_s=_positive_float(merged, "TIENLEN_REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT_S),
            rate_limits=parse_rate_limits(str(merged.get("TIENLEN_RATE_LIMITS", ""))),
            finished_ttl_s=_positive_int(merged, "TIENLEN_FINISHED_TTL", DEFAULT_FINISHED_TTL_S),
            waiting_ttl_s=_positive_int(merged, "TIENLEN_WAITING_TTL", DEFAULT_WAITING_TTL_S),
            writes_at_once=_count(merged, "TIENLEN_WRITES_AT_ONCE", DEFAULT_WRITES_AT_ONCE),
        )


def parse_rate_limits(text: str) -> dict[str, str] | None:
    """The limits ``TIENLEN_RATE_LIMITS`` asks for: None for ``off``, else the defaults with its overrides.

    The text is ``kind=limit`` pairs separated by ``;``, each limit in
    flask-limiter's notation (``60/minute``, ``10 per second``, several
    joined by ``,``); the kinds are those of :data:`DEFAULT_RATE_LIMITS`.
    """
    text = text.strip()
    if text.lower() in ("off", "0", "false", "no"):
        return None
    limits = dict(DEFAULT_RATE_LIMITS)
    for part in filter(None, (p.strip() for p in text.split(";"))):
        kind, _, limit = part.partition("=")
        kind, limit = kind.strip(), limit.strip()
        if kind not in DEFAULT_RATE_LIMITS or not limit:
            known = ", ".join(DEFAULT_RATE_LIMITS)
            raise ValueError(f"TIENLEN_RATE_LIMITS: {part!r} is not kind=limit with a kind of {known}, or 'off'")
        limits[kind] = limit
    return limits


def _flag(values: Mapping[str, Any], name: str) -> bool:
    raw = str(values.get(name, "")).strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"{name} must be 1 or 0, not {raw!r}")


def _positive_int(values: Mapping[str, Any], name: str, default: int) -> int:
    return _whole_number(values, name, default, least=1)


def _count(values: Mapping[str, Any], name: str, default: int) -> int:
    return _whole_number(values, name, default, least=0)


def _whole_number(values: Mapping[str, Any], name: str, default: int, *, least: int) -> int:
    raw = values.get(name, default)
    wanted = "a positive integer" if least == 1 else f"a whole number, {least} or more"
    try:
        number = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {wanted}, not {raw!r}") from None
    if number < least:
        raise ValueError(f"{name} must be {wanted}, not {raw!r}")
    return number


def _positive_float(values: Mapping[str, Any], name: str, default: float) -> float:
    raw = values.get(name, default)
    try:
        number = float(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, not {raw!r}") from None
    if not number > 0:
        raise ValueError(f"{name} must be a positive number, not {raw!r}")
    return number
