"""Who may come into a group of local servers (a Sentinel group, a Cluster): passwords, ACL users, TLS.

An :class:`Access` is given to :class:`~.sentinel.LocalSentinelGroup` or
:class:`~.cluster.LocalCluster`: the data nodes ask for ``password`` (with
``username``, that ACL user's, the default user off), the sentinels for their
own, and with ``tls`` every server speaks TLS only. :meth:`Access.settings`
names the game server's settings that go with it (besides ``REDIS_URL``: a
node's :attr:`~.process.LocalRedis.url` holds the user, the password and the
scheme).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tls import TlsFiles

__all__ = ["OPEN", "Access", "access_args"]


@dataclass(frozen=True, slots=True)
class Access:
    """The data nodes' password (and ACL user), the sentinels' password (and ACL user), TLS for every server."""

    password: str | None = None
    username: str | None = None
    sentinel_password: str | None = None
    sentinel_username: str | None = None
    tls: TlsFiles | None = None

    def of_nodes(self) -> dict[str, Any]:
        """:class:`~.process.LocalRedis`'s keyword arguments for a data node."""
        return {"password": self.password, "username": self.username, "tls": self.tls}

    def of_sentinels(self) -> dict[str, Any]:
        """:class:`~.process.LocalRedis`'s keyword arguments for a sentinel."""
        return {"password": self.sentinel_password, "username": self.sentinel_username, "tls": self.tls}

    def settings(self) -> dict[str, str]:
        """The game server's settings for this access, but ``REDIS_URL``: the sentinels' credentials (when they
        ask for one) and the TLS files (the CA, the client's certificate and key)."""
        found: dict[str, str] = {}
        if self.sentinel_password is not None:
            found["TIENLEN_REDIS_SENTINEL_PASSWORD"] = self.sentinel_password
        if self.sentinel_username is not None:
            found["TIENLEN_REDIS_SENTINEL_USERNAME"] = self.sentinel_username
        if self.tls is not None:
            found["TIENLEN_REDIS_TLS_CA"] = str(self.tls.ca)
            found["TIENLEN_REDIS_TLS_CERT"] = str(self.tls.client_cert)
            found["TIENLEN_REDIS_TLS_KEY"] = str(self.tls.client_key)
        return found


OPEN = Access()  # no password, no TLS: the groups' default


def access_args(username: str | None, password: str | None) -> list[str]:
    """``redis-server``'s options for who may come in: ``requirepass``, or one ACL user with every right (the
    default user off); none without a password."""
    if password is None:
        return []
    if username is None:
        return ["--requirepass", password]
    return ["--user", "default", "off", "--user", username, "on", f">{password}", "~*", "&*", "+@all"]
