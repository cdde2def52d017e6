"""A small Server-Sent Events reader over one HTTP connection, for the stream tests."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from dataclasses import dataclass
from typing import Any

__all__ = ["Frame", "SseReader", "StreamCut"]


class StreamCut(ConnectionError):
    """The connection ended without the answer's end (a crash or a reset, not a clean end of the stream)."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One SSE frame: an event (``id``, ``event``, ``data``) or a comment (``comment``)."""

    id: str | None = None
    event: str | None = None
    data: str | None = None
    comment: str | None = None

    @property
    def payload(self) -> dict[str, Any]:
        """The event's JSON data."""
        assert self.data is not None
        value: dict[str, Any] = json.loads(self.data)
        return value


class SseReader:
    """``GET`` a stream and read its frames one by one.

    :meth:`next` is None only at a clean end of the answer (the last chunk of
    a chunked body); a connection that just stops raises :class:`StreamCut`.
    """

    def __init__(self, base_url: str, path: str, headers: dict[str, str] | None = None, timeout: float = 10) -> None:
        parsed = urllib.parse.urlsplit(base_url)
        self.connection = http.client.HTTPConnection(parsed.hostname or "127.0.0.1", parsed.port, timeout=timeout)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"} | (headers or {}))
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self._buffer = b""
        self._ended = False

    def _readline(self) -> bytes:
        """One line of the body, decoded from its chunks here so that a cut-off body cannot pass for an end."""
        if not self.response.chunked:
            return self.response.readline()
        raw = self.response.fp
        while b"\n" not in self._buffer and not self._ended:
            size_line = raw.readline()
            if not size_line:
                raise StreamCut("the connection closed in the middle of the stream")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                while raw.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                self._ended = True
                break
            self._buffer += raw.read(size)
            raw.read(2)
        line, newline, self._buffer = self._buffer.partition(b"\n")
        return line + newline

    def body(self) -> Any:
        """The JSON body of a refused (non-stream) answer."""
        return json.loads(self.response.read())

    def next(self) -> Frame | None:
        """The next frame, or None when the server ended the answer."""
        fields: dict[str, str] = {}
        comment: str | None = None
        while True:
            raw = self._readline()
            if not raw:
                return None
            line = raw.decode().rstrip("\n")
            if line == "":
                if fields or comment is not None:
                    return Frame(fields.get("id"), fields.get("event"), fields.get("data"), comment)
                continue
            if line.startswith(":"):
                comment = line[1:].strip()
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def close(self) -> None:
        """Drop the connection (as a client going away would)."""
        self.connection.close()
