"""The settings' defaults and choices: what an unset variable means, and the words a variable may say."""

from __future__ import annotations

from pathlib import Path

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
