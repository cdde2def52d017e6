"""The rate limits: what one client may do by kind of request, and reading ``TIENLEN_RATE_LIMITS`` over them."""

from __future__ import annotations

from .values import SettingsError

# What one client may do, by kind of request, each counted per account or per address as its views
# declare (api/limits.py; docs/operations.md has the table): create, join, act and hint, wait (long
# polls and streams), make an account, log in, export a history, make personal tokens, follow or unfollow, answer
# a puzzle, chat (messages and reports).
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
    "follow": "120/minute",
    "puzzle": "120/minute",
    "chat": "5/10 seconds,30/minute",
}


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
