"""One-shot RESP commands, without a client library.

A client's reconnect logic turns the expected "connection closed" answer to
``SHUTDOWN`` into seconds of back-off, so :class:`~tienlen.local_redis.LocalRedis`
talks to its child over a plain socket: one connection per command.
"""

from __future__ import annotations

import socket

__all__ = ["encode_command", "send_command"]


def encode_command(*parts: str) -> bytes:
    """Encode a command as a RESP array of bulk strings."""
    out = [f"*{len(parts)}\r\n".encode()]
    for part in parts:
        data = part.encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def send_command(host: str, port: int, *parts: str, timeout: float = 2.0) -> bytes:
    """Send one command and return its raw reply (a whole bulk string for ``$`` replies).

    Returns ``b""`` when the server closed the connection without answering
    (which is what a successful ``SHUTDOWN`` looks like).

    Raises:
        OSError: when the connection cannot be made or times out.
    """
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(encode_command(*parts))
        buf = b""
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
