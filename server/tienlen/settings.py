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


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app can be configured with.

    Environment: ``REDIS_URL``, ``TIENLEN_MATCH_TTL`` (seconds of inactivity
    before a match is dropped), ``TIENLEN_MAX_BODY`` (bytes),
    ``TIENLEN_LOG_LEVEL``, ``TIENLEN_BOT_BUDGET`` (seconds a Hard bot or a hint
    may think), ``TIENLEN_MAX_WAITERS`` (long polls and streams one worker
    holds at once), ``TIENLEN_HEARTBEAT`` (seconds between a stream's
    heartbeats).
    """

    redis_url: str = DEFAULT_REDIS_URL
    match_ttl_s: int = DEFAULT_TTL_S
    max_body: int = DEFAULT_MAX_BODY
    log_level: str = "INFO"
    bot_budget_s: float = DEFAULT_BOT_BUDGET_S
    max_waiters: int = DEFAULT_MAX_WAITERS
    heartbeat_s: float = DEFAULT_HEARTBEAT_S

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
        )


def _positive_int(values: Mapping[str, Any], name: str, default: int) -> int:
    raw = values.get(name, default)
    try:
        number = int(raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive integer, not {raw!r}") from None
    if number <= 0:
        raise ValueError(f"{name} must be a positive integer, not {raw!r}")
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
