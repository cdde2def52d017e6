"""Reading one plain value of a variable: a choice, a flag, a whole number, seconds, days; :class:`SettingsError`.

Each reader takes the variables' stripped values by name and the variable's
name, returns its default when it is unset, and refuses a value it cannot use
with a :class:`SettingsError` naming the variable and what it must be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


class SettingsError(ValueError):
    """A variable has a value the server cannot use; the message names it and says what it must be."""


def choice(
    values: Mapping[str, str], name: str, choices: tuple[str, ...], default: str, case: Callable[[str], str]
) -> str:
    """One of ``choices`` (the value put in ``case`` first), or ``default`` when unset."""
    raw = values.get(name)
    if raw is None:
        return default
    chosen = case(raw)
    if chosen not in choices:
        raise SettingsError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return chosen


def flag(values: Mapping[str, str], name: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off`` (unset or empty: off)."""
    raw = values.get(name, "").lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name} must be 1 or 0, not {values[name]!r}")


def days_or_forever(values: Mapping[str, str], name: str) -> int | None:
    """A positive number of days, or None (for good) when the variable is unset or empty."""
    if not values.get(name):
        return None
    return whole_number(values, name, 1)


def whole_number(values: Mapping[str, str], name: str, default: int, *, least: int = 1) -> int:
    """A whole number, ``least`` or more (by default: positive)."""
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


def secret(values: Mapping[str, str], name: str, *, least: int = 32) -> str | None:
    """A secret of ``least`` or more printable characters without spaces, or None when unset or empty."""
    raw = values.get(name)
    if not raw:
        return None
    if len(raw) < least or not raw.isprintable() or any(c.isspace() for c in raw):
        raise SettingsError(f"{name} must be {least} or more printable characters without spaces")
    return raw


def seconds(values: Mapping[str, str], name: str, default: float) -> float:
    """A number of seconds, 0 or more."""
    return _number(values, name, default, zero=True)


def positive_float(values: Mapping[str, str], name: str, default: float) -> float:
    """A finite number above 0."""
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
