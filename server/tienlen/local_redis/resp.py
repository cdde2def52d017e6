"""One-shot RESP commands, without a client library.

A client's reconnect logic turns the expected "connection closed" answer to
``SHUTDOWN`` into seconds of back-off, so :class:`~tienlen.local_redis.LocalRedis`
talks to its child over a plain socket: one connection per command.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import Any

__all__ = ["encode_command", "send_command"]


def encode_command(*parts: str) -> bytes:
    """Encode a command as a RESP array of bulk strings."""
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def send_command(
    host: str, port: int, *parts: str, timeout: float = 2.0, auth: Sequence[str] = (), tls: Any = None
) -> bytes:
    """Send one command and return its raw reply (a whole bulk string for ``$`` replies).

    With ``auth`` (a password, or a user and a password) an ``AUTH`` goes first on the same connection; its
    refusal is the reply then. With ``tls`` (an :class:`ssl.SSLContext`) the connection is TLS.

    Returns ``b""`` when the server closed the connection without answering
    (which is what a successful ``SHUTDOWN`` looks like).

    Raises:
        OSError: when the connection cannot be made or times out.
    """
    with socket.create_connection((host, port), timeout=timeout) as plain:
        sock = plain if tls is None else tls.wrap_socket(plain, server_hostname=host)
        try:
            if auth:
                sock.sendall(encode_command("AUTH", *auth))
                said = _read_reply(sock, b"")
                if not said.startswith(b"+OK\r\n"):
                    return said
                rest = said[len(b"+OK\r\n") :]
            else:
                rest = b""
            sock.sendall(encode_command(*parts))
            return _read_reply(sock, rest)
        finally:
            if sock is not plain:
                sock.close()


def _read_reply(sock: socket.socket, buf: bytes) -> bytes:
    """Read from ``sock`` (after ``buf``, already read) until one whole reply is in."""
    needed: int | None = None
    while True:
        if needed is None and b"\r\n" in buf:
            header = buf.split(b"\r\n", 1)[0]
            if not header.startswith(b"$") or header == b"$-1":
                return buf
            needed = len(header) + 2 + int(header[1:]) + 2
        if needed is not None and len(buf) >= needed:
            return buf
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return buf
        if not chunk:
            return buf
        buf += chunk
