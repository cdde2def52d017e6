"""How clients reach a local ``redis-server``: its address and port, its URL, the credentials and TLS a client
needs, a redis-py client, and one-shot commands over a socket (``PING``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from .resp import send_command
from .tls import TlsFiles, client_context, client_ssl_kwargs

__all__ = ["Endpoint"]


class Endpoint:
    """The client's side of a local server (:class:`~tienlen.local_redis.LocalRedis` is one): where it listens and
    what a client must show it. The server sets these attributes; :attr:`port` is known once it has one."""

    host: str
    password: str | None
    username: str | None
    tls: TlsFiles | None
    _port: int | None

    @property
    def port(self) -> int:
        """The TCP port (known once started, or when given explicitly)."""
        if self._port is None:
            raise RuntimeError("LocalRedis has no port yet: call start() first")
        return self._port

    @property
    def url(self) -> str:
        """A redis-py URL for database 0, e.g. ``redis://127.0.0.1:6380/0``; ``rediss://`` with TLS, with the
        user and password when clients must give them (``redis://tienlen:secret@127.0.0.1:6380/0``)."""
        host = self.host_for_clients
        if ":" in host:
            host = f"[{host}]"
        scheme = "rediss" if self.tls is not None else "redis"
        who = ""
        if self.password is not None:
            who = f"{quote(self.username or '', safe='')}:{quote(self.password, safe='')}@"
        return f"{scheme}://{who}{host}:{self.port}/0"

    @property
    def auth(self) -> tuple[str, ...]:
        """What ``AUTH`` takes for this server: (), the password, or the user and the password."""
        if self.password is None:
            return ()
        return (self.password,) if self.username is None else (self.username, self.password)

    def client_kwargs(self) -> dict[str, Any]:
        """redis-py's keyword arguments for a client of this server: credentials, and TLS with the client's
        certificate."""
        found: dict[str, Any] = {}
        if self.password is not None:
            found |= {"username": self.username, "password": self.password}
        return found | ({} if self.tls is None else client_ssl_kwargs(self.tls))

    def client(self, **kwargs: Any) -> Any:
        """A redis-py client of this server (credentials and TLS as :meth:`client_kwargs`), untyped."""
        import redis  # here: tienlen serve's gunicorn master imports this module, and must not load redis-py

        return redis.Redis(host=self.host_for_clients, port=self.port, **self.client_kwargs(), **kwargs)

    @property
    def host_for_clients(self) -> str:
        """The address clients should connect to (a wildcard bind maps to loopback)."""
        if self.host in ("", "0.0.0.0"):
            return "127.0.0.1"
        if self.host == "::":
            return "::1"
        return self.host

    def ping(self, timeout: float = 1.0) -> bool:
        """Return True when the server answers PING with PONG."""
        try:
            return self._send("PING", timeout=timeout).startswith(b"+PONG")
        except OSError:
            return False

    def _send(self, *parts: str, timeout: float) -> bytes:
        """One command to this server over a socket of its own (after ``AUTH``, over TLS as it asks)."""
        context = None if self.tls is None else client_context(self.tls)
        return send_command(self.host_for_clients, self.port, *parts, timeout=timeout, auth=self.auth, tls=context)
