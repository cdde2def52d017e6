"""Plain HTTP calls to a real server for the tests of faults, limits and clusters: status, body, headers, time."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Reply", "call", "children"]


@dataclass
class Reply:
    """One answer: its status (0 when the connection failed), JSON body, headers and how long it took."""

    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    seconds: float = 0.0
    error: str | None = None

    @property
    def reason(self) -> str | None:
        """The error reason of the body, if any."""
        return self.body.get("reason") if isinstance(self.body, dict) else None


def call(
    method: str,
    url: str,
    body: Any = None,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 10.0,
) -> Reply:
    """Send one request; a refused or broken connection is a :class:`Reply` with status 0, not an exception."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw, status, found = response.read(), response.status, {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        raw, status, found = error.read(), error.code, {k.lower(): v for k, v in error.headers.items()}
    except (OSError, ValueError, http.client.HTTPException) as error:  # refused, reset, timed out, cut short
        return Reply(0, seconds=time.monotonic() - started, error=repr(error))
    seconds = time.monotonic() - started
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode(errors="replace")
    return Reply(status, parsed, found, seconds)


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (gunicorn's workers of a server)."""
    found: list[int] = []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            found = [int(child) for child in listing.read().split()]
    except OSError:
        pass
    return found
