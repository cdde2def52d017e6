"""Reading the Redis variables: ``REDIS_URL`` (and :func:`shown_url`, its password masked), the embedded Redis's
data directory, the sentinels, their name for the primary and their credentials, the TLS files, and the topologies
this server does not run."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from ..redis_options import DEFAULT_SENTINEL_MASTER, RedisAccess
from .defaults import DEFAULT_DATA_DIR
from .values import SettingsError

REDIS_SCHEMES = ("redis", "rediss", "unix")


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


def redis_url(text: str) -> str:
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


def redis_access(values: Mapping[str, str], redis_url: str, sentinels: tuple[tuple[str, int], ...]) -> RedisAccess:
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


def sentinels(text: str) -> tuple[tuple[str, int], ...]:
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


def sentinel_master(text: str | None) -> str:
    """``TIENLEN_REDIS_SENTINEL_MASTER``: the primary's name in the sentinels, one word (unset: the default)."""
    if text is None:
        return DEFAULT_SENTINEL_MASTER
    if not text or any(c.isspace() for c in text):
        raise SettingsError(f"TIENLEN_REDIS_SENTINEL_MASTER must be the primary's name in the sentinels, not {text!r}")
    return text


def topology(cluster: bool, sentinels: tuple[tuple[str, int], ...]) -> None:
    """Refuse the combination this server does not run: Sentinel with Cluster (any durability runs on either)."""
    if cluster and sentinels:
        raise SettingsError(
            "TIENLEN_REDIS_SENTINELS cannot be used with TIENLEN_REDIS_CLUSTER=1 (a Cluster fails over by itself)"
        )


def data_dir(text: str | None) -> Path:
    """``TIENLEN_DATA_DIR``: a directory, or a path where one may be made (unset or empty: ``./var/redis``)."""
    if text is None:
        return DEFAULT_DATA_DIR
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise SettingsError(f"TIENLEN_DATA_DIR must be a directory (or not exist yet), not {text!r}")
    return path
